/**
 * Writes data files for a commit with DuckDB: one COPY per output file (exact row caps, names
 * chosen by the engine, stats returned by the writer itself), Hive-style partition folders with
 * the partition columns left out of the files, as delta-rs writes them. On a column-mapped table the files
 * take physical names and field ids (physical-columns.ts), and each partition's files go under a random
 * two-hex-digit folder instead of `col=value/` (delta-rs operations/write/writer.rs L247-250, L308-313), so
 * that physical names stay out of paths.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Add } from '../../kernel/delta/protocol/actions';
import { type ColumnMappingMode, columnId, physicalName } from '../../kernel/delta/protocol/column-mapping';
import { deltaToDuckType, type StructField, type StructType } from '../../kernel/delta/protocol/schema';
import { buildStats, type RawColumnStats } from '../../kernel/delta/protocol/stats';
import type { ObjectStore } from '../../storage/object-store';
import { dataFileName, partitionSegment, toLogPath } from './data-file-paths';
import { sqlIdent, sqlString } from './duck';
import { encodeParquet, type FlatColumn, type FlatColumnStats } from './parquet-encode';
import { physicalColumns } from './physical-columns';
import { flatRawStats } from './small-rows';

export interface WriteFilesOptions {
  store: ObjectStore;
  schema: StructType;
  partitionColumns: readonly string[];
  statsColumns: readonly StructField[];
  /** An engine-built relation whose columns are the schema's, in order, already cast. */
  source: string;
  /** Whether `source` has a `__pos` column (row positions), which a row cap can cut by. */
  positioned?: boolean;
  /** Roll to a new file once a file reaches about this many bytes (delta-rs: 100 MiB). */
  targetFileSize: number;
  /** Optional hard cap on rows per file (the lab's base tables use it for the lesson's layout). */
  rowsPerFile?: number;
  /** The table's column mapping; `schema`, `partitionColumns`, `statsColumns` and `source` stay logical. */
  columnMapping?: ColumnMappingMode;
  /** A staging folder of the caller's (who removes it), instead of a new one made and removed here. */
  staging?: string;
}

/** What the COPYs write: the options, under physical names when the table maps columns. */
interface FileLayout extends WriteFilesOptions {
  /** `, FIELD_IDS {…}` or nothing. */
  fieldIdsOption: string;
  mapped: boolean;
}

