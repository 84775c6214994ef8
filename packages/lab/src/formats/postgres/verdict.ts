/**
 * The serial-replay oracle for P1–P3: the committed writers' statements are run again, one after another, on a copy
 * of `trips_original` in a temporary table, and the raced `trips` is compared with that serial result as a multiset
 * of rows, in Postgres. Nothing here knows which case ran: it gets writers and an order.
 *
 * Only rows some writer's statement can touch (its vendor's) are copied: a row outside every writer's scope keeps its
 * values through any replay, so the serial result's other rows are `trips_original`'s, read in place. Each replay
 * starts from a savepoint taken after the copy, so trying another order costs its statements, not another copy.
 * Equality is decided by row counts and two sums of row hashes (one scan per side); EXCEPT ALL, which sorts both
 * sides, runs only to say what differs in a run no order explains.
 *
 * With a memo (oracle/memo.ts), a serial result's fingerprints are kept for the case's later runs, keyed by the
 * statements replayed, the scope, the fingerprint's SQL and `trips_original`'s identity; the copy is made only
 * when a fingerprint is missing or the run needs the rows themselves (what differs).
 */
import { performance } from 'node:perf_hooks';
import { agree } from '@racelab/contracts';
import type pg from 'pg';
import type { VerdictMemo } from '../../oracle/memo';
import { otherOrders } from '../../oracle/orders';
import { memoKey } from '../../oracle/replay-key';
import {
  failedWords,
  notSerializableSummary,
  reorderedSummary,
  rows,
  SERIALIZABLE_SUMMARY,
} from '../../oracle/summary-text';
import type { FailedWriterCheck, RunVerdict, VerdictExample, VerdictWriter } from '../../results/types';
import { TRIP_COLUMNS, tipUpdateSql, tipUpdateWhere } from './tip-update';

/** A writer as the oracle replays it: its name, whether it reported committed, the vendor its update touches. */
export interface ReplayedWriter {
  name: string;
  committed: boolean;
  vendor: number;
}

const EXAMPLES_PER_KIND = 5;
const COPY = 'pg_temp.racelab_serial';
const REPLAY_START = 'racelab_replay';

interface Differences {
  rowsDuplicated: number;
  rowsMissing: number;
  rowsExtra: number;
  examples: VerdictExample[];
}

/** The oracle's session: the writers by name and the vendors whose rows the copy holds. */
interface Replays {
  c: pg.Client;
  byName: Map<string, ReplayedWriter>;
  /** $1 of every statement below: the vendors in some writer's scope. */
  vendors: number[];
  /** The raced rows' fingerprint: taken elsewhere (racedFingerprint) when given, else here on first need. */
  raced?: Promise<string>;
  /** Serial fingerprints kept across the case's runs. */
  memo?: VerdictMemo;
  /** Whether the copy is made, and the names last replayed on it (null: none, or a replay under way). */
  copied: boolean;
  onCopy: readonly string[] | null;
  /** What the memo's keys say of the rows replays start from (asked once, with a memo only). */
  origin?: Promise<string>;
}

const IN_SCOPE = '"VendorID" = ANY($1::integer[])';

/** The serial result as one relation: the replayed copy, and the original rows no writer can touch. */
const SERIAL = `(SELECT ${TRIP_COLUMNS} FROM ${COPY}
   UNION ALL SELECT ${TRIP_COLUMNS} FROM trips_original WHERE (${IN_SCOPE}) IS NOT TRUE)`;

// No index and half-full pages: the replayed updates stay on their pages, as the raced ones do on `trips`.
const CREATE_COPY = `CREATE TEMP TABLE racelab_serial (trip_id bigint, "VendorID" integer, tip_amount double precision)
       WITH (fillfactor = 50) ON COMMIT DROP`;
const FILL_COPY = `INSERT INTO ${COPY} SELECT ${TRIP_COLUMNS} FROM trips_original WHERE ${IN_SCOPE}`;

/** Copies the rows in scope, once per verdict and only when needed, and marks where every replay starts. */
async function prepareCopy(r: Replays): Promise<void> {
  if (r.copied) return;
  await r.c.query(CREATE_COPY);
  await r.c.query(FILL_COPY, [r.vendors]);
  await r.c.query(`SAVEPOINT ${REPLAY_START}`);
  r.copied = true;
  r.onCopy = [];
}

const vendorOf = (r: Replays, name: string) => (r.byName.get(name) as ReplayedWriter).vendor;

/** The serial result of `names` (a name may be left out or repeated), replayed on the copy as it was made. */
async function replay(r: Replays, names: readonly string[]): Promise<void> {
  await prepareCopy(r);
  // The same statements from the same savepoint: the copy already holds their result.
  if (r.onCopy !== null && JSON.stringify(r.onCopy) === JSON.stringify(names)) return;
  r.onCopy = null;
  await r.c.query(`ROLLBACK TO SAVEPOINT ${REPLAY_START}`);
  for (const name of names) await r.c.query(tipUpdateSql(COPY), [vendorOf(r, name)]);
  r.onCopy = [...names];
}

