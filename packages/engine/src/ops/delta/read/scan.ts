/**
 * The relation DuckDB reads a snapshot through: the active files only (never a folder listing, which
 * would also see removed and zombie files), every schema column cast to its Delta type, partition
 * columns taken from `add.partitionValues` (never from folder names), columns a file lacks as NULL, and
 * never the rows a file's deletion vector deletes (deleted-rows.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnMappingMode } from '../../../kernel/delta/protocol/column-mapping';
import { deltaToDuckType, type StructType } from '../../../kernel/delta/protocol/schema';
import type { ObjectStore } from '../../../storage/object-store';
import { sqlIdent, sqlString } from '../../parquet/duck';
import { logicalFileSource } from '../../parquet/logical-columns';
import { type DeletableFile, liveRows } from './deleted-rows';

export interface ScanFile extends DeletableFile {
  /** Object key of the file (the decoded `add.path`). */
  key: string;
  partitionValues: Record<string, string | null>;
}

export class DataFileMissingError extends Error {
  override name = 'DataFileMissingError';
}

export interface ScanOptions {
  /** Add a `__file` column holding the object key each row was read from. */
  withFile?: boolean;
  /** The table's column mapping: its files then name columns by physical name or field id. */
  columnMapping?: ColumnMappingMode;
  /** Folders besides the table's own where its deletion vectors at absolute paths may lie (dv/locate.ts). */
  dvRoots?: readonly string[];
}

const READ_OPTIONS = `union_by_name=true, hive_partitioning=false, filename='__file'`;

export async function scanRelation(
  conn: DuckDBConnection,
  store: ObjectStore,
  schema: StructType,
  partitionColumns: readonly string[],
  files: readonly ScanFile[],
  options: ScanOptions = {},
): Promise<string> {
  const typed = (name: string, expr: string, type: string) => `CAST(${expr} AS ${type}) AS ${sqlIdent(name)}`;
  if (files.length === 0) {
    const cols = schema.fields.map((f) => typed(f.name, 'NULL', deltaToDuckType(f.type)));
    if (options.withFile) cols.push(`CAST(NULL AS VARCHAR) AS __file`);
    return `SELECT ${cols.join(', ')} WHERE FALSE`;
  }
  const missing: string[] = [];
  await Promise.all(
    files.map(async (f) => {
      if (!(await store.head(f.key))) missing.push(f.key);
    }),
  );
  if (missing.length > 0) {
    throw new DataFileMissingError(
      `${store.location}: the log names ${missing.length} data file(s) that do not exist: ${missing.sort().slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
    );
  }
  const paths = await Promise.all(files.map((f) => store.localPath(f.key)));
  // Partition values come from the log (already under logical names), data columns from the files under theirs.
  const mapping = { schema, partitionColumns, mode: options.columnMapping ?? 'none' };
  const read = (some: readonly string[], rowNumbers: boolean) =>
    logicalFileSource(conn, some, rowNumbers ? `${READ_OPTIONS}, file_row_number=true` : READ_OPTIONS, mapping);
  const source = await liveRows(conn, store, files, paths, read, options.dvRoots);
  const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
  const present = new Set((described.getColumns()[0] as string[]).map((c) => c.toLowerCase()));
  const isPartition = (name: string) => partitionColumns.includes(name);
  const cols = schema.fields.map((f) => {
    const type = deltaToDuckType(f.type);
    if (isPartition(f.name)) return typed(f.name, `__f.${sqlIdent(f.name)}`, type);
    return present.has(f.name.toLowerCase())
      ? typed(f.name, `__d.${sqlIdent(f.name)}`, type)
      : typed(f.name, 'NULL', type);
  });
  if (options.withFile) cols.push('__f.__key AS __file');
  if (partitionColumns.length === 0 && !options.withFile) return `SELECT ${cols.join(', ')} FROM ${source} __d`;
  // One row per file: its local path (to join on), its object key, its partition values.
  const values = files.map((f, i) => {
    const pv = partitionColumns.map((c) => {
      const v = f.partitionValues[c];
      // An empty partition value means null, as the Delta protocol says.
      return v === null || v === undefined || v === '' ? 'NULL' : sqlString(v);
    });
    return `(${[sqlString(paths[i] as string), sqlString(f.key), ...pv].join(', ')})`;
  });
  const names = ['__path', '__key', ...partitionColumns.map(sqlIdent)].join(', ');
  return `SELECT ${cols.join(', ')} FROM ${source} __d JOIN (VALUES ${values.join(', ')}) __f(${names}) ON __d.__file = __f.__path`;
}