function fileLayout(opts: WriteFilesOptions): FileLayout {
  const mode = opts.columnMapping ?? 'none';
  if (mode === 'none') return { ...opts, fieldIdsOption: '', mapped: false };
  const p = physicalColumns(opts.schema, opts.partitionColumns, opts.statsColumns, mode);
  return {
    ...opts,
    schema: p.schema,
    partitionColumns: p.partitionColumns,
    statsColumns: p.statsColumns,
    source: `SELECT ${p.select}${opts.positioned ? ', __pos' : ''} FROM (${opts.source})`,
    fieldIdsOption: `, FIELD_IDS ${p.fieldIds}`,
    mapped: true,
  };
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
  partition_keys: { key: string; value: string | null }[];
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

/** A file DuckDB wrote into the staging folder, with what it reported about it. */
interface StagedFile {
  localPath: string;
  rows: number;
  size: number;
  stats: Map<string, RawColumnStats>;
  partitionValues: Record<string, string | null>;
  /** Position among the partition's files, so names follow row order. */
  order: number;
}

/**
 * Where a commit's files go: under their partition's `col=value/` folders, or on a column-mapped table under a
 * random two-hex-digit folder per partition (one for all of an unpartitioned table's files).
 */
class FolderNamer {
  private readonly prefixes = new Map<string, string>();

  constructor(
    private readonly mapped: boolean,
    private readonly partitionColumns: readonly string[],
  ) {}

  folderFor(values: Record<string, string | null>): string {
    if (!this.mapped) return this.partitionColumns.map((c) => partitionSegment(c, values[c] ?? null)).join('/');
    const key = JSON.stringify(this.partitionColumns.map((c) => values[c] ?? null));
    const prefix = this.prefixes.get(key) ?? randomBytes(1).toString('hex');
    this.prefixes.set(key, prefix);
    return prefix;
  }
}

const filePath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

/** The add action of one written file. */
function addFor(
  relPath: string,
  f: {
    rows: number;
    size: number;
    stats: ReadonlyMap<string, RawColumnStats>;
    partitionValues: Record<string, string | null>;
  },
  statsColumns: readonly StructField[],
): Add {
  return {
    path: toLogPath(relPath),
    partitionValues: f.partitionValues,
    size: f.size,
    modificationTime: Date.now(),
    dataChange: true,
    stats: JSON.stringify(buildStats(statsColumns, f.rows, f.stats)),
  };
}

const written = (adds: Add[], rows: number): WrittenFiles => ({
  adds,
  rows,
  bytes: adds.reduce((n, a) => n + a.size, 0),
});

/** Writes the rows of `source` as data files in the table's folder; nothing is committed. */
export async function writeDataFiles(conn: DuckDBConnection, options: WriteFilesOptions): Promise<WrittenFiles> {
  const opts = fileLayout(options);
  // Inside the caller's folder, a folder of its own: DuckDB writes partition folders into it.
  const staging = opts.staging === undefined ? await opts.store.stagingDir() : join(opts.staging, randomUUID());
  if (opts.staging !== undefined) await mkdir(staging);
  const writerId = randomUUID();
  try {
    const staged =
      opts.rowsPerFile === undefined
        ? await copyBySize(conn, opts, staging)
        : await copyByRowCap(conn, opts, staging, opts.rowsPerFile);
    const key = (f: StagedFile) => JSON.stringify(opts.partitionColumns.map((c) => f.partitionValues[c] ?? null));
    staged.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.order - b.order));
    const folders = new FolderNamer(opts.mapped, opts.partitionColumns);
    const adds: Add[] = [];
    for (const [i, f] of staged.entries()) {
      const relPath = filePath(folders.folderFor(f.partitionValues), dataFileName(i, writerId));
      await opts.store.putFile(relPath, f.localPath);
      adds.push(addFor(relPath, f, opts.statsColumns));
    }
    const rows = staged.reduce((n, f) => n + f.rows, 0);
    return written(adds, rows);
  } finally {
    if (opts.staging === undefined) await rm(staging, { recursive: true, force: true });
  }
}

const dataSelect = (opts: WriteFilesOptions) =>
  opts.schema.fields
    .filter((f) => !opts.partitionColumns.includes(f.name))
    .map((f) => sqlIdent(f.name))
    .join(', ');

/**
 * delta-rs's layout: one file per partition until it reaches the target size (DuckDB rolls at
 * row-group boundaries). DuckDB cannot roll partitioned COPYs by size, so each partition gets its
 * own COPY.
 */
async function copyBySize(conn: DuckDBConnection, opts: FileLayout, staging: string): Promise<StagedFile[]> {
  const out: StagedFile[] = [];
  for (const g of await partitionGroups(conn, opts)) {
    const dir = join(staging, randomUUID());
    const r = await conn.runAndReadAll(
      `COPY (SELECT ${dataSelect(opts)} FROM (${opts.source}) WHERE ${g.where}) TO ${sqlString(dir)} (FORMAT parquet, COMPRESSION snappy, FILE_SIZE_BYTES ${opts.targetFileSize}, FILENAME_PATTERN 'f{i}', RETURN_STATS true${opts.fieldIdsOption})`,
    );
    for (const row of r.getRowObjectsJson() as unknown as CopyStatsRow[]) {
      const f = staged(row, g.values, Number(/f(\d+)\.parquet$/.exec(row.filename)?.[1] ?? 0));
      // An empty source still makes DuckDB write one empty file; a commit never names it.
      if (f.rows > 0) out.push(f);
    }
  }
  return out;
}

/**
 * A hard cap on rows per file (the lab's base tables: the lesson's 9-file layout). One COPY: rows
 * are numbered per partition in source order and DuckDB splits them into chunk folders.
 */
