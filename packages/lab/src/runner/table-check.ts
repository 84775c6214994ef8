/**
 * What the table holds after a run, checked against the original data: rows, distinct trip ids,
 * trips per lab day, every January tip against its original by trip_id, and files on disk versus
 * files the log names (the losers' zombies are the difference), and what killed writers left beside
 * the table (staging files, log files under a temporary name). One connection and one scan relation
 * serve every query, and the January join is made once.
 */
import { DeltaTable, withConnection } from '@racelab/engine';
import type { TableCheck } from '../results/types';
import { countObjects } from '../tables/table-store';

export const LAB_DAYS = ['2025-01-15', '2025-02-01', '2025-02-02', '2025-02-14'];
const FIRST_FEBRUARY_ID = 10_000_000;

const byKey = (rows: unknown[][], value: (r: unknown[]) => number) =>
  Object.fromEntries(rows.map((r) => [String(r[0]), value(r)]));

export async function checkTable(dir: string, januaryFile: string): Promise<TableCheck> {
  const t = await DeltaTable.open(dir);
  const jan = `read_parquet('${januaryFile.replaceAll("'", "''")}')`;
  const checks = await withConnection(async (c) => {
    const rel = await t.relation(c);
    const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows() as unknown[][];
    const [totals] = await rows(`SELECT count(*), count(DISTINCT trip_id) FROM (${rel})`);
    const days = await rows(
      `SELECT strftime(CAST(tpep_pickup_datetime AS DATE), '%Y-%m-%d'), count(*) FROM (${rel})
       WHERE CAST(tpep_pickup_datetime AS DATE) IN (${LAB_DAYS.map((d) => `DATE '${d}'`).join(', ')}) GROUP BY 1`,
    );
    // January trips only: February rows have no original tip to compare with.
    await c.run(
      `CREATE TEMP TABLE __tips AS SELECT o."VendorID" AS vendor, t.tip_amount - o.tip_amount AS delta,
         t.tip_amount IS DISTINCT FROM o.tip_amount AS changed
       FROM (${rel}) t JOIN ${jan} o USING (trip_id) WHERE t.trip_id < ${FIRST_FEBRUARY_ID}`,
    );
    const tips = await rows(
      'SELECT vendor, count(*), sum(delta), count(*) FILTER (WHERE changed) FROM __tips GROUP BY 1 ORDER BY 1',
    );
    const values = await rows('SELECT DISTINCT round(delta, 6) AS d FROM __tips WHERE changed ORDER BY 1 LIMIT 10');
    await c.run('DROP TABLE __tips');
    return { totals: totals ?? [], days, tips, values };
  });
  const objects = await countObjects(dir);
  return {
    version: t.version,
    rows: Number(checks.totals[0] ?? 0),
    distinctTripIds: Number(checks.totals[1] ?? 0),
    tripsOnDay: byKey(checks.days, (r) => Number(r[1])),
    tipDeltaByVendor: byKey(checks.tips, (r) => Math.round(Number(r[2]) * 1e6) / 1e6),
    tipChangedByVendor: byKey(checks.tips, (r) => Number(r[3])),
    tipDeltaValues: checks.values.map((r) => Number(r[0])),
    tripsByVendor: byKey(checks.tips, (r) => Number(r[1])),
    dataFilesOnDisk: objects.dataFiles,
    dataFilesInLog: t.activeFiles().length,
    stagingFilesOnDisk: objects.stagingFiles,
    tempLogFilesOnDisk: objects.tempLogFiles,
  };
}
