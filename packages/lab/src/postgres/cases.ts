/**
 * The lesson's Postgres contrast (cases P1–P3) on a real server: writer A updates its rows and
 * keeps its transaction open, writer B starts its own update, a third connection watches whether
 * `pg_blocking_pids(B)` names A, and only then A commits. What happens to B is Postgres's doing:
 * nothing here knows what a case is expected to give.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { withConnection } from '@racelab/engine';
import pg from 'pg';
import type { RunVerdict, TableCheck, WriterResult, WriterTimings } from '../results/types';
import { copyFromFile } from './copy';
import { ensureDatabase, withDatabase } from './databases';
import { tipUpdateSql } from './tip-update';
import { postgresVerdict } from './verdict';

/** The lab's own database on the server. */
export const LAB_DATABASE = 'racelab_lab';

export type PostgresIsolation = 'read committed' | 'repeatable read';

export interface PostgresCaseSpec {
  isolation: PostgresIsolation;
  vendorA: number;
  vendorB: number;
  /** Bound on the watch (B neither waiting on A nor done), ms. Default 120 s: at full scale B's update alone takes seconds. */
  watchTimeoutMs?: number;
}

/** WriterResult plus what Postgres told us. */
export interface PostgresWriterResult extends WriterResult {
  /** SQLSTATE of the final failure (40001 for a serialization failure), else null. */
  sqlState: string | null;
  /** The writer's backend PID. */
  backendPid: number;
}

export interface PostgresCaseResult {
  writers: PostgresWriterResult[];
  table: TableCheck;
  /** The committed writers in the order their COMMIT returned to the runner. */
  commitOrder: string[];
  /** The serial-replay oracle's verdict on the table afterwards (its time is not in durationMs). */
  verdict: RunVerdict;
  durationMs: number;
  /** How many times the watcher asked pg_blocking_pids before B waited or returned. */
  watchPolls: number;
}

export interface PrepareOptions {
  /** DuckDB runner used to read the parquet (default: the engine's `withConnection`). */
  withDuck?: typeof withConnection;
  /** Folder for the temporary CSV (default: the OS temp dir). */
  tmpDir?: string;
}

export interface PreparedPostgresLab {
  /** URL of the lab database. */
  url: string;
  rows: number;
  fingerprint: string;
  /** True when this call loaded the trips, false when the same data was already there. */
  loaded: boolean;
  /** Time spent loading (CSV export, COPY, keys, snapshot table), ms; 0 when skipped. */
  loadMs: number;
  /** `SHOW server_version`, e.g. "18.4". */
  serverVersion: string;
}

type Client = pg.Client;

/** The lab database's URL on the server that `serverUrl` points to (the same URL when it names it). */
export function labDatabaseUrl(serverUrl: string): string {
  return withDatabase(serverUrl, LAB_DATABASE);
}

/** host:port/database of a URL, without credentials, for messages. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

function errorText(e: unknown): string {
  if (e instanceof AggregateError && e.message === '') return e.errors.map(errorText).join('; ');
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== undefined && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
  }
  return String(e);
}

async function open(url: string, label: string): Promise<Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 15_000,
    application_name: `racelab-${label}`,
  });
  // A dropped connection surfaces as the next query's error; without a listener it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw new Error(`cannot connect to Postgres at ${where(url)} (${label}): ${errorText(e)}`, { cause: e });
  }
  return client;
}

async function withClient<T>(url: string, label: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = await open(url, label);
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** `SHOW server_version` of the server at `url`, for the results' versions. */
export function postgresServerVersion(url: string): Promise<string> {
  return withClient(url, 'version', async (c) =>
    String((await c.query('SHOW server_version')).rows[0]?.server_version),
  );
}

/**
 * Creates the lab database when it is missing, connected to the server URL's own database (or
 * `postgres` when that names the lab's or none). A URL of the lab database's own role, as the
 * embedded server hands out, reaches it at once and is never sent elsewhere.
 */
async function ensureLabDatabase(serverUrl: string): Promise<void> {
  const admin = new URL(serverUrl);
  if (admin.pathname === `/${LAB_DATABASE}` || admin.pathname === '/' || admin.pathname === '') {
    admin.pathname = '/postgres';
  }
  await ensureDatabase(labDatabaseUrl(serverUrl), admin.toString());
}

