/**
 * Parquet data files with Iceberg field ids. DuckDB writes them (`FIELD_IDS {...}`); `parquet_schema()`
 * tells which top-level column carries which field id, which is how readers bind columns (names can
 * differ only in case, or be renamed).
 */
import { randomUUID } from 'node:crypto';
import { rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { IcebergSchema } from '../../kernel/iceberg/types';
import { sqlIdent, sqlList, sqlString } from '../parquet/duck';
import { fileAt } from './files';
import type { DataFile } from './manifest';
import { joinLocation, type PathResolver, toFileUri } from './paths';
import { duckTypeFor } from './schema';

/** Top-level Parquet columns in file order with their field ids (null when the file has none). */
export async function parquetTopLevelColumns(
  c: DuckDBConnection,
  file: string,
): Promise<{ name: string; fieldId: number | null; position: number }[]> {
  const r = await c.runAndReadAll(`SELECT name, field_id, num_children FROM parquet_schema(${sqlString(file)})`);
  const rows = r.getRowObjectsJson();
  const out: { name: string; fieldId: number | null; position: number }[] = [];
  // The first row is the root; its children follow depth-first, so skip each nested column's subtree.
  let i = 1;
  const skip = (): void => {
    const row = rows[i++];
    const n = Number(row?.num_children ?? 0);
    for (let k = 0; k < n; k++) skip();
  };
  while (i < rows.length) {
    const row = rows[i] as Record<string, unknown>;
    out.push({
      name: String(row.name),
      fieldId: row.field_id === null ? null : Number(row.field_id),
      position: out.length + 1,
    });
    skip();
  }
  return out;
}

/**
 * Writes `sources` (Parquet) as one zstd Parquet data file in `dataDir` (a location), columns cast to
 * the table schema and tagged with its field ids. Source columns are matched by name. DuckDB writes it into the
 * data folder's store's staging folder, where its footer is read, and the store then puts it in place, durably
 * (as Delta's data files: parquet-write.ts).
 */
export async function writeDataFile(
  c: DuckDBConnection,
  opts: { schema: IcebergSchema; dataDir: string; sources: string[]; resolvePath: PathResolver },
): Promise<DataFile> {
  if (opts.sources.length === 0) throw new Error('An append needs at least one source Parquet file');
  const lower = new Set<string>();
  for (const f of opts.schema.fields) {
    // DuckDB's FIELD_IDS struct keys are case-insensitive, so it cannot tag such a pair.
    if (lower.has(f.name.toLowerCase()))
      throw new Error(`Cannot write column ${f.name}: DuckDB cannot set field ids for names that differ only in case`);
    lower.add(f.name.toLowerCase());
  }
  const src = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlList(opts.sources)})`);
  const available = new Set(src.getRowObjectsJson().map((r) => String(r.column_name)));
  const select = opts.schema.fields.map((f) => {
    const value = available.has(f.name) ? sqlIdent(f.name) : 'NULL';
    if (value === 'NULL' && f.required)
      throw new Error(`Source Parquet has no column ${f.name}, which the table requires`);
    return `CAST(${value} AS ${duckTypeFor(f.type)}) AS ${sqlIdent(f.name)}`;
  });
  const fieldIds = opts.schema.fields.map((f) => `${sqlString(f.name)}: ${f.id}`).join(', ');
  const location = joinLocation(opts.dataDir, `00000-0-${randomUUID()}.parquet`);
  const target = fileAt(location, opts.resolvePath);
  const staging = await target.store.stagingDir();
  try {
    const file = join(staging, target.key);
    await c.run(
      `COPY (SELECT ${select.join(', ')} FROM read_parquet(${sqlList(opts.sources)})) TO ${sqlString(file)} ` +
        `(FORMAT parquet, COMPRESSION zstd, FIELD_IDS {${fieldIds}})`,
    );
    const count = await c.runAndReadAll(`SELECT num_rows FROM parquet_file_metadata(${sqlString(file)})`);
    const dataFile: DataFile = {
      content: 0,
      filePath: toFileUri(target.path),
      fileFormat: 'PARQUET',
      recordCount: BigInt(String(count.getRowsJson()[0]?.[0] ?? 0)),
      fileSizeInBytes: BigInt((await stat(file)).size),
      ...(await footerMetrics(c, file, opts.schema)),
    };
    // DuckDB does not fsync; putFile does, so the commit that names the file cannot outlive its bytes.
    await target.store.putFile(target.key, file);
    return dataFile;
  } finally {
    await removeStaging(staging);
  }
}

/** The staging folder, and the store's folder of staging folders once no other writer's is left in it. */
async function removeStaging(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
  // Fails while another writer stages beside it: that writer removes it.
  await rmdir(dirname(staging)).catch(() => {});
}

/**
 * The optional manifest metrics we can take from the footer as pyiceberg does (column sizes, value and
 * null counts per field id) and the row groups' start offsets as split offsets. Bounds are not written.
 */
async function footerMetrics(
  c: DuckDBConnection,
  file: string,
  schema: IcebergSchema,
): Promise<Pick<DataFile, 'columnSizes' | 'valueCounts' | 'nullValueCounts' | 'splitOffsets'>> {
  const ids = new Map(schema.fields.map((f) => [f.name, f.id]));
  const cols = await c.runAndReadAll(
    'SELECT path_in_schema, sum(total_compressed_size)::VARCHAR, sum(num_values)::VARCHAR, sum(stats_null_count)::VARCHAR ' +
      `FROM parquet_metadata(${sqlString(file)}) GROUP BY path_in_schema`,
  );
  const columnSizes = new Map<number, bigint>();
  const valueCounts = new Map<number, bigint>();
  const nullValueCounts = new Map<number, bigint>();
  for (const [path, size, values, nulls] of cols.getRowsJson() as (string | null)[][]) {
    const id = ids.get(String(path));
    if (id === undefined) continue;
    if (size !== null && size !== undefined) columnSizes.set(id, BigInt(size));
    if (values !== null && values !== undefined) valueCounts.set(id, BigInt(values));
    if (nulls !== null && nulls !== undefined) nullValueCounts.set(id, BigInt(nulls));
  }
  const groups = await c.runAndReadAll(
    'SELECT min(coalesce(dictionary_page_offset, data_page_offset))::VARCHAR ' +
      `FROM parquet_metadata(${sqlString(file)}) GROUP BY row_group_id ORDER BY row_group_id`,
  );
  const splitOffsets = (groups.getRowsJson() as (string | null)[][]).map((r) => BigInt(r[0] ?? 0));
  return { columnSizes, valueCounts, nullValueCounts, splitOffsets };
}
