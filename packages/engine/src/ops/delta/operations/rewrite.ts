/**
 * What update, delete, merge and overwrite-with-predicate share: finding the files that really hold
 * matching rows (stats only narrow the search; DuckDB counts), writing new files for the table, and
 * the summary every operation reports.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Add } from '../../../kernel/delta/protocol/actions';
import { targetFileSize } from '../../../kernel/delta/protocol/config';
import { assertCanWrite } from '../../../kernel/delta/protocol/features';
import { statsColumns } from '../../../kernel/delta/protocol/stats';
import { type Expr, renderSql } from '../../../kernel/sql/index';
import { fromLogPath } from '../../parquet/data-file-paths';
import { type WrittenFiles, writeDataFiles } from '../../parquet/parquet-write';
import type { DeltaTable } from '../table';
import type { OperationSummary } from './prepared';

export interface FileMatch {
  add: Add;
  /** Rows of the file for which the predicate is TRUE. */
  matched: number;
  total: number;
}

/**
 * The files holding at least one row that matches: stats rule files out, then one DuckDB pass
 * counts matches per remaining file. Files with no matching row are left alone, which is what lets
 * an update of VendorID 6 leave files 1–7 untouched although their VendorID spans 1..7.
 */
export async function matchingFiles(conn: DuckDBConnection, table: DeltaTable, expr: Expr): Promise<FileMatch[]> {
  const candidates = table.filesMatching(expr);
  if (candidates.length === 0) return [];
  const rel = await table.filesRelation(conn, candidates, { withFile: true });
  const rows = await conn.runAndReadAll(
    `SELECT __file, count(*) FILTER (WHERE ${renderSql(expr)}) AS m, count(*) AS n FROM (${rel}) GROUP BY __file`,
  );
  const byKey = new Map(candidates.map((a) => [fromLogPath(a.path), a]));
  const out: FileMatch[] = [];
  for (const [file, m, n] of rows.getRows() as [string, bigint, bigint][]) {
    const add = byKey.get(file);
    if (add && m > 0n) out.push({ add, matched: Number(m), total: Number(n) });
  }
  return out.sort((a, b) => (a.add.path < b.add.path ? -1 : 1));
}

/** Writes the rows of an engine-built relation (the table's columns, in order) as new files of the table. */
export function writeTableRows(conn: DuckDBConnection, table: DeltaTable, source: string): Promise<WrittenFiles> {
  // Before any file is written: a table delta-rs would not write to gets no new files, not even orphans.
  assertCanWrite(table.protocol, table.location);
  return writeDataFiles(conn, {
    store: table.store,
    schema: table.schema,
    partitionColumns: table.partitionColumns,
    statsColumns: statsColumns(table.schema, table.partitionColumns, table.configuration),
    source,
    targetFileSize: targetFileSize(table.configuration),
    columnMapping: table.columnMapping,
  });
}

export function summarize(written: WrittenFiles | null, filesRemoved: number): OperationSummary {
  return {
    filesAdded: written?.adds.length ?? 0,
    filesRemoved,
    rowsWritten: written?.rows ?? 0,
    bytesWritten: written?.bytes ?? 0,
  };
}