interface ParquetFingerprint {
  rows: number;
  tripIdSum: string;
  contentHash: string;
  text: string;
}

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

async function parquetFingerprint(file: string, duck: typeof withConnection): Promise<ParquetFingerprint> {
  return duck(async (c) => {
    const src = `read_parquet(${sqlString(file)})`;
    const cols = (await c.runAndReadAll(`DESCRIBE SELECT * FROM ${src}`))
      .getRowObjectsJson()
      .map((r) => String(r.column_name));
    const missing = ['trip_id', 'VendorID', 'tip_amount'].filter((n) => !cols.includes(n));
    if (missing.length > 0) {
      throw new Error(`${file} lacks column(s) ${missing.join(', ')}; it has: ${cols.join(', ')}`);
    }
    const r = await c.runAndReadAll(
      `SELECT count(*)::VARCHAR AS n, coalesce(sum(trip_id), 0)::VARCHAR AS ids,
              coalesce(sum(hash(trip_id, "VendorID", tip_amount)::HUGEINT), 0)::VARCHAR AS h
         FROM ${src}`,
    );
    const row = r.getRowObjectsJson()[0];
    const rows = Number(row?.n);
    const tripIdSum = String(row?.ids);
    const contentHash = String(row?.h);
    return {
      rows,
      tripIdSum,
      contentHash,
      // The layout is part of it: a cluster loaded with another table layout is reloaded.
      text: `layout=${LAYOUT};rows=${rows};trip_id_sum=${tripIdSum};hash=${contentHash}`,
    };
  });
}

async function exportCsv(parquet: string, csv: string, duck: typeof withConnection): Promise<void> {
  await duck(async (c) => {
    await c.run(
      `COPY (SELECT trip_id, "VendorID", tip_amount FROM read_parquet(${sqlString(parquet)}))
         TO ${sqlString(csv)} (FORMAT csv, HEADER false)`,
    );
  });
}

const META_DDL = `CREATE TABLE IF NOT EXISTS racelab_meta (
  id integer PRIMARY KEY CHECK (id = 1),
  rows bigint NOT NULL,
  trip_id_sum numeric NOT NULL,
  fingerprint text NOT NULL,
  source text NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now(),
  load_ms integer NOT NULL
)`;

const TRIPS_FILLFACTOR = 30;
/** Bump when the tables' shape or storage changes. */
const LAYOUT = `v1-ff${TRIPS_FILLFACTOR}`;

const RESET_SQL = `UPDATE trips t SET tip_amount = o.tip_amount
  FROM trips_original o
  WHERE t.trip_id = o.trip_id AND t.tip_amount IS DISTINCT FROM o.tip_amount`;

/**
 * Makes the lab database (`racelab_lab`) hold the January trips: `trips(trip_id, "VendorID",
 * tip_amount)` and the untouched copy `trips_original`, loaded once with COPY … FROM STDIN. A second
 * call with the same parquet content (row count, trip_id sum, content hash) only resets the tips.
 */
