/**
 * Reads a table's snapshot: manifest list → manifests → live data files → DuckDB `read_parquet`.
 * Columns are bound by Iceberg field id through `parquet_schema()` and referenced by position, never
 * by name (names can differ only in case, and DuckDB renames such duplicates).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { IcebergReadError, type Snapshot, type TableMetadata } from '../../kernel/iceberg/types';
import { sqlString, withConnection } from '../parquet/duck';
import { parquetTopLevelColumns } from './data-files';
import { fileAt } from './files';
import { readManifest, readManifestList } from './manifest';
import { currentSchema, currentSnapshot } from './metadata';
import type { PathResolver } from './paths';
import type { IcebergTable } from './table';

export interface ScannedDataFile {
  /** As written in the manifest. */
  filePath: string;
  /** The local file it resolved to. */
  localPath: string;
  content: number;
  recordCount: number;
  fileSizeInBytes: number;
}

export interface IcebergScan {
  snapshotId: string | null;
  columns: string[];
  dataFiles: ScannedDataFile[];
  /** Rows read from the data files. */
  rowCount: number;
  /** Every value as DuckDB renders it as text (NULL as null), sorted by all columns. */
  rows: (string | null)[][];
}

/** The live data files of a snapshot (ADDED and EXISTING entries of its data manifests). */
export async function snapshotDataFiles(snapshot: Snapshot, resolvePath: PathResolver): Promise<ScannedDataFile[]> {
  const out: ScannedDataFile[] = [];
  for (const mf of await readManifestList(snapshot['manifest-list'], resolvePath)) {
    if (mf.content !== 0) throw new IcebergReadError(`${mf.manifestPath}: delete manifests are not supported`);
    for (const e of (await readManifest(mf.manifestPath, resolvePath)).entries) {
      if (e.status === 2) continue;
      if (e.dataFile.content !== 0)
        throw new IcebergReadError(`${e.dataFile.filePath}: delete files are not supported`);
      out.push({
        filePath: e.dataFile.filePath,
        localPath: resolvePath(e.dataFile.filePath),
        content: e.dataFile.content,
        recordCount: Number(e.dataFile.recordCount),
        fileSizeInBytes: Number(e.dataFile.fileSizeInBytes),
      });
    }
  }
  return out;
}

/** The SELECT of one data file's columns by field id, read where its store says DuckDB can read it. */
async function selectByFieldId(
  c: DuckDBConnection,
  m: TableMetadata,
  f: ScannedDataFile,
  resolvePath: PathResolver,
): Promise<string> {
  const at = fileAt(f.filePath, resolvePath);
  if ((await at.store.head(at.key)) === null) throw new IcebergReadError(`Data file does not exist: ${f.localPath}`);
  const file = await at.store.localPath(at.key);
  const cols = await parquetTopLevelColumns(c, file);
  if (cols.every((x) => x.fieldId === null) && m.properties['schema.name-mapping.default'] === undefined) {
    throw new IcebergReadError(
      `${file}: Parquet file does not have field-ids and the Iceberg table does not have 'schema.name-mapping.default' defined`,
    );
  }
  const byId = new Map(cols.map((x) => [x.fieldId, x.position]));
  const exprs = currentSchema(m).fields.map((f) => {
    const pos = byId.get(f.id);
    // A column added after this file was written reads as NULL.
    return pos === undefined ? 'NULL::VARCHAR' : `CAST(#${pos} AS VARCHAR)`;
  });
  return `SELECT ${exprs.join(', ')} FROM read_parquet(${sqlString(file)})`;
}

/** The live data files of a snapshot (the current one by default), without reading them. */
export async function icebergDataFiles(
  table: IcebergTable,
  opts: { snapshotId?: string } = {},
): Promise<{ snapshotId: string | null; dataFiles: ScannedDataFile[] }> {
  const m = table.metadata;
  const snapshot =
    opts.snapshotId === undefined
      ? currentSnapshot(m)
      : m.snapshots.find((s) => String(s['snapshot-id']) === opts.snapshotId);
  if (opts.snapshotId !== undefined && !snapshot)
    throw new IcebergReadError(`No snapshot ${opts.snapshotId} in ${table.metadataLocation}`);
  if (!snapshot) return { snapshotId: null, dataFiles: [] };
  return {
    snapshotId: String(snapshot['snapshot-id']),
    dataFiles: await snapshotDataFiles(snapshot, table.catalog.resolvePath),
  };
}

export async function scanIcebergTable(table: IcebergTable, opts: { snapshotId?: string } = {}): Promise<IcebergScan> {
  const m = table.metadata;
  const columns = currentSchema(m).fields.map((f) => f.name);
  const { snapshotId, dataFiles } = await icebergDataFiles(table, opts);
  if (snapshotId === null) return { snapshotId: null, columns, dataFiles: [], rowCount: 0, rows: [] };
  const rows = await withConnection(async (c) => {
    if (dataFiles.length === 0) return [];
    const parts: string[] = [];
    for (const f of dataFiles) parts.push(await selectByFieldId(c, m, f, table.catalog.resolvePath));
    const r = await c.runAndReadAll(`${parts.join(' UNION ALL ')} ORDER BY ALL`);
    return r.getRowsJson() as (string | null)[][];
  });
  return { snapshotId, columns, dataFiles, rowCount: rows.length, rows };
}
