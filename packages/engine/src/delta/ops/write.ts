/**
 * write_deltalake: create a table, append to it, or overwrite it, in one commit. The rows come from
 * Parquet files or JS rows; files are written first, then the commit claims the next version.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { withConnection } from '../../data/duck';
import { writeDataFiles } from '../../data/parquet-write';
import { conformToSchema, type DataSource, prepareSource, SchemaMismatchError } from '../../data/source';
import { type CommitResult, commit } from '../commit/commit';
import { buildCommitInfo } from '../commit/commit-info';
import { appendOnlyViolation } from '../commit/errors';
import { NotATableError } from '../log/listing';
import type { Action, Metadata, Remove, Txn } from '../protocol/actions';
import { checkpointInterval, isAppendOnly, targetFileSize } from '../protocol/config';
import { assertCanWrite, protocolForSchema } from '../protocol/features';
import { type StructType, schemaToString } from '../protocol/schema';
import { statsColumns } from '../protocol/stats';
import { DeltaTable, storeFor, type TableLocation } from '../table';

export type WriteMode = 'error' | 'append' | 'overwrite' | 'ignore';

const MODE_NAMES: Record<WriteMode, string> = {
  error: 'ErrorIfExists',
  append: 'Append',
  overwrite: 'Overwrite',
  ignore: 'Ignore',
};

export interface CommitOptions {
  /** delta-rs `max_commit_retries`; default 15. */
  maxCommitRetries?: number;
  /** Flattened into commitInfo; reserved keys are promoted as delta-rs does. */
  customMetadata?: Record<string, unknown>;
  appTransactions?: Txn[];
}

export interface WriteOptions extends CommitOptions {
  mode?: WriteMode;
  partitionBy?: string[];
  /** Table properties for a new table (e.g. `delta.isolationLevel`). */
  configuration?: Record<string, string | null>;
  name?: string;
  description?: string;
  /** Cap on rows per data file; only the lab's base tables use it. */
  rowsPerFile?: number;
}

export interface WriteResult extends CommitResult {
  filesAdded: number;
  filesRemoved: number;
  rowsWritten: number;
  bytesWritten: number;
}

export class TableExistsError extends Error {
  override name = 'TableExistsError';
}

async function openIfExists(location: TableLocation): Promise<DeltaTable | null> {
  try {
    return await DeltaTable.open(location);
  } catch (e) {
    if (e instanceof NotATableError) return null;
    throw e;
  }
}

function newMetadata(schema: StructType, options: WriteOptions): Metadata {
  const partitionBy = options.partitionBy ?? [];
  for (const c of partitionBy) {
    if (!schema.fields.some((f) => f.name === c)) {
      throw new SchemaMismatchError(`partition column ${c} is not a column of the data`);
    }
  }
  return {
    id: randomUUID(),
    name: options.name ?? null,
    description: options.description ?? null,
    format: { provider: 'parquet', options: {} },
    schemaString: schemaToString(schema),
    partitionColumns: partitionBy,
    createdTime: Date.now(),
    configuration: options.configuration ?? {},
  };
}

export async function writeDeltaTable(
  location: TableLocation,
  data: DataSource,
  options: WriteOptions = {},
): Promise<WriteResult | null> {
  const store = storeFor(location);
  const mode = options.mode ?? 'error';
  const table = await openIfExists(store);
  if (table && mode === 'error') {
    throw new TableExistsError(`Delta table already exists at ${table.location}; write mode is 'error'`);
  }
  if (table && mode === 'ignore') return null;
  if (table) {
    assertCanWrite(table.protocol, table.location);
    if (options.partitionBy && options.partitionBy.join() !== table.partitionColumns.join()) {
      throw new SchemaMismatchError(
        `partition columns [${options.partitionBy.join(', ')}] differ from the table's [${table.partitionColumns.join(', ')}]`,
      );
    }
    if (mode === 'overwrite' && isAppendOnly(table.configuration)) throw appendOnlyViolation();
  }

  const staging = await store.stagingDir();
  try {
    return await withConnection(async (conn) => {
      const prepared = await prepareSource(conn, data, staging);
      try {
        const schema = table?.schema ?? prepared.schema;
        const metadata = table?.metadata ?? newMetadata(schema, options);
        const written = await writeDataFiles(conn, {
          store,
          schema,
          partitionColumns: metadata.partitionColumns,
          statsColumns: statsColumns(schema, metadata.partitionColumns, metadata.configuration),
          source: conformToSchema(prepared, schema),
          targetFileSize: targetFileSize(metadata.configuration),
          ...(options.rowsPerFile !== undefined && { rowsPerFile: options.rowsPerFile }),
        });
        const now = Date.now();
        const removes: Remove[] =
          table && mode === 'overwrite'
            ? table.activeFiles().map((f) => ({
                path: f.path,
                dataChange: true,
                deletionTimestamp: now,
                extendedFileMetadata: true,
                partitionValues: f.partitionValues,
                size: f.size,
              }))
            : [];
        const params: Record<string, unknown> = { mode: MODE_NAMES[mode] };
        if (!table && metadata.partitionColumns.length > 0) params.partitionBy = metadata.partitionColumns;
        const actions: Action[] = [
          {
            commitInfo: buildCommitInfo({
              operation: 'WRITE',
              operationParameters: params,
              ...(options.customMetadata && { customMetadata: options.customMetadata }),
              operationMetrics: {
                num_added_files: written.adds.length,
                num_added_rows: written.rows,
                num_partitions: 0,
                num_removed_files: removes.length,
              },
            }),
          },
        ];
        if (!table) actions.push({ protocol: protocolForSchema(schema) }, { metaData: metadata });
        actions.push(...removes.map((remove) => ({ remove })), ...written.adds.map((add) => ({ add })));
        actions.push(...(options.appTransactions ?? []).map((txn) => ({ txn })));
        const result = await commit({
          store,
          readVersion: table ? table.version : -1,
          actions,
          checkpointEvery: checkpointInterval(metadata.configuration),
          ...(options.maxCommitRetries !== undefined && { maxRetries: options.maxCommitRetries }),
        });
        return {
          ...result,
          filesAdded: written.adds.length,
          filesRemoved: removes.length,
          rowsWritten: written.rows,
          bytesWritten: written.bytes,
        };
      } finally {
        await prepared.dispose();
      }
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
