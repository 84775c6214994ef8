/**
 * What the table holds after a run: rows, files on disk versus files the log names (the losers' zombies
 * are the difference), and what killed writers left beside the table (staging files, log files under a
 * temporary name), for any table; for the lab's tables also distinct trip ids, trips per lab day and every
 * January tip against its original by trip_id. One connection and one scan relation serve every query, and
 * the January join is made once.
 */
import { DeltaTable, withConnection } from '@racelab/engine';
import type { Conn } from '../data/sql';
import type { TableCheck } from '../results/types';
import { countObjects } from '../tables/table-store';

export const LAB_DAYS = ['2025-01-15', '2025-02-01', '2025-02-02', '2025-02-14'];
const FIRST_FEBRUARY_ID = 10_000_000;

const byKey = (rows: unknown[][], value: (r: unknown[]) => number) =>
  Object.fromEntries(rows.map((r) => [String(r[0]), value(r)]));

/** The lab-only figures: distinct trip ids, trips per lab day, tips against January's (lab tables only). */
async function labFigures(rel: string, januaryFile: string, c: Conn) {
  const jan = `read_parquet('${januaryFile.replaceAll("'", "''")}')`;
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRows() as unknown[][];
  const [ids] = await rows(`SELECT count(DISTINCT trip_id) FROM (${rel})`);
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
  return {
    distinctTripIds: Number(ids?.[0] ?? 0),
    tripsOnDay: byKey(days, (r) => Number(r[1])),
    tipDeltaByVendor: byKey(tips, (r) => Math.round(Number(r[2]) * 1e6) / 1e6),
    tipChangedByVendor: byKey(tips, (r) => Number(r[3])),
    tipDeltaValues: values.map((r) => Number(r[0])),
    tripsByVendor: byKey(tips, (r) => Number(r[1])),
  };
}

/**
 * Any table: rows, version, data files on disk against files in the log, and what killed writers left. With
 * `lab` (a lab base table's copy, and the January file it was built from), the lesson's figures too; for any
 * other table they are absent (distinctTripIds null), as the results contract allows.
 */
export async function checkTable(dir: string, lab?: { januaryFile: string }): Promise<TableCheck> {
  const t = await DeltaTable.open(dir);
  const checks = await withConnection(async (c) => {
    const rel = await t.relation(c);
    const [total] = (await c.runAndReadAll(`SELECT count(*) FROM (${rel})`)).getRows() as unknown[][];
    return { rows: Number(total?.[0] ?? 0), lab: lab ? await labFigures(rel, lab.januaryFile, c) : null };
  });
  const objects = await countObjects(dir);
  return {
    version: t.version,
    rows: checks.rows,
    ...(checks.lab ?? { distinctTripIds: null }),
    dataFilesOnDisk: objects.dataFiles,
    dataFilesInLog: t.activeFiles().length,
    stagingFilesOnDisk: objects.stagingFiles,
    tempLogFilesOnDisk: objects.tempLogFiles,
  };
}
