/**
 * What the table holds after a run, checked against the original data: rows, distinct trip ids,
 * trips per lab day, every January tip against its original by trip_id, and files on disk versus
 * files the log names (the losers' zombies are the difference).
 */
import { readdir } from 'node:fs/promises';
import { DeltaTable } from '@racelab/engine';
import type { TableCheck } from '../results/types';

export const LAB_DAYS = ['2025-01-15', '2025-02-01', '2025-02-02', '2025-02-14'];
const FIRST_FEBRUARY_ID = 10_000_000;

async function parquetFilesOnDisk(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((e) => e.endsWith('.parquet') && !e.startsWith('_delta_log') && !e.startsWith('_staging'))
    .length;
}

const byKey = <T>(rows: { k: unknown; v: T }[]) => Object.fromEntries(rows.map((r) => [String(r.k), r.v]));

export async function checkTable(dir: string, januaryFile: string): Promise<TableCheck> {
  const t = await DeltaTable.open(dir);
  const jan = `read_parquet('${januaryFile.replaceAll("'", "''")}')`;
  const [totals] = await t.query<{ n: bigint; ids: bigint }>(
    (rel) => `SELECT count(*) AS n, count(DISTINCT trip_id) AS ids FROM (${rel})`,
  );
  const days = await t.query<{ k: string; v: bigint }>(
    (rel) =>
      `SELECT strftime(CAST(tpep_pickup_datetime AS DATE), '%Y-%m-%d') AS k, count(*) AS v FROM (${rel}) WHERE CAST(tpep_pickup_datetime AS DATE) IN (${LAB_DAYS.map((d) => `DATE '${d}'`).join(', ')}) GROUP BY 1`,
  );
  // January trips only: February rows have no original tip to compare with.
  const tips = await t.query<{ k: number; n: bigint; delta: number; changed: bigint }>(
    (rel) => `SELECT o."VendorID" AS k, count(*) AS n, sum(t.tip_amount - o.tip_amount) AS delta,
                count(*) FILTER (WHERE t.tip_amount IS DISTINCT FROM o.tip_amount) AS changed
              FROM (${rel}) t JOIN ${jan} o USING (trip_id) WHERE t.trip_id < ${FIRST_FEBRUARY_ID} GROUP BY 1 ORDER BY 1`,
  );
  const values = await t.query<{ d: number }>(
    (rel) => `SELECT DISTINCT round(t.tip_amount - o.tip_amount, 6) AS d FROM (${rel}) t JOIN ${jan} o USING (trip_id)
              WHERE t.trip_id < ${FIRST_FEBRUARY_ID} AND t.tip_amount IS DISTINCT FROM o.tip_amount ORDER BY 1 LIMIT 10`,
  );
  return {
    version: t.version,
    rows: Number(totals?.n ?? 0),
    distinctTripIds: Number(totals?.ids ?? 0),
    tripsOnDay: byKey(days.map((d) => ({ k: d.k, v: Number(d.v) }))),
    tipDeltaByVendor: byKey(tips.map((r) => ({ k: r.k, v: Math.round(r.delta * 1e6) / 1e6 }))),
    tipChangedByVendor: byKey(tips.map((r) => ({ k: r.k, v: Number(r.changed) }))),
    tipDeltaValues: values.map((v) => v.d),
    tripsByVendor: byKey(tips.map((r) => ({ k: r.k, v: Number(r.n) }))),
    dataFilesOnDisk: await parquetFilesOnDisk(dir),
    dataFilesInLog: t.activeFiles().length,
  };
}
