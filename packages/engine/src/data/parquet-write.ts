/**
 * Writes data files for a commit with DuckDB: one COPY per output file (exact row caps, names
 * chosen by the engine, stats returned by the writer itself), Hive-style partition folders with
 * the partition columns left out of the files, as delta-rs writes them.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Add } from '../delta/protocol/actions';
import { deltaToDuckType, type StructField, type StructType } from '../delta/protocol/schema';
import { buildStats, type RawColumnStats } from '../delta/protocol/stats';
import type { ObjectStore } from '../storage/object-store';
import { sqlIdent, sqlString } from './duck';
import { dataFileName, partitionSegment, toLogPath } from './paths';

export interface WriteFilesOptions {
  store: ObjectStore;
  schema: StructType;
  partitionColumns: readonly string[];
  statsColumns: readonly StructField[];
  /** An engine-built relation whose columns are the schema's, in order, already cast. */
  source: string;
  /** Roll to a new file once a file reaches about this many bytes (delta-rs: 100 MiB). */
  targetFileSize: number;
  /** Optional hard cap on rows per file (the lab's base tables use it for the lesson's layout). */
  rowsPerFile?: number;
}

export interface WrittenFiles {
  adds: Add[];
  rows: number;
  bytes: number;
}

interface CopyStatsRow {
  filename: string;
  count: string;
  file_size_bytes: string;
  column_statistics: { key: string; value: { key: string; value: string }[] }[];
}

function rawStats(row: CopyStatsRow): Map<string, RawColumnStats> {
  const out = new Map<string, RawColumnStats>();
  for (const { key, value } of row.column_statistics ?? []) {
    // DuckDB quotes the column name: "VendorID".
    const name = key.startsWith('"') ? key.slice(1, -1).replaceAll('""', '"') : key;
    const kv = Object.fromEntries(value.map((e) => [e.key, e.value]));
    out.set(name, {
      ...(kv.min !== undefined && { min: kv.min }),
      ...(kv.max !== undefined && { max: kv.max }),
      ...(kv.null_count !== undefined && { nullCount: Number(kv.null_count) }),
    });
  }
  return out;
}

/** Writes the rows of `source` as data files under the store's staging folder; nothing is committed. */
export async function writeDataFiles(conn: DuckDBConnection, opts: WriteFilesOptions): Promise<WrittenFiles> {
  const staging = await opts.store.stagingDir();
  const writerId = randomUUID();
  const dataColumns = opts.schema.fields.filter((f) => !opts.partitionColumns.includes(f.name));
  const selectData = dataColumns.map((f) => sqlIdent(f.name)).join(', ');
  const part = opts.partitionColumns.map(sqlIdent);
  const tmp = `__write_${writerId.replaceAll('-', '')}`;
  const adds: Add[] = [];
  let fileNo = 0;
  let rows = 0;
  const cap = opts.rowsPerFile;
  let from = `(${opts.source})`;
  try {
    if (cap !== undefined) {
      // A row cap needs row numbers (per partition): number the rows once into a temp table, so each
      // output file is a range scan of it. Without a cap the source streams straight into COPY.
      const over = part.length > 0 ? `OVER (PARTITION BY ${part.join(', ')})` : 'OVER ()';
      await conn.run(`CREATE TEMP TABLE ${tmp} AS SELECT *, row_number() ${over} - 1 AS __rn FROM ${from}`);
      from = tmp;
    }
    for (const g of await partitionGroups(conn, from, opts)) {
      const chunks = cap === undefined ? 1 : Math.ceil(g.rows / cap);
      for (let i = 0; i < chunks; i++) {
        const range = cap === undefined ? '' : ` AND __rn >= ${i * cap} AND __rn < ${(i + 1) * cap}`;
        const dir = g.segments.join('/');
        const select = `SELECT ${selectData} FROM ${from} WHERE ${g.where}${range}`;
        for (const w of await copyOut(conn, select, staging, opts)) {
          const name = dataFileName(fileNo++, writerId);
          const relPath = dir ? `${dir}/${name}` : name;
          await opts.store.putFile(relPath, w.localPath);
          rows += w.rows;
          adds.push({
            path: toLogPath(relPath),
            partitionValues: g.values,
            size: w.size,
            modificationTime: Date.now(),
            dataChange: true,
            stats: JSON.stringify(buildStats(opts.statsColumns, w.rows, w.stats)),
          });
        }
      }
    }
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${tmp}`);
    await rm(staging, { recursive: true, force: true });
  }
  return { adds, rows, bytes: adds.reduce((n, a) => n + a.size, 0) };
}

interface PartitionGroup {
  values: Record<string, string | null>;
  segments: string[];
  where: string;
  rows: number;
}

async function partitionGroups(
  conn: DuckDBConnection,
  from: string,
  opts: WriteFilesOptions,
): Promise<PartitionGroup[]> {
  const cols = opts.partitionColumns;
  if (cols.length === 0) {
    const r = await conn.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM ${from}`);
    const rows = Number(r.getColumns()[0]?.[0] ?? 0);
    return rows === 0 ? [] : [{ values: {}, segments: [], where: 'TRUE', rows }];
  }
  const list = cols.map((c) => `CAST(${sqlIdent(c)} AS VARCHAR)`).join(', ');
  const r = await conn.runAndReadAll(
    `SELECT ${list}, count(*)::BIGINT FROM ${from} GROUP BY ALL ORDER BY ALL NULLS FIRST`,
  );
  const groups: PartitionGroup[] = [];
  for (const row of r.getRows()) {
    const values: Record<string, string | null> = {};
    const conds: string[] = [];
    cols.forEach((c, i) => {
      const v = row[i] as string | null;
      values[c] = v;
      const field = opts.schema.fields.find((f) => f.name === c) as StructField;
      conds.push(
        v === null
          ? `${sqlIdent(c)} IS NULL`
          : `${sqlIdent(c)} = CAST(${sqlString(v)} AS ${deltaToDuckType(field.type)})`,
      );
    });
    groups.push({
      values,
      segments: cols.map((c) => partitionSegment(c, values[c] ?? null)),
      where: conds.join(' AND '),
      rows: Number(row[cols.length]),
    });
  }
  return groups;
}

interface LocalFile {
  localPath: string;
  rows: number;
  size: number;
  stats: Map<string, RawColumnStats>;
}

/**
 * One COPY; DuckDB rolls to a further file only when the target size is passed (at row-group
 * boundaries), so most calls return one file.
 */
async function copyOut(
  conn: DuckDBConnection,
  select: string,
  staging: string,
  opts: WriteFilesOptions,
): Promise<LocalFile[]> {
  const dir = join(staging, randomUUID());
  const r = await conn.runAndReadAll(
    `COPY (${select}) TO ${sqlString(dir)} (FORMAT parquet, COMPRESSION snappy, FILE_SIZE_BYTES ${opts.targetFileSize}, FILENAME_PATTERN 'f{i}', RETURN_STATS true)`,
  );
  const rows = (r.getRowObjectsJson() as unknown as CopyStatsRow[]).sort((a, b) => fileIndex(a) - fileIndex(b));
  return rows.map(
    (row): LocalFile => ({
      localPath: row.filename,
      rows: Number(row.count),
      size: Number(row.file_size_bytes),
      stats: rawStats(row),
    }),
  );
}

const fileIndex = (row: CopyStatsRow) => Number(/f(\d+)\.parquet$/.exec(row.filename)?.[1] ?? 0);
