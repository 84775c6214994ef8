/**
 * The serial-replay oracle for P1–P3: the committed writers' statements are run again, one after another, on a copy
 * of `trips_original` in a temporary table, and the raced `trips` is compared with that serial result as a multiset
 * of rows, in Postgres (EXCEPT ALL both ways). Nothing here knows which case ran: it gets writers and an order.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { FailedWriterCheck, RunVerdict, VerdictExample, VerdictWriter } from '../results/types';
import { otherOrders } from '../verdict/orders';
import { notSerializableSummary, reorderedSummary, rows, SERIALIZABLE_SUMMARY } from '../verdict/words';
import { TIP_UPDATE_WHERE, TRIP_COLUMNS, tipUpdateSql } from './tip-update';

/** A writer as the oracle replays it: its name, whether it reported committed, the vendor its update touches. */
export interface ReplayedWriter {
  name: string;
  committed: boolean;
  vendor: number;
}

const EXAMPLES_PER_KIND = 5;
const SERIAL = 'pg_temp.racelab_serial';

interface Differences {
  rowsDuplicated: number;
  rowsMissing: number;
  rowsExtra: number;
  examples: VerdictExample[];
}

const same = (d: Differences) => d.rowsDuplicated + d.rowsMissing + d.rowsExtra === 0;

/** The serial result of `names` (a name may be left out or repeated) from the original trips. */
async function replay(c: pg.Client, byName: Map<string, ReplayedWriter>, names: readonly string[]): Promise<void> {
  await c.query(`TRUNCATE ${SERIAL}`);
  await c.query(`INSERT INTO ${SERIAL} SELECT ${TRIP_COLUMNS} FROM trips_original`);
  for (const name of names) await c.query(tipUpdateSql(SERIAL), [(byName.get(name) as ReplayedWriter).vendor]);
}

/**
 * The raced trips against the serial result. A raced row beyond the serial result's copies is duplicated when the
 * serial result has that row at all, else extra; a serial row beyond the raced copies is missing.
 */
async function differences(c: pg.Client, where = 'true', params: unknown[] = []): Promise<Differences> {
  const r = await c.query<{ kind: VerdictExample['kind']; n: string; examples: Record<string, unknown>[] }>(
    `WITH more AS MATERIALIZED (
            SELECT ${TRIP_COLUMNS} FROM trips WHERE ${where}
            EXCEPT ALL SELECT ${TRIP_COLUMNS} FROM ${SERIAL} WHERE ${where}),
          less AS MATERIALIZED (
            SELECT ${TRIP_COLUMNS} FROM ${SERIAL} WHERE ${where}
            EXCEPT ALL SELECT ${TRIP_COLUMNS} FROM trips WHERE ${where}),
          sorted AS (
            SELECT CASE WHEN EXISTS (
                     SELECT 1 FROM ${SERIAL} s WHERE s.trip_id = m.trip_id
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
    params,
  );
  const count = (kind: VerdictExample['kind']) => Number(r.rows.find((x) => x.kind === kind)?.n ?? 0);
  return {
    rowsDuplicated: count('duplicated'),
    rowsMissing: count('missing'),
    rowsExtra: count('extra'),
    examples: r.rows.flatMap((x) => x.examples.map((row) => ({ kind: x.kind, row }))),
  };
}

/** With the serial result of the committed writers in place: what each failed writer's update would touch. */
async function failedWriterChecks(c: pg.Client, failed: readonly ReplayedWriter[]): Promise<FailedWriterCheck[]> {
  const out: FailedWriterCheck[] = [];
  for (const w of failed) {
    const touched = await c.query<{ n: string }>(`SELECT count(*)::text AS n FROM trips WHERE ${TIP_UPDATE_WHERE}`, [
      w.vendor,
    ]);
    const rowsTouched = Number(touched.rows[0]?.n ?? 0);
    // Untouched: its rows are exactly as the committed writers alone leave them, so nothing of its change leaked in.
    const untouched = same(await differences(c, TIP_UPDATE_WHERE, [w.vendor]));
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
async function writerEffects(
  c: pg.Client,
  byName: Map<string, ReplayedWriter>,
  order: readonly string[],
): Promise<VerdictWriter[]> {
  const out: VerdictWriter[] = [];
  for (const name of order) {
    await replay(
      c,
      byName,
      order.filter((n) => n !== name),
    );
    const notApplied = same(await differences(c));
    await replay(
      c,
      byName,
      order.flatMap((n) => (n === name ? [n, n] : [n])),
    );
    const appliedTwice = same(await differences(c));
    out.push({ name, notApplied, appliedTwice });
  }
  return out;
}

/**
 * The verdict on the raced `trips`. `commitOrder` names the committed writers in the order the runner saw their
 * commits; a writer that reported committed but is not in it goes last, by name. `allowedBy` names what permits
 * another order (the isolation level). Runs in one transaction on `c`, which it leaves as it found it.
 */
export async function postgresVerdict(
  c: pg.Client,
  writers: readonly ReplayedWriter[],
  commitOrder: readonly string[],
  allowedBy: string,
): Promise<RunVerdict> {
  const t0 = performance.now();
  const byName = new Map(writers.map((w) => [w.name, w]));
  const committed = writers.filter((w) => w.committed).map((w) => w.name);
  const order = [
    ...commitOrder.filter((n) => committed.includes(n)),
    ...committed.filter((n) => !commitOrder.includes(n)).sort(),
  ];
  await c.query('BEGIN');
  try {
    await c.query(`CREATE TEMP TABLE racelab_serial AS SELECT ${TRIP_COLUMNS} FROM trips_original LIMIT 0`);
    await replay(c, byName, order);
    const inOrder = await differences(c);
    const failedWriters = await failedWriterChecks(
      c,
      writers.filter((w) => !w.committed),
    );
    const base = { failedWriters };
    let verdict: Omit<RunVerdict, 'oracleMs'>;
    if (same(inOrder)) {
      verdict = { status: 'serializable', order, summary: SERIALIZABLE_SUMMARY, ...base };
    } else {
      let other: string[] | undefined;
      for (const candidate of otherOrders(order)) {
        await replay(c, byName, candidate);
        if (same(await differences(c))) {
          other = candidate;
          break;
        }
      }
      if (other) {
        verdict = { status: 'reordered', order: other, summary: reorderedSummary(other, allowedBy), ...base };
      } else {
        const { examples, ...counts } = inOrder;
        verdict = {
          status: 'not-serializable',
          order,
          summary: notSerializableSummary(counts),
          ...counts,
          writers: await writerEffects(c, byName, order),
          examples,
          ...base,
        };
      }
    }
    return { ...verdict, oracleMs: Math.round(performance.now() - t0) };
  } finally {
    await c.query('ROLLBACK');
  }
}
