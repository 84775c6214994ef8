/**
 * Preparing the lab database for the P cases: the January trips loaded once with COPY into `trips` and its untouched
 * copy `trips_original`, and every tip put back before a run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { withConnection } from '@racelab/engine';
import { ensureDatabase } from '@racelab/pg-server';
import type pg from 'pg';
import { LAB_DATABASE, labDatabaseUrl, withLabClient } from './connect';
import { copyFromFile } from './copy';
import { buildNextCopy, COPY_TABLES, resetToFreshCopy, TRIPS_FILLFACTOR } from './trips-copy';

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

/** Bump when the tables' shape or storage changes. */
const LAYOUT = `v1-ff${TRIPS_FILLFACTOR}`;

const RESET_SQL = `UPDATE trips t SET tip_amount = o.tip_amount
  FROM trips_original o
  WHERE t.trip_id = o.trip_id AND t.tip_amount IS DISTINCT FROM o.tip_amount`;

/**
 * Makes the lab database (`racelab_lab`) hold the January trips: `trips(trip_id, "VendorID",
 * tip_amount)` and the untouched copy `trips_original`, loaded once with COPY … FROM STDIN, and a copy
 * prepared for the first run's reset (see trips-copy.ts). A second call with the same parquet content
 * (row count, trip_id sum, content hash) only puts a fresh copy in place of `trips`.
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

  return withLabClient(url, 'prepare', async (c) => {
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
        await resetToFreshCopy(c);
        // The first run's reset then swaps, as every later run's does.
        await buildNextCopy(c);
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
        await c.query(`DROP TABLE IF EXISTS trips, trips_original, ${COPY_TABLES.join(', ')}`);
        await c.query('DELETE FROM racelab_meta');
        // Half-full pages, as every copy has (see TRIPS_FILLFACTOR).
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
      await buildNextCopy(c);
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

/** Throws unless the lab database holds `trips` and `trips_original`, as preparePostgresLab leaves it. */
export async function assertPrepared(c: pg.Client): Promise<void> {
  const r = await c.query<{ ok: boolean }>(
    "SELECT to_regclass('trips') IS NOT NULL AND to_regclass('trips_original') IS NOT NULL AS ok",
  );
  if (r.rows[0]?.ok !== true) {
    throw new Error(`the Postgres lab database ${LAB_DATABASE} has no trips tables: run preparePostgresLab first`);
  }
}

/**
 * Puts every tip of the lab database `c` is connected to back to its original value, in place: the rows written.
 * Runs reset by swapping in a fresh copy instead (trips-copy.ts); this is for a table someone changed by hand.
 */
export async function resetTips(c: pg.Client): Promise<number> {
  await assertPrepared(c);
  return (await c.query(RESET_SQL)).rowCount ?? 0;
}

/** Puts every tip back to its original value (only the rows that differ are written). */
export function resetPostgresLab(serverUrl: string): Promise<number> {
  return withLabClient(labDatabaseUrl(serverUrl), 'reset', resetTips);
}