export async function preparePostgresLab(
  serverUrl: string,
  januaryParquetPath: string,
  opts: PrepareOptions = {},
): Promise<PreparedPostgresLab> {
  const duck = opts.withDuck ?? withConnection;
  const parquet = path.resolve(januaryParquetPath);
  if (!fs.existsSync(parquet)) throw new Error(`January parquet not found: ${parquet}`);
  const fp = await parquetFingerprint(parquet, duck);
  await ensureLabDatabase(serverUrl);
  const url = labDatabaseUrl(serverUrl);

  return withClient(url, 'prepare', async (c) => {
    const serverVersion = String((await c.query('SHOW server_version')).rows[0]?.server_version);
    await c.query(META_DDL);
    const meta = await c.query<{ fingerprint: string; rows: string; present: boolean }>(
      `SELECT fingerprint, rows::text AS rows,
              to_regclass('trips') IS NOT NULL AND to_regclass('trips_original') IS NOT NULL AS present
         FROM racelab_meta WHERE id = 1`,
    );
    const m = meta.rows[0];
    if (m?.present && m.fingerprint === fp.text) {
      const counts = await c.query<{ t: string; o: string }>(
        'SELECT (SELECT count(*) FROM trips)::text AS t, (SELECT count(*) FROM trips_original)::text AS o',
      );
      const n = counts.rows[0];
      if (n !== undefined && Number(n.t) === fp.rows && Number(n.o) === fp.rows) {
        await c.query(RESET_SQL);
        return { url, rows: fp.rows, fingerprint: fp.text, loaded: false, loadMs: 0, serverVersion };
      }
    }

    const t0 = performance.now();
    const tmpParent = opts.tmpDir ?? os.tmpdir();
    const tmp = fs.mkdtempSync(path.join(tmpParent, 'racelab-pgcopy-'));
    try {
      const csv = path.join(tmp, 'trips.csv');
      await exportCsv(parquet, csv, duck);
      await c.query('BEGIN');
      try {
        await c.query('DROP TABLE IF EXISTS trips, trips_original');
        await c.query('DELETE FROM racelab_meta');
        // Half-full pages: a tip update then finds room on its own page and is a HOT update (no index
        // entry to write), which makes a full-scale run several times faster. Locks are the same.
        await c.query(
          `CREATE TABLE trips (trip_id bigint NOT NULL, "VendorID" integer, tip_amount double precision)
             WITH (fillfactor = ${TRIPS_FILLFACTOR})`,
        );
        const copied = await copyFromFile(
          c,
          'COPY trips (trip_id, "VendorID", tip_amount) FROM STDIN WITH (FORMAT csv)',
          csv,
        );
        if (copied !== fp.rows) throw new Error(`COPY loaded ${copied} rows but ${parquet} holds ${fp.rows}`);
        await c.query('ALTER TABLE trips ADD PRIMARY KEY (trip_id)');
        await c.query('CREATE TABLE trips_original AS TABLE trips');
        await c.query('ALTER TABLE trips_original ADD PRIMARY KEY (trip_id)');
        await c.query(
          `INSERT INTO racelab_meta (id, rows, trip_id_sum, fingerprint, source, load_ms)
           VALUES (1, $1, $2, $3, $4, $5)`,
          [fp.rows, fp.tripIdSum, fp.text, parquet, Math.round(performance.now() - t0)],
        );
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      await c.query('ANALYZE trips');
      await c.query('ANALYZE trips_original');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    return {
      url,
      rows: fp.rows,
      fingerprint: fp.text,
      loaded: true,
      loadMs: Math.round(performance.now() - t0),
      serverVersion,
    };
  });
}

async function assertPrepared(c: Client): Promise<void> {
  const r = await c.query<{ ok: boolean }>(
    "SELECT to_regclass('trips') IS NOT NULL AND to_regclass('trips_original') IS NOT NULL AS ok",
  );
  if (r.rows[0]?.ok !== true) {
    throw new Error(`the Postgres lab database ${LAB_DATABASE} has no trips tables: run preparePostgresLab first`);
  }
}

/** Puts every tip back to its original value (only the rows that differ are written). */
export async function resetPostgresLab(serverUrl: string): Promise<number> {
  return withClient(labDatabaseUrl(serverUrl), 'reset', async (c) => {
    await assertPrepared(c);
    return (await c.query(RESET_SQL)).rowCount ?? 0;
  });
}

/** The table afterwards, compared with trips_original. */
export async function postgresTableCheck(serverUrl: string): Promise<TableCheck> {
  return withClient(labDatabaseUrl(serverUrl), 'check', async (c) => {
    await assertPrepared(c);
    return tableCheck(c);
  });
}

const DELTA = 'round((t.tip_amount - o.tip_amount)::numeric, 6)';

async function tableCheck(c: Client): Promise<TableCheck> {
  const totals = await c.query<{ n: string; ids: string }>(
    'SELECT count(*)::text AS n, count(DISTINCT trip_id)::text AS ids FROM trips',
  );
  const byVendor = await c.query<{ vendor: string | null; trips: string; delta: string; changed: string }>(
    `SELECT t."VendorID"::text AS vendor, count(*)::text AS trips,
            coalesce(sum(${DELTA}), 0)::text AS delta,
            count(*) FILTER (WHERE t.tip_amount IS DISTINCT FROM o.tip_amount)::text AS changed
       FROM trips t LEFT JOIN trips_original o USING (trip_id)
      GROUP BY t."VendorID" ORDER BY t."VendorID"`,
  );
  const values = await c.query<{ d: string }>(
    `SELECT DISTINCT ${DELTA}::text AS d FROM trips t JOIN trips_original o USING (trip_id)
      WHERE ${DELTA} <> 0 ORDER BY 1 LIMIT 1000`,
  );
  const tipDeltaByVendor: Record<string, number> = {};
  const tipChangedByVendor: Record<string, number> = {};
  const tripsByVendor: Record<string, number> = {};
  for (const r of byVendor.rows) {
    const key = r.vendor ?? 'null';
    tipDeltaByVendor[key] = Number(r.delta);
    tipChangedByVendor[key] = Number(r.changed);
    tripsByVendor[key] = Number(r.trips);
  }
  return {
    version: null,
    rows: Number(totals.rows[0]?.n ?? 0),
    distinctTripIds: Number(totals.rows[0]?.ids ?? 0),
    tripsOnDay: {},
    tipDeltaByVendor,
    tipChangedByVendor,
    tipDeltaValues: values.rows.map((r) => Number(r.d)).sort((a, b) => a - b),
    tripsByVendor,
    dataFilesOnDisk: null,
    dataFilesInLog: null,
  };
}

/** psycopg's class names for the SQLSTATEs a writer can meet here. */
const ERROR_CLASSES: Record<string, string> = {
  '40001': 'SerializationFailure',
  '40P01': 'DeadlockDetected',
  '55P03': 'LockNotAvailable',
  '57014': 'QueryCanceled',
  '25P02': 'InFailedSqlTransaction',
  '57P01': 'AdminShutdown',
  '42P01': 'UndefinedTable',
};

function classify(e: unknown): { errorClass: string; errorMessage: string; sqlState: string | null } {
  const code = (e as { code?: unknown }).code;
  if (e instanceof pg.DatabaseError && typeof code === 'string') {
    return { errorClass: ERROR_CLASSES[code] ?? 'DatabaseError', errorMessage: e.message, sqlState: code };
  }
  if (e instanceof Error) return { errorClass: e.name, errorMessage: e.message, sqlState: null };
  return { errorClass: 'Error', errorMessage: String(e), sqlState: null };
}

const UPDATE_SQL = tipUpdateSql('trips');

interface WriterState {
  name: string;
  vendor: number;
  client: Client;
  backendPid: number;
  committed: boolean;
  rowsUpdated: number | null;
  error: unknown;
  timings: WriterTimings;
}

function writerResult(w: WriterState, waitedOnLock: boolean | null): PostgresWriterResult {
  const err = w.error === undefined ? null : classify(w.error);
  return {
    name: w.name,
    operation: 'postgres-update',
    committed: w.committed,
    version: null,
    attempts: 1,
    commitRetries: null,
    attemptErrors: [],
    waitedOnLock,
    warnings: [],
    errorClass: err?.errorClass ?? null,
    errorMessage: err?.errorMessage ?? null,
    sqlState: err?.sqlState ?? null,
    backendPid: w.backendPid,
    timings: w.timings,
    ...(w.rowsUpdated !== null ? { observed: { rowsUpdated: w.rowsUpdated } } : {}),
  };
}

/**
 * Ends the writer's transaction: COMMIT if its statement succeeded, else ROLLBACK. Its name joins `committed` when
 * COMMIT returns: the order the runner saw the commits, which the oracle replays.
 */
async function finish(w: WriterState, ms: () => number, committed: string[]): Promise<void> {
  if (w.error === undefined) {
    try {
      await w.client.query('COMMIT');
      w.committed = true;
      committed.push(w.name);
    } catch (e) {
      w.error = e;
    }
  }
  if (!w.committed) await w.client.query('ROLLBACK').catch(() => undefined);
  w.timings.finished = ms();
}

/**
 * One run of a Postgres case: reset the tips, A updates `vendorA` and holds its transaction, B
 * starts updating `vendorB`, a watcher polls pg_blocking_pids(B) until it names A or B's statement
 * returns, then A commits and B commits (or rolls back what Postgres refused).
 */
export async function runPostgresCase(serverUrl: string, spec: PostgresCaseSpec): Promise<PostgresCaseResult> {
  const level = { 'read committed': 'READ COMMITTED', 'repeatable read': 'REPEATABLE READ' }[spec.isolation];
  if (level === undefined) throw new Error(`unknown isolation level: ${String(spec.isolation)}`);
  for (const v of [spec.vendorA, spec.vendorB]) {
    if (!Number.isInteger(v)) throw new Error(`VendorID must be an integer, got ${v}`);
  }
  const timeoutMs = spec.watchTimeoutMs ?? 120_000;
  const url = labDatabaseUrl(serverUrl);
  const clients: Client[] = [];
  const connect = async (label: string) => {
    const c = await open(url, label);
    clients.push(c);
    return c;
  };

  try {
    const watcher = await connect('watch');
    await assertPrepared(watcher);
    await watcher.query(RESET_SQL);

    const t0 = performance.now();
    const ms = () => Math.round((performance.now() - t0) * 10) / 10;
    const writer = async (name: string, vendor: number): Promise<WriterState> => {
      const client = await connect(name);
      const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
      const opened = ms();
      return {
        name,
        vendor,
        client,
        backendPid: pid,
        committed: false,
        rowsUpdated: null,
        error: undefined,
        timings: { opened, prepared: opened, released: opened, finished: opened },
      };
    };
    const a = await writer('A', spec.vendorA);
    const b = await writer('B', spec.vendorB);

    // A: update its rows and keep the transaction open.
    await a.client.query(`BEGIN ISOLATION LEVEL ${level}`);
    a.timings.prepared = ms();
    a.timings.released = ms();
    try {
      a.rowsUpdated = (await a.client.query(UPDATE_SQL, [a.vendor])).rowCount;
    } catch (e) {
      a.error = e;
    }

    // B: its transaction (repeatable read: take the snapshot now), then its update, not awaited.
    await b.client.query(`BEGIN ISOLATION LEVEL ${level}`);
    if (level === 'REPEATABLE READ') await b.client.query('SELECT 1');
    b.timings.prepared = ms();
    let bReturned = false;
    b.timings.released = ms();
    const bStatement = b.client.query(UPDATE_SQL, [b.vendor]).then(
      (r) => {
        b.rowsUpdated = r.rowCount;
      },
      (e: unknown) => {
        b.error = e;
      },
    );
    void bStatement.finally(() => {
      bReturned = true;
    });

    // The watcher: until pg_blocking_pids(B) names A, or B's statement has returned.
    let waitedOnLock = false;
    let polls = 0;
    const deadline = Date.now() + timeoutMs;
    while (!bReturned) {
      const r = await watcher.query<{ pids: number[] | null }>('SELECT pg_blocking_pids($1) AS pids', [b.backendPid]);
      polls++;
      if ((r.rows[0]?.pids ?? []).includes(a.backendPid)) {
        waitedOnLock = true;
        break;
      }
      if (bReturned) break;
      if (Date.now() > deadline) {
        throw new Error(
          `watch timed out after ${timeoutMs} ms: B's update (backend ${b.backendPid}) neither waited on A ` +
            `(backend ${a.backendPid}) nor returned; ${polls} polls`,
        );
      }
      await new Promise((r) => setTimeout(r, 2));
    }

    // Only now A commits; then B's statement is awaited and B ends its transaction.
    const commitOrder: string[] = [];
    await finish(a, ms, commitOrder);
    await bStatement;
    await finish(b, ms, commitOrder);

    const table = await tableCheck(watcher);
    const durationMs = Math.round(performance.now() - t0);
    const verdict = await postgresVerdict(watcher, [a, b], commitOrder, level);
    return {
      writers: [writerResult(a, null), writerResult(b, waitedOnLock)],
      table,
      commitOrder,
      verdict,
      durationMs,
      watchPolls: polls,
    };
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}