async function copyByRowCap(
  conn: DuckDBConnection,
  opts: FileLayout,
  staging: string,
  cap: number,
): Promise<StagedFile[]> {
  const parts = opts.partitionColumns.map(sqlIdent);
  // Known positions stream; otherwise rows are numbered (per partition) in source order.
  const position =
    opts.positioned && parts.length === 0
      ? '__pos'
      : `row_number() OVER (${parts.length > 0 ? `PARTITION BY ${parts.join(', ')}` : ''}${opts.positioned ? ' ORDER BY __pos' : ''}) - 1`;
  const select = `SELECT ${dataSelect(opts)}${parts.map((p) => `, ${p}`).join('')}, (${position}) // ${cap} AS __chunk FROM (${opts.source})`;
  const r = await conn.runAndReadAll(
    `COPY (${select}) TO ${sqlString(staging)} (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (${[...parts, '__chunk'].join(', ')}), FILENAME_PATTERN 'f{i}', RETURN_STATS true, OVERWRITE_OR_IGNORE true${opts.fieldIdsOption})`,
  );
  return (r.getRowObjectsJson() as unknown as CopyStatsRow[]).map((row) => {
    const keys = Object.fromEntries(row.partition_keys.map((k) => [k.key, k.value]));
    const values = Object.fromEntries(opts.partitionColumns.map((c) => [c, keys[c] ?? null]));
    return staged(row, values, Number(keys.__chunk));
  });
}

function staged(row: CopyStatsRow, partitionValues: Record<string, string | null>, order: number): StagedFile {
  return {
    localPath: row.filename,
    rows: Number(row.count),
    size: Number(row.file_size_bytes),
    stats: rawStats(row),
    partitionValues,
    order,
  };
}

interface PartitionGroup {
  values: Record<string, string | null>;
  where: string;
}

async function partitionGroups(conn: DuckDBConnection, opts: WriteFilesOptions): Promise<PartitionGroup[]> {
  const cols = opts.partitionColumns;
  if (cols.length === 0) return [{ values: {}, where: 'TRUE' }];
  const list = cols.map((c) => `CAST(${sqlIdent(c)} AS VARCHAR)`).join(', ');
  const r = await conn.runAndReadAll(`SELECT DISTINCT ${list} FROM (${opts.source})`);
  return r.getRows().map((row) => {
    const values: Record<string, string | null> = {};
    const conds = cols.map((c, i) => {
      const v = row[i] as string | null;
      values[c] = v;
      const field = opts.schema.fields.find((f) => f.name === c) as StructField;
      return v === null
        ? `${sqlIdent(c)} IS NULL`
        : `${sqlIdent(c)} = CAST(${sqlString(v)} AS ${deltaToDuckType(field.type)})`;
    });
    return { values, where: conds.join(' AND ') };
  });
}

export interface RowsFileOptions {
  store: ObjectStore;
  /** The table's schema, columns and stats columns under logical names, as for writeDataFiles. */
  schema: StructType;
  statsColumns: readonly StructField[];
  columnMapping?: ColumnMappingMode;
  /** The table's columns in order, filled (small-rows.ts); the table is unpartitioned. */
  columns: readonly FlatColumn[];
  rows: number;
}

/**
 * A few rows of an unpartitioned table as one data file encoded here (parquet-encode.ts) instead of by a DuckDB
 * COPY: the same name, folder, columns (physical names and field ids on a column-mapped table) and stats as
 * writeDataFiles gives for them. No rows, no file.
 */
export async function writeRowsFile(opts: RowsFileOptions): Promise<WrittenFiles> {
  if (opts.rows === 0) return written([], 0);
  const mode = opts.columnMapping ?? 'none';
  const mapped = mode !== 'none';
  const fields = new Map(opts.schema.fields.map((f) => [f.name, f]));
  const physical = (name: string) => physicalName(fields.get(name) as StructField, mode);
  const columns = opts.columns.map((c) => ({
    ...c,
    name: physical(c.name),
    ...(mapped && { fieldId: columnId(fields.get(c.name) as StructField) }),
  }));
  const file = encodeParquet(columns, opts.rows);
  const stats = new Map(columns.map((c, i) => [c.name, flatRawStats(c.type, file.stats[i] as FlatColumnStats)]));
  const statsColumns = opts.statsColumns.map((f) => ({ ...f, name: physical(f.name) }));
  const relPath = filePath(new FolderNamer(mapped, []).folderFor({}), dataFileName(0, randomUUID()));
  // Nothing is staged, but the write still sweeps what dead writers staged, as every write does.
  await opts.store.sweepStaging();
  await opts.store.putBytes(relPath, file.bytes);
  const add = addFor(relPath, { rows: opts.rows, size: file.bytes.length, stats, partitionValues: {} }, statsColumns);
  return written([add], opts.rows);
}