/**
 * The rows every replay starts from: `trips_original` (its database, server, relation and file; nothing in a lab
 * process changes it after preparePostgresLab, and a reload makes another relation or file).
 */
const originOf = async (c: pg.Client) =>
  String(
    (
      await c.query<{ o: string }>(
        `SELECT concat_ws(' ', current_database(), inet_server_addr(), inet_server_port(),
                'trips_original'::regclass::oid, pg_relation_filenode('trips_original')) AS o`,
      )
    ).rows[0]?.o,
  );

/**
 * A relation's rows (those matching `where`) as a count and two sums of 64-bit row hashes, summed as numeric so
 * nothing wraps (see oracle/compare.ts for what a false "equal" would take).
 */
const fingerprint = (from: string, where = 'true') =>
  `SELECT count(*)::text || ' ' || coalesce(sum(hash_record_extended((${TRIP_COLUMNS}), 0)), 0)::text || ' ' ||
          coalesce(sum(hash_record_extended((${TRIP_COLUMNS}), 7216001)), 0)::text
     FROM ${from} AS t WHERE ${where}`;

/**
 * The fingerprint of every raced row: the same whichever order is replayed, so it can be taken once, on another
 * connection, while the verdict copies and replays (the writers are done: nothing changes `trips` meanwhile).
 */
export async function racedFingerprint(c: pg.Client): Promise<string> {
  return String((await c.query<{ f: string }>(`SELECT (${fingerprint('trips')}) AS f`)).rows[0]?.f);
}

/** The raced trips' fingerprint: all of them, or one vendor's. */
async function racedPrint(r: Replays, vendor?: number): Promise<string> {
  if (vendor === undefined) {
    r.raced ??= racedFingerprint(r.c);
    return r.raced;
  }
  const q = await r.c.query<{ f: string }>(`SELECT (${fingerprint('trips', tipUpdateWhere('$1'))}) AS f`, [vendor]);
  return String(q.rows[0]?.f);
}

/** The fingerprint of the serial result of `names` (all rows, or one vendor's): kept in the memo, else replayed. */
async function serialPrint(r: Replays, names: readonly string[], vendor?: number): Promise<string> {
  const sql = `SELECT (${fingerprint(SERIAL, vendor === undefined ? 'true' : tipUpdateWhere('$2'))}) AS f`;
  const params = vendor === undefined ? [r.vendors] : [r.vendors, vendor];
  const compute = async () => {
    await replay(r, names);
    return String((await r.c.query<{ f: string }>(sql, params)).rows[0]?.f);
  };
  if (!r.memo) return compute();
  r.origin ??= originOf(r.c);
  const key = memoKey({
    format: 'postgres',
    origin: await r.origin,
    copy: [CREATE_COPY, FILL_COPY],
    statements: names.map((name) => [tipUpdateSql(COPY), vendorOf(r, name)]),
    fingerprint: [sql, params],
  });
  return r.memo.fingerprint(key, compute);
}

/** Whether the raced trips and the serial result of `names` hold the same rows (all, or one vendor's). */
async function equal(r: Replays, names: readonly string[], vendor?: number): Promise<boolean> {
  return (await racedPrint(r, vendor)) === (await serialPrint(r, names, vendor));
}

/**
 * The raced trips against the serial result. A raced row beyond the serial result's copies is duplicated when the
 * serial result has that row at all, else extra; a serial row beyond the raced copies is missing.
 */
async function differences(r: Replays): Promise<Differences> {
  const q = await r.c.query<{ kind: VerdictExample['kind']; n: string; examples: Record<string, unknown>[] }>(
    `WITH serial AS MATERIALIZED (SELECT * FROM ${SERIAL} AS s),
          more AS MATERIALIZED (SELECT ${TRIP_COLUMNS} FROM trips EXCEPT ALL SELECT ${TRIP_COLUMNS} FROM serial),
          less AS MATERIALIZED (SELECT ${TRIP_COLUMNS} FROM serial EXCEPT ALL SELECT ${TRIP_COLUMNS} FROM trips),
          sorted AS (
            SELECT CASE WHEN EXISTS (
                     SELECT 1 FROM serial s WHERE s.trip_id = m.trip_id
                        AND s."VendorID" IS NOT DISTINCT FROM m."VendorID"
                        AND s.tip_amount IS NOT DISTINCT FROM m.tip_amount)
                   THEN 'duplicated' ELSE 'extra' END AS kind, m.*
              FROM more m
            UNION ALL SELECT 'missing', l.* FROM less l),
          numbered AS (SELECT *, row_number() OVER (PARTITION BY kind ORDER BY trip_id) AS i FROM sorted)
     SELECT kind, count(*)::text AS n,
            coalesce(json_agg(json_build_object('trip_id', trip_id, 'VendorID', "VendorID", 'tip_amount', tip_amount)
                     ORDER BY trip_id) FILTER (WHERE i <= ${EXAMPLES_PER_KIND}), '[]') AS examples
       FROM numbered GROUP BY kind`,
    [r.vendors],
  );
  const count = (kind: VerdictExample['kind']) => Number(q.rows.find((x) => x.kind === kind)?.n ?? 0);
  return {
    rowsDuplicated: count('duplicated'),
    rowsMissing: count('missing'),
    rowsExtra: count('extra'),
    examples: q.rows.flatMap((x) => x.examples.map((row) => ({ kind: x.kind, row }))),
  };
}

