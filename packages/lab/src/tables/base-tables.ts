/**
 * The lab's base tables, built once per data set: the flat January table (9 files of at most
 * round(400,000·scale) rows, as the lesson had them) and its copy partitioned by VendorID (11 files
 * in 4 folders). Built in a temporary folder and renamed into place, so a crash never leaves half
 * a base table that later runs would trust.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DeltaTable, withConnection, writeDeltaTable } from '@racelab/engine';
import { type Dataset, DONE_MARKER, datasetCacheDir, prepareDataset } from '../data/index';
import type { StepProgress } from '../data/sql';

export type TableKind = 'flat' | 'partitioned';

export interface BaseTables {
  flat: string;
  partitioned: string;
}

export function baseTablesDir(workDir: string, dataset: Pick<Dataset, 'source' | 'scale'>): string {
  return join(workDir, 'base', `${dataset.source}-${dataset.scale}`);
}

/** Built from exactly this data set: its own marker is copied into the base tables' marker. */
async function builtFrom(dir: string, datasetMarker: string): Promise<boolean> {
  try {
    return JSON.parse(await readFile(join(dir, 'done.json'), 'utf8')).datasetMarker === datasetMarker;
  } catch {
    return false;
  }
}

/**
 * The flat and partitioned base tables of `dataset`, built unless they were built from exactly it.
 * `onProgress` counts the tables written (it is not called when they were already there).
 */
export async function ensureBaseTables(
  workDir: string,
  dataset: Dataset,
  onProgress?: (p: StepProgress) => void,
): Promise<BaseTables> {
  const dir = baseTablesDir(workDir, dataset);
  const tables = { flat: join(dir, 'flat'), partitioned: join(dir, 'partitioned') };
  const datasetMarker = await readFile(join(dataset.dir, DONE_MARKER), 'utf8');
  if (await builtFrom(dir, datasetMarker)) return tables;
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const source = { kind: 'parquet' as const, paths: [dataset.january] };
  onProgress?.({ done: 0, total: 2, detail: 'writing flat' });
  await writeDeltaTable(join(tmp, 'flat'), source, {
    rowsPerFile: dataset.rowsPerFile,
    customMetadata: { writer: 'lab-base' },
  });
  onProgress?.({ done: 1, total: 2, detail: 'writing partitioned' });
  await writeDeltaTable(join(tmp, 'partitioned'), source, {
    rowsPerFile: dataset.rowsPerFile,
    partitionBy: ['VendorID'],
    customMetadata: { writer: 'lab-base' },
  });
  const files = {
    flat: (await DeltaTable.open(join(tmp, 'flat'))).activeFiles().length,
    partitioned: (await DeltaTable.open(join(tmp, 'partitioned'))).activeFiles().length,
  };
  await writeFile(join(tmp, 'done.json'), JSON.stringify({ dataset: dataset.dir, datasetMarker, files }));
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, '..'), { recursive: true });
  await rename(tmp, dir);
  onProgress?.({ done: 2, total: 2, detail: 'written' });
  return tables;
}

/**
 * The Iceberg contrast's starting rows: the January trips picked up on 2025-01-15, as one Parquet
 * file per data set (written aside and renamed, like the Delta bases).
 */
export async function ensureJan15(workDir: string, dataset: Dataset): Promise<string> {
  const file = join(baseTablesDir(workDir, dataset), 'jan15.parquet');
  if (await builtFrom(dirname(file), await readFile(join(dataset.dir, DONE_MARKER), 'utf8'))) {
    try {
      await stat(file);
      return file;
    } catch {
      // Base tables from before this file existed: write it now.
    }
  }
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const q = (p: string) => `'${p.replaceAll("'", "''")}'`;
  await withConnection((c) =>
    c.run(
      `COPY (SELECT * FROM read_parquet(${q(dataset.january)}) WHERE CAST(tpep_pickup_datetime AS DATE) = DATE '2025-01-15' ORDER BY trip_id) TO ${q(tmp)} (FORMAT parquet, COMPRESSION snappy)`,
    ),
  );
  await rename(tmp, file);
  return file;
}

export interface LabDataOptions {
  workDir: string;
  scale: number;
  /** Where the real TLC files may be (see prepareDataset). */
  dataDir?: string;
  /** How far each step has got, for a progress display: the data set, then the base tables. */
  onProgress?: (step: 'data set' | 'base tables', p: StepProgress) => void;
}

/**
 * Everything the lab's own cases read at `scale`, ready before a race asks: the data set, the flat and
 * partitioned base tables and the Iceberg contrast's January 15 file. What is already built is kept.
 */
export async function prepareLabData(o: LabDataOptions): Promise<{ dataset: Dataset; tables: BaseTables }> {
  const dataset = await prepareDataset({
    scale: o.scale,
    cacheDir: datasetCacheDir(o.workDir),
    ...(o.dataDir && { dataDir: o.dataDir }),
    ...(o.onProgress && { onProgress: (p: StepProgress) => o.onProgress?.('data set', p) }),
  });
  const tables = await ensureBaseTables(o.workDir, dataset, o.onProgress && ((p) => o.onProgress?.('base tables', p)));
  await ensureJan15(o.workDir, dataset);
  return { dataset, tables };
}
