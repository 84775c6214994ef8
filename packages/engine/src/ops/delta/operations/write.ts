/**
 * write_deltalake: create a table, append to it, overwrite it, or overwrite only the rows matching a
 * predicate, in one commit. The rows come from Parquet files or JS rows; the data files are written
 * first, then the commit claims the next version.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Action, Add, Metadata, Remove } from '../../../kernel/delta/protocol/actions';
import {
  assignColumnMapping,
  type ColumnMappingMode,
  MAX_COLUMN_ID_KEY,
  requestedColumnMapping,
} from '../../../kernel/delta/protocol/column-mapping';
import { checkpointInterval, isAppendOnly, targetFileSize } from '../../../kernel/delta/protocol/config';
import { assertCanWrite, protocolForSchema } from '../../../kernel/delta/protocol/features';
import { parseSchemaString, type StructType, schemaToString } from '../../../kernel/delta/protocol/schema';
import { statsColumns } from '../../../kernel/delta/protocol/stats';
import { type Expr, parsePredicate, renderExpression, renderSql } from '../../../kernel/sql/index';
import type { ObjectStore } from '../../../storage/object-store';
import { withConnection } from '../../parquet/duck';
import { type WrittenFiles, writeDataFiles, writeRowsFile } from '../../parquet/parquet-write';
import { SMALL_WRITE_ROWS, smallRowsColumns } from '../../parquet/small-rows';
import {
  assertSameColumns,
  conformToSchema,
  type DataSource,
  prepareSource,
  SchemaMismatchError,
} from '../../parquet/source';
import { commit } from '../commit/commit';
import { buildCommitInfo } from '../commit/commit-info';
import { type CommitOptions, removeFor, Transaction } from '../commit/transaction';
import { NotATableError } from '../log/listing';
import { DeltaTable, storeFor, type TableLocation } from '../table';
import { type CommitHooks, commitPrepared, type OperationResult, PreparedOperation } from './prepared';
import { matchingFiles, summarize } from './rewrite';
import {
  assertNotAppendOnly,
  assertRowsValid,
  hasRowChecks,
  refuseChangeDataFeed,
  refuseGeneratedColumns,
} from './table-features';

export type WriteMode = 'error' | 'append' | 'overwrite' | 'ignore';

const MODE_NAMES: Record<WriteMode, string> = {
  error: 'ErrorIfExists',
  append: 'Append',
  overwrite: 'Overwrite',
  ignore: 'Ignore',
};

export interface WriteOptions extends CommitOptions {
  mode?: WriteMode;
  /** With mode 'overwrite': replace only the rows matching this predicate (delta-rs `predicate=`). */
  predicate?: string;
  partitionBy?: string[];
  /**
   * Table properties for a new table (e.g. `delta.isolationLevel`). `delta.columnMapping.mode` name or id makes a
   * column-mapped table: ids and physical names on every field, `delta.columnMapping.maxColumnId`, its protocol.
   */
  configuration?: Record<string, string | null>;
  name?: string;
  description?: string;
  /** Cap on rows per data file; only the lab's base tables use it. */
  rowsPerFile?: number;
}

export type WriteResult = OperationResult;

export class TableExistsError extends Error {
  override name = 'TableExistsError';
}

export class PredicateViolationError extends Error {
  override name = 'PredicateViolationError';
}

async function openIfExists(location: TableLocation): Promise<DeltaTable | null> {
  try {
    return await DeltaTable.open(location);
  } catch (e) {
    if (e instanceof NotATableError) return null;
    throw e;
  }
}

/**
 * The metaData action of a new table. With `delta.columnMapping.mode` name or id, every field gets an id and a
 * physical name `col-<uuid>`, and the configuration the highest id as `delta.columnMapping.maxColumnId`.
 */
export function newTableMetadata(
  schema: StructType,
  options: Pick<WriteOptions, 'partitionBy' | 'configuration' | 'name' | 'description'> = {},
): Metadata {
  const partitionBy = options.partitionBy ?? [];
  for (const c of partitionBy) {
    if (!schema.fields.some((f) => f.name === c)) {
      throw new SchemaMismatchError(`partition column ${c} is not a column of the data`);
    }
  }
  const configuration = options.configuration ?? {};
  const mapped =
    requestedColumnMapping(configuration) === 'none' ? null : assignColumnMapping(schema, () => `col-${randomUUID()}`);
  return {
    id: randomUUID(),
    name: options.name ?? null,
    description: options.description ?? null,
    format: { provider: 'parquet', options: {} },
    schemaString: schemaToString(mapped?.schema ?? schema),
    partitionColumns: partitionBy,
    createdTime: Date.now(),
    configuration: mapped ? { ...configuration, [MAX_COLUMN_ID_KEY]: String(mapped.maxColumnId) } : configuration,
  };
}