/** Against the serial result of the committed writers (`names`): what each failed writer's update would touch. */
async function failedWriterChecks(
  r: Replays,
  names: readonly string[],
  failed: readonly ReplayedWriter[],
): Promise<FailedWriterCheck[]> {
  const out: FailedWriterCheck[] = [];
  for (const w of failed) {
    const touched = await r.c.query<{ n: string }>(`SELECT count(*)::text AS n FROM trips WHERE ${tipUpdateWhere()}`, [
      w.vendor,
    ]);
    const rowsTouched = Number(touched.rows[0]?.n ?? 0);
    // Untouched: its rows are exactly as the committed writers alone leave them, so nothing of its change leaked in.
    const untouched = await equal(r, names, w.vendor);
    const them = `its ${rows(rowsTouched)} of VendorID ${w.vendor}`;
    out.push({
      name: w.name,
      rowsTouched,
      untouched,
      summary: untouched
        ? `${failedWords(w.name, 'update')}: ${them} ${agree(rowsTouched, 'is', 'are')} untouched by it`
        : `${failedWords(w.name, 'update')}, yet ${them} ${agree(rowsTouched, 'is', 'are')} not as the committed writers left them`,
    });
  }
  return out;
}

/** For a run that is not serializable: is each committed writer's change missing, or there twice? */
async function writerEffects(r: Replays, order: readonly string[]): Promise<VerdictWriter[]> {
  const out: VerdictWriter[] = [];
  for (const name of order) {
    const notApplied = await equal(
      r,
      order.filter((n) => n !== name),
    );
    const appliedTwice = await equal(
      r,
      order.flatMap((n) => (n === name ? [n, n] : [n])),
    );
    out.push({ name, notApplied, appliedTwice });
  }
  return out;
}

/** The first order that explains the raced table: commit order, else (few writers) any other; null when none does. */
async function explainingOrder(r: Replays, order: string[]): Promise<string[] | null> {
  if (await equal(r, order)) return order;
  for (const candidate of otherOrders(order)) {
    if (await equal(r, candidate)) return candidate;
  }
  return null;
}

/**
 * The verdict on the raced `trips`. `commitOrder` names the committed writers in the order the runner saw their
 * commits; a writer that reported committed but is not in it goes last, by name. `allowedBy` names what permits
 * another order (the isolation level). Runs in one transaction on `c`, which it leaves as it found it.
 * `racedFingerprint`, when given, is racedFingerprint's answer on the same raced table, taken meanwhile elsewhere;
 * `memo` keeps serial fingerprints for the case's later runs.
 */
export async function postgresVerdict(
  c: pg.Client,
  writers: readonly ReplayedWriter[],
  commitOrder: readonly string[],
  allowedBy: string,
  opts: { racedFingerprint?: Promise<string>; memo?: VerdictMemo } = {},
): Promise<RunVerdict> {
  const t0 = performance.now();
  const r: Replays = {
    c,
    byName: new Map(writers.map((w) => [w.name, w])),
    vendors: [...new Set(writers.map((w) => w.vendor))],
    ...(opts.racedFingerprint && { raced: opts.racedFingerprint }),
    ...(opts.memo && { memo: opts.memo }),
    copied: false,
    onCopy: null,
  };
  const committed = writers.filter((w) => w.committed).map((w) => w.name);
  const order = [
    ...commitOrder.filter((n) => committed.includes(n)),
    ...committed.filter((n) => !commitOrder.includes(n)).sort(),
  ];
  const failed = writers.filter((w) => !w.committed);
  await c.query('BEGIN');
  try {
    const match = await explainingOrder(r, order);
    let verdict: Omit<RunVerdict, 'oracleMs'>;
    if (match) {
      // The failed writers are checked against the matching order's result.
      const base = { order: match, failedWriters: await failedWriterChecks(r, match, failed) };
      verdict =
        match === order
          ? { status: 'serializable', summary: SERIALIZABLE_SUMMARY, ...base }
          : { status: 'reordered', summary: reorderedSummary(match, allowedBy), ...base };
    } else {
      await replay(r, order);
      const { examples, ...counts } = await differences(r);
      const failedWriters = await failedWriterChecks(r, order, failed);
      verdict = {
        status: 'not-serializable',
        order,
        summary: notSerializableSummary(counts),
        ...counts,
        writers: await writerEffects(r, order),
        examples,
        failedWriters,
      };
    }
    return { ...verdict, oracleMs: Math.round(performance.now() - t0) };
  } finally {
    await c.query('ROLLBACK');
  }
}
