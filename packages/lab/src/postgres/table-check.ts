/**
 * The Postgres table after a run, in the results' TableCheck shape: rows, distinct trip ids and, per VendorID, the
 * tip delta against `trips_original` and how many tips changed.
 */
import type pg from 'pg';
import type { TableCheck } from '../results/types';
import { labDatabaseUrl, withLabClient } from './connect';
import { assertPrepared } from './prepare';

/** The table afterwards, compared with trips_original. */
export async function postgresTableCheck(serverUrl: string): Promise<TableCheck> {
  return withLabClient(labDatabaseUrl(serverUrl), 'check', async (c) => {
    await assertPrepared(c);
    return tableCheck(c);
  });
}

const DELTA = 'round((t.tip_amount - o.tip_amount)::numeric, 6)';

/** The check of `trips` against `trips_original` on a connection to the lab database. */
export async function tableCheck(c: pg.Client): Promise<TableCheck> {
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