/** What a write writes under: the table's schema, metadata and column mapping, or those of the table it creates. */
interface TableShape {
  schema: StructType;
  metadata: Metadata;
  columnMapping: ColumnMappingMode;
}

function tableShape(table: DeltaTable | null, dataSchema: StructType, options: WriteOptions): TableShape {
  if (table) return { schema: table.schema, metadata: table.metadata, columnMapping: table.columnMapping };
  const metadata = newTableMetadata(dataSchema, options);
  return {
    schema: parseSchemaString(metadata.schemaString),
    metadata,
    columnMapping: requestedColumnMapping(metadata.configuration),
  };
}

function checkOptions(table: DeltaTable | null, mode: WriteMode, options: WriteOptions): void {
  if (options.predicate !== undefined && mode !== 'overwrite') {
    throw new SchemaMismatchError(`a predicate needs mode 'overwrite', not '${mode}'`);
  }
  if (!table) return;
  if (mode === 'error')
    throw new TableExistsError(`Delta table already exists at ${table.location}; write mode is 'error'`);
  // delta-rs's order (operations/write/mod.rs L408-432): append-only (overwrite only), then the protocol.
  if (mode === 'overwrite') assertNotAppendOnly(table);
  assertCanWrite(table.protocol, table.location);
  if (options.predicate !== undefined) refuseChangeDataFeed(table, 'WRITE');
  refuseGeneratedColumns(table, 'WRITE');
  if (options.partitionBy && options.partitionBy.join() !== table.partitionColumns.join()) {
    throw new SchemaMismatchError(
      `partition columns [${options.partitionBy.join(', ')}] differ from the table's [${table.partitionColumns.join(', ')}]`,
    );
  }
}

/**
 * Writes the data files and returns the commit, ready to claim its version; null for mode 'ignore'
 * on an existing table. Given an open DeltaTable, the write reads that version (as delta-rs's
 * `write_deltalake(dt, …)` does); given a location, the latest.
 */
