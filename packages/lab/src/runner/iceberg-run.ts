/**
 * One run of an Iceberg case: a new SQLite catalog in the run's folder, a table seeded with the
 * 2025-01-15 trips (one snapshot, so a loser sees "branch main has changed"), the writers' race,
 * then the table checks.
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
import type { IcebergCase } from '../cases/catalog';
import type { RunResult, TableCheck } from '../results/types';
import { race } from './race';
import { type RunContext, runDir } from './run-context';
import { LAB_DAYS } from './table-check';

const TABLE = 'lab.trips';

async function checkIcebergTable(catalogPath: string): Promise<TableCheck> {
  const catalog = await IcebergSqliteCatalog.open({ path: catalogPath });
  try {
    const { dataFiles } = icebergDataFiles(await openIcebergTable(catalog, TABLE));
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

export async function runIcebergCase(
  c: IcebergCase,
  index: number,
  ctx: RunContext & { jan15: string },
): Promise<RunResult> {
  const dir = runDir(ctx, c.id, index);
  const started = Date.now();
  const catalogPath = join(dir, 'catalog.db');
  try {
    await mkdir(dir, { recursive: true });
    const catalog = await IcebergSqliteCatalog.open({ path: catalogPath, warehouse: join(dir, 'warehouse') });
    try {
      await createIcebergTable(catalog, TABLE, {
        schemaFrom: ctx.jan15,
        ...(c.properties && { properties: c.properties }),
      });
      await appendParquetToIcebergTable(catalog, TABLE, [ctx.jan15]);
    } finally {
      await catalog.close();
    }
    const jobs = c.writers.map((writer) => {
      const day = 'day' in writer.operation ? writer.operation.day : undefined;
      return {
        engine: 'iceberg' as const,
        catalog: catalogPath,
        table: TABLE,
        writer,
        ...(day && { dayFile: ctx.dataset.february(day) }),
      };
    });
    const writers = await race(jobs, started, ctx);
    return { index, writers, table: await checkIcebergTable(catalogPath), durationMs: Date.now() - started };
  } finally {
    if (!ctx.keep) await rm(dir, { recursive: true, force: true });
  }
}
