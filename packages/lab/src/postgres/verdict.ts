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
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { FailedWriterCheck, RunVerdict, VerdictExample, VerdictWriter } from '../results/types';
import { otherOrders } from '../verdict/orders';
import { notSerializableSummary, reorderedSummary, rows, SERIALIZABLE_SUMMARY } from '../verdict/words';
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
  /** The raced rows' fingerprint when taken elsewhere (racedFingerprint), else taken with each comparison. */
  raced?: Promise<string>;
}

const IN_SCOPE = '"VendorID" = ANY($1::integer[])';

/** The serial result as one relation: the replayed copy, and the original rows no writer can touch. */
const SERIAL = `(SELECT ${TRIP_COLUMNS} FROM ${COPY}
   UNION ALL SELECT ${TRIP_COLUMNS} FROM trips_original WHERE (${IN_SCOPE}) IS NOT TRUE)`;

/** Copies the rows in scope once, and marks where every replay starts. */
async function prepareCopy(r: Replays): Promise<void> {
  // No index and half-full pages: the replayed updates stay on their pages, as the raced ones do on `trips`.
  await r.c.query(
    `CREATE TEMP TABLE racelab_serial (trip_id bigint, "VendorID" integer, tip_amount double precision)
       WITH (fillfactor = 50) ON COMMIT DROP`,
  );
  await r.c.query(`INSERT INTO ${COPY} SELECT ${TRIP_COLUMNS} FROM trips_original WHERE ${IN_SCOPE}`, [r.vendors]);
  await r.c.query(`SAVEPOINT ${REPLAY_START}`);
}

/** The serial result of `names` (a name may be left out or repeated), replayed on the copy as it was made. */
async function replay(r: Replays, names: readonly string[]): Promise<void> {
  await r.c.query(`ROLLBACK TO SAVEPOINT ${REPLAY_START}`);
  for (const name of names) await r.c.query(tipUpdateSql(COPY), [(r.byName.get(name) as ReplayedWriter).vendor]);
}

/**
 * A relation's rows (those matching `where`) as a count and two sums of 64-bit row hashes, summed as numeric so
 * nothing wraps (see verdict/compare.ts for what a false "equal" would take).
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

/** Whether the raced trips and the serial result hold the same rows (those matching `where`, parameters from $2). */
async function equal(r: Replays, where = 'true', params: unknown[] = []): Promise<boolean> {
  if (where === 'true' && r.raced !== undefined) {
    const q = await r.c.query<{ serial: string }>(`SELECT (${fingerprint(SERIAL)}) AS serial`, [r.vendors]);
    return (await r.raced) === q.rows[0]?.serial;
  }
  const q = await r.c.query<{ raced: string; serial: string }>(
    `SELECT (${fingerprint('trips', where)}) AS raced, (${fingerprint(SERIAL, where)}) AS serial`,
    [r.vendors, ...params],
  );
  return q.rows[0]?.raced === q.rows[0]?.serial;
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

/** With the serial result of the committed writers in place: what each failed writer's update would touch. */
async function failedWriterChecks(r: Replays, failed: readonly ReplayedWriter[]): Promise<FailedWriterCheck[]> {
  const out: FailedWriterCheck[] = [];
  for (const w of failed) {
    const touched = await r.c.query<{ n: string }>(`SELECT count(*)::text AS n FROM trips WHERE ${tipUpdateWhere()}`, [
      w.vendor,
    ]);
    const rowsTouched = Number(touched.rows[0]?.n ?? 0);
    // Untouched: its rows are exactly as the committed writers alone leave them, so nothing of its change leaked in.
    const untouched = await equal(r, tipUpdateWhere('$2'), [w.vendor]);
    const them = `its ${rows(rowsTouched)} of VendorID ${w.vendor}`;
    out.push({
      name: w.name,
      rowsTouched,
      untouched,
      summary: untouched
        ? `the update failed: ${them} are untouched by it`
        : `the update failed, yet ${them} are not as the committed writers left them`,
    });
  }
  return out;
}

/** For a run that is not serializable: is each committed writer's change missing, or there twice? */
async function writerEffects(r: Replays, order: readonly string[]): Promise<VerdictWriter[]> {
  const out: VerdictWriter[] = [];
  for (const name of order) {
    await replay(
      r,
      order.filter((n) => n !== name),
    );
    const notApplied = await equal(r);
    await replay(
      r,
      order.flatMap((n) => (n === name ? [n, n] : [n])),
    );
    const appliedTwice = await equal(r);
    out.push({ name, notApplied, appliedTwice });
  }
  return out;
}

/** The first order that explains the raced table: commit order, else (few writers) any other; null when none does. */
async function explainingOrder(r: Replays, order: string[]): Promise<string[] | null> {
  await replay(r, order);
  if (await equal(r)) return order;
  for (const candidate of otherOrders(order)) {
    await replay(r, candidate);
    if (await equal(r)) return candidate;
  }
  return null;
}

/**
 * The verdict on the raced `trips`. `commitOrder` names the committed writers in the order the runner saw their
 * commits; a writer that reported committed but is not in it goes last, by name. `allowedBy` names what permits
 * another order (the isolation level). Runs in one transaction on `c`, which it leaves as it found it.
 * `racedFingerprint`, when given, is racedFingerprint's answer on the same raced table, taken meanwhile elsewhere.
 */
export async function postgresVerdict(
  c: pg.Client,
  writers: readonly ReplayedWriter[],
  commitOrder: readonly string[],
  allowedBy: string,
  opts: { racedFingerprint?: Promise<string> } = {},
): Promise<RunVerdict> {
  const t0 = performance.now();
  const r: Replays = {
    c,
    byName: new Map(writers.map((w) => [w.name, w])),
    vendors: [...new Set(writers.map((w) => w.vendor))],
    ...(opts.racedFingerprint && { raced: opts.racedFingerprint }),
  };
  const committed = writers.filter((w) => w.committed).map((w) => w.name);
  const order = [
    ...commitOrder.filter((n) => committed.includes(n)),
    ...committed.filter((n) => !commitOrder.includes(n)).sort(),
  ];
  const failed = writers.filter((w) => !w.committed);
  await c.query('BEGIN');
  try {
    await prepareCopy(r);
    const match = await explainingOrder(r, order);
    let verdict: Omit<RunVerdict, 'oracleMs'>;
    if (match) {
      // The copy holds the matching order's result: the failed writers are checked against it.
      const base = { order: match, failedWriters: await failedWriterChecks(r, failed) };
      verdict =
        match === order
          ? { status: 'serializable', summary: SERIALIZABLE_SUMMARY, ...base }
          : { status: 'reordered', summary: reorderedSummary(match, allowedBy), ...base };
    } else {
      await replay(r, order);
      const { examples, ...counts } = await differences(r);
      const failedWriters = await failedWriterChecks(r, failed);
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
