/**
 * The Postgres table after a run, in the results' TableCheck shape: rows, distinct trip ids and, per VendorID, the
 * tip delta against `trips_original` and how many tips changed.
 */
import type pg from 'pg';
import type { TableCheck } from '../../results/types';
import { labDatabaseUrl, withLabClient } from './connect';
import { assertPrepared } from './prepare';

/** The table afterwards, compared with trips_original. */
export async function postgresTableCheck(serverUrl: string): Promise<TableCheck> {
  return withLabClient(labDatabaseUrl(serverUrl), 'check', async (c) => {
    await assertPrepared(c);
    return tableCheck(c);
  });
}

/**
 * Whether `trips` has a primary key on trip_id alone: then Postgres itself keeps its trip ids distinct and not null,
 * and counting them again (a sort of every id) would only repeat what every write already checked.
 */
const KEYED_BY_TRIP_ID = `SELECT EXISTS (
  SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
   WHERE i.indrelid = 'trips'::regclass AND i.indisprimary AND i.indisvalid AND i.indnkeyatts = 1
     AND a.attname = 'trip_id') AS keyed`;

/**
 * Every raced row beside its original, in one join, grouped by vendor and exact tip difference: few groups, however
 * many rows. Each group's difference is rounded as the row's would be, so the sums are those of the rounded
 * per-row deltas. The distinct non-zero deltas (at most 1,000, in text order) ride along on every row.
 */
const BY_VENDOR = `WITH pairs AS MATERIALIZED (
    SELECT t."VendorID" AS vendor, t.tip_amount - o.tip_amount AS d,
           t.tip_amount IS DISTINCT FROM o.tip_amount AS changed, count(*) AS n
      FROM trips t LEFT JOIN trips_original o USING (trip_id)
     GROUP BY 1, 2, 3),
  rounded AS MATERIALIZED (SELECT vendor, round(d::numeric, 6) AS delta, changed, n FROM pairs)
SELECT vendor::text AS vendor, sum(n)::text AS trips, coalesce(sum(delta * n), 0)::text AS delta,
       coalesce(sum(n) FILTER (WHERE changed), 0)::text AS changed,
       array(SELECT DISTINCT delta::text FROM rounded WHERE delta <> 0 ORDER BY 1 LIMIT 1000) AS "values"
  FROM rounded GROUP BY vendor ORDER BY vendor`;

/** The check of `trips` against `trips_original` on a connection to the lab database. */
export async function tableCheck(c: pg.Client): Promise<TableCheck> {
  await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  try {
    // Both tables are in trip_id order on their primary keys: merged along them, the join reads each table once,
    // where the planner's hash join of 3.4 million rows spills to disk at the default work_mem.
    await c.query('SET LOCAL enable_hashjoin = off');
    const byVendor = await c.query<{
      vendor: string | null;
      trips: string;
      delta: string;
      changed: string;
      values: string[];
    }>(BY_VENDOR);
    const keyed = (await c.query<{ keyed: boolean }>(KEYED_BY_TRIP_ID)).rows[0]?.keyed === true;
    const rows = byVendor.rows.reduce((n, r) => n + Number(r.trips), 0);
    const distinctTripIds = keyed
      ? rows
      : Number((await c.query<{ ids: string }>('SELECT count(DISTINCT trip_id)::text AS ids FROM trips')).rows[0]?.ids);
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
      rows,
      distinctTripIds,
      tripsOnDay: {},
      tipDeltaByVendor,
      tipChangedByVendor,
      tipDeltaValues: (byVendor.rows[0]?.values ?? []).map(Number).sort((a, b) => a - b),
      tripsByVendor,
      dataFilesOnDisk: null,
      dataFilesInLog: null,
    };
  } finally {
    await c.query('COMMIT').catch(() => undefined);
  }
}