export async function prepareWrite(
  location: TableLocation | DeltaTable,
  data: DataSource,
  options: WriteOptions = {},
): Promise<PreparedOperation | null> {
  const opened = location instanceof DeltaTable ? location : null;
  const store = opened ? opened.store : storeFor(location as TableLocation);
  const mode = options.mode ?? 'error';
  const table = opened ?? (await openIfExists(store));
  if (table && mode === 'ignore') return null;
  checkOptions(table, mode, options);
  const started = Date.now();
  const small = smallWrite(data, table, options);
  if (small) {
    // A few plain rows: one file encoded here, no DuckDB (ops/parquet/small-rows.ts says which rows qualify).
    const { schema, metadata } = small;
    const written = await writeRowsFile({
      store,
      schema,
      statsColumns: statsColumns(schema, metadata.partitionColumns, metadata.configuration),
      columnMapping: small.columnMapping,
      columns: small.columns,
      rows: small.rows,
    });
    return writeOperation({
      store,
      table,
      metadata,
      schema,
      mode,
      options,
      started,
      written,
      expr: null,
      replaced: null,
    });
  }
  const staging = await store.stagingDir();
  try {
    return await withConnection(async (conn) => {
      const prepared = await prepareSource(conn, data, staging);
      try {
        if (table) assertSameColumns(prepared.schema, table.schema);
        const { schema, metadata, columnMapping } = tableShape(table, prepared.schema, options);
        const expr = table && options.predicate !== undefined ? parsePredicate(options.predicate, schema) : null;
        // Positions let a row cap stream; a predicate overwrite mixes in rescued rows, which have none.
        const positioned = prepared.positioned && !expr;
        const source = conformToSchema(prepared, schema, positioned);
        const replaced = table && expr ? await replacedRows(conn, table, expr, source) : null;
        if (table) await assertRowsValid(conn, table, replaced?.source ?? source);
        const written = await writeDataFiles(conn, {
          store,
          staging,
          schema,
          partitionColumns: metadata.partitionColumns,
          statsColumns: statsColumns(schema, metadata.partitionColumns, metadata.configuration),
          source: replaced?.source ?? source,
          positioned,
          targetFileSize: targetFileSize(metadata.configuration),
          columnMapping,
          ...(options.rowsPerFile !== undefined && { rowsPerFile: options.rowsPerFile }),
        });
        return writeOperation({ store, table, metadata, schema, mode, options, started, written, expr, replaced });
      } finally {
        await prepared.dispose();
      }
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The table's columns filled from the write's rows when the write can skip DuckDB: JS rows, at most
 * SMALL_WRITE_ROWS of them, every value in a plain form, no predicate, no partitions, no row cap below the rows,
 * no invariants or CHECK constraints (which are SQL). Otherwise null, and DuckDB writes the files as before.
 */
function smallWrite(data: DataSource, table: DeltaTable | null, options: WriteOptions) {
  if (data.kind !== 'rows' || data.rows.length > SMALL_WRITE_ROWS || options.predicate !== undefined) return null;
  if (options.rowsPerFile !== undefined && options.rowsPerFile < data.rows.length) return null;
  if (table ? table.partitionColumns.length > 0 || hasRowChecks(table) : (options.partitionBy ?? []).length > 0)
    return null;
  if (table) assertSameColumns(data.schema, table.schema);
  const shape = tableShape(table, data.schema, options);
  const columns = smallRowsColumns(data, shape.schema);
  if (!columns) return null;
  return { ...shape, columns, rows: data.rows.length };
}

interface WrittenWrite {
  store: ObjectStore;
  table: DeltaTable | null;
  metadata: Metadata;
  schema: StructType;
  mode: WriteMode;
  options: WriteOptions;
  started: number;
  written: WrittenFiles;
  expr: Expr | null;
  replaced: { files: Add[] } | null;
}

/** The commit of a write whose files are written: removes for an overwrite, commitInfo, metrics. */
function writeOperation(w: WrittenWrite): PreparedOperation {
  const { store, table, metadata, schema, mode, options, written, expr, replaced } = w;
  const now = Date.now();
  const removed: Remove[] =
    table && mode === 'overwrite' ? (replaced?.files ?? table.activeFiles()).map((f) => removeFor(f, now)) : [];
  const params: Record<string, unknown> = { mode: MODE_NAMES[mode] };
  if (!table && metadata.partitionColumns.length > 0) params.partitionBy = metadata.partitionColumns;
  if (expr) params.predicate = renderExpression(expr, 'delta-rs');
  const metrics = {
    execution_time_ms: now - w.started,
    num_added_files: written.adds.length,
    num_added_rows: written.rows,
    num_partitions: 0,
    num_removed_files: removed.length,
  };
  const fileActions: Action[] = [...removed.map((remove) => ({ remove })), ...written.adds.map((add) => ({ add }))];
  const summary = summarize(written, removed.length);
  if (table) {
    const tx = new Transaction({
      table,
      operation: 'WRITE',
      operationParameters: params,
      recordReadVersion: false,
      readPredicate: expr,
      actions: fileActions,
      operationMetrics: metrics,
      options,
    });
    return PreparedOperation.of(tx, summary);
  }
  const actions: Action[] = [
    {
      commitInfo: buildCommitInfo({
        operation: 'WRITE',
        operationParameters: params,
        ...(options.customMetadata && { customMetadata: options.customMetadata }),
        operationMetrics: metrics,
      }),
    },
    { protocol: protocolForSchema(schema, metadata.configuration) },
    { metaData: metadata },
    ...fileActions,
    ...(options.appTransactions ?? []).map((txn) => ({ txn })),
  ];
  return new PreparedOperation(summary, null, () =>
    commit({
      store,
      readVersion: -1,
      actions,
      checkpointEvery: checkpointInterval(metadata.configuration),
      appendOnly: isAppendOnly(metadata.configuration),
      ...(options.maxCommitRetries !== undefined && { maxRetries: options.maxCommitRetries }),
      ...(options.recogniseOwnCommit && { recogniseOwnCommit: true }),
    }),
  );
}

/**
 * Overwrite with a predicate: the files holding matching rows go, and their other rows are written
 * again beside the new data, as delta-rs does. New rows must all match the predicate.
 */
async function replacedRows(conn: DuckDBConnection, table: DeltaTable, expr: Expr, source: string) {
  const cond = renderSql(expr);
  const bad = await conn.runAndReadAll(`SELECT count(*) FROM (${source}) WHERE (${cond}) IS NOT TRUE`);
  const outside = Number(bad.getColumns()[0]?.[0] ?? 0);
  if (outside > 0) {
    throw new PredicateViolationError(
      `${outside} new row(s) do not match the overwrite predicate ${renderExpression(expr)}; nothing was written`,
    );
  }
  const files = (await matchingFiles(conn, table, expr)).map((m) => m.add);
  if (files.length === 0) return { files, source };
  const rescued = `SELECT * FROM (${await table.filesRelation(conn, files)}) WHERE (${cond}) IS NOT TRUE`;
  return { files, source: `${source} UNION ALL ${rescued}` };
}

export async function writeDeltaTable(
  location: TableLocation | DeltaTable,
  data: DataSource,
  options: WriteOptions = {},
  hooks?: CommitHooks,
): Promise<WriteResult | null> {
  return commitPrepared(await prepareWrite(location, data, options), hooks);
}
