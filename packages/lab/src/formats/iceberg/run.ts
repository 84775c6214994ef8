/**
 * One run of an Iceberg case: a new SQLite catalog in the run's folder holding a copy of the case's seed (the
 * 2025-01-15 trips in one snapshot, so a loser sees "branch main has changed"), the writers' race, then the
 * table checks and the serial-replay verdict.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  appendParquetToIcebergTable,
  createIcebergTable,
  IcebergSqliteCatalog,
  icebergDataFiles,
  openIcebergTable,
  withConnection,
} from '@racelab/engine';
import type { IcebergCase } from '../../cases/catalog';
import { rowsFileOf } from '../../cases/operations';
import { LAB_DAYS } from '../../data/lab-days';
import type { RunResult, TableCheck } from '../../results/types';
import { race } from '../../runner/race';
import { type RunContext, runDir } from '../../runner/run-context';
import { icebergCopy } from './replay';
import { icebergCommitOrder, icebergVerdict, racedIcebergState } from './verdict';

const TABLE = 'lab.trips';

async function checkIcebergTable(catalogPath: string): Promise<TableCheck> {
  const catalog = await IcebergSqliteCatalog.open({ path: catalogPath });
  try {
    const { dataFiles } = await icebergDataFiles(await openIcebergTable(catalog, TABLE));
    const list = `[${dataFiles.map((f) => `'${f.localPath.replaceAll("'", "''")}'`).join(', ')}]`;
    return await withConnection(async (c) => {
      const totals =
        (await c.runAndReadAll(`SELECT count(*), count(DISTINCT trip_id) FROM read_parquet(${list})`)).getRows()[0] ??
        [];
      const days = await c.runAndReadAll(
        `SELECT strftime(CAST(tpep_pickup_datetime AS DATE), '%Y-%m-%d'), count(*) FROM read_parquet(${list}) GROUP BY 1`,
      );
      const tripsOnDay: Record<string, number> = {};
      for (const [d, n] of days.getRows() as [string, bigint][]) if (LAB_DAYS.includes(d)) tripsOnDay[d] = Number(n);
      return {
        version: null,
        rows: Number(totals[0] ?? 0),
        distinctTripIds: Number(totals[1] ?? 0),
        tripsOnDay,
        tipDeltaByVendor: {},
        dataFilesOnDisk: null,
        dataFilesInLog: dataFiles.length,
      };
    });
  } finally {
    await catalog.close();
  }
}

/**
 * A new table in `dir` (its own SQLite catalog) seeded with the 2025-01-15 trips in one snapshot, with the
 * case's properties; returns the seed snapshot's metadata location.
 */
export async function seedIcebergTable(
  dir: string,
  jan15: string,
  properties: Record<string, string> | undefined,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const catalog = await IcebergSqliteCatalog.open({ path: join(dir, 'catalog.db'), warehouse: join(dir, 'warehouse') });
  try {
    await createIcebergTable(catalog, TABLE, { schemaFrom: jan15, ...(properties && { properties }) });
    return (await appendParquetToIcebergTable(catalog, TABLE, [jan15])).metadataLocation;
  } finally {
    await catalog.close();
  }
}

export interface IcebergRunContext extends RunContext {
  /**
   * The case's table as seeded once for its runs (seedIcebergTable with the case's properties): each run registers a
   * copy of its metadata in the run's own catalog, sharing the seed's data file, instead of writing the seed again.
   */
  seed: string;
}

export async function runIcebergCase(c: IcebergCase, index: number, ctx: IcebergRunContext): Promise<RunResult> {
  const dir = runDir(ctx, c.id, index);
  const started = Date.now();
  const catalogPath = join(dir, 'catalog.db');
  // The table as the race starts: the seed's snapshot, where the oracle's replays start too.
  let start: string;
  try {
    await mkdir(dir, { recursive: true });
    const copy = await icebergCopy(TABLE, ctx.seed, dir);
    await copy.catalog.close();
    start = copy.metadataLocation;
    const dataset = await ctx.dataset.get();
    const jobs = c.writers.map((writer) => {
      const rowsFile = rowsFileOf(writer.operation, (d) => dataset.february(d));
      return {
        kind: 'race' as const,
        format: c.format,
        catalog: catalogPath,
        table: TABLE,
        writer,
        ...(rowsFile && { rowsFile }),
      };
    });
    const writers = await race(jobs, started, ctx);
    const table = await checkIcebergTable(catalogPath);
    const raced = await racedIcebergState(catalogPath, TABLE);
    // The run's own time ends here: the oracle's is its verdict's oracleMs.
    const durationMs = Date.now() - started;
    // The next race's writer processes load now, beside the verdict: loading beside the check slowed it.
    ctx.pool?.fill();
    const verdict = await icebergVerdict({
      raced,
      table: TABLE,
      start,
      results: writers,
      writers: c.writers,
      rowsFile: (op) => rowsFileOf(op, (d) => dataset.february(d)),
      copyDir: (i) => join(dir, `oracle-${i}`),
      ...(ctx.memo && { memo: ctx.memo }),
    });
    return { index, writers, table, verdict, commitOrder: icebergCommitOrder(raced), durationMs };
  } finally {
    if (!ctx.keep) await rm(dir, { recursive: true, force: true });
  }
}
