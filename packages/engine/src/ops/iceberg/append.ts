/**
 * Fast appends the way pyiceberg does them: the data file is written once; each commit attempt builds
 * a new manifest (`<U>-m0.avro`), a new manifest list (`snap-<id>-0-<U>.avro`, same snapshot id, new
 * commit uuid U) and new metadata against the table as it is now, then commits with
 * AssertRefSnapshotId(main) + AssertTableUUID. Lost attempts' manifests are deleted; data stays.
 */
import { randomUUID } from 'node:crypto';
import { type RetryHooks, retryPolicyFrom, withCommitRetry } from '../../kernel/iceberg/commit-retry';
import { type IcebergSchema, parseIdentifier, type Snapshot, type TableMetadata } from '../../kernel/iceberg/types';
import { withConnection } from '../parquet/duck';
import type { IcebergCatalog } from './catalog';
import { type CommitTableOptions, commitTable, type Requirement, type Update, writeMetadataFile } from './commit';
import { writeDataFile } from './data-files';
import { fileAt, type IcebergFile, writeNewFile } from './files';
import { type DataFile, encodeManifest, encodeManifestList, type ManifestFile, readManifestList } from './manifest';
import { currentSchema, currentSnapshot, newMetadataLocation, newTableMetadata } from './metadata';
import { joinLocation, toFileUri } from './paths';
import { schemaFromParquet } from './schema';
import { newSnapshotId } from './snapshot-id';
import { type IcebergTable, loadTable } from './table';

export interface CreateTableOptions {
  /** Table location (path or file:// URI); default `{warehouse}/{namespace}/{table}`. */
  location?: string;
  /** An explicit schema, or a Parquet file whose columns become the schema (ids 1..n). */
  schema?: IcebergSchema;
  schemaFrom?: string;
  /** Table properties, strings (e.g. `{'commit.retry.num-retries': '0'}`). */
  properties?: Record<string, string>;
}

/** pyiceberg `create_table`: write `00000-<uuid>.metadata.json`, then INSERT the catalog row. */
export async function createIcebergTable(
  catalog: IcebergCatalog,
  id: string,
  opts: CreateTableOptions,
): Promise<IcebergTable> {
  const identifier = parseIdentifier(id);
  let schema = opts.schema;
  if (!schema) {
    if (!opts.schemaFrom) throw new Error('createIcebergTable needs a schema or schemaFrom (a Parquet file)');
    const from = opts.schemaFrom;
    schema = await withConnection((c) => schemaFromParquet(c, from));
  }
  const base =
    opts.location ??
    (catalog.warehouse ? joinLocation(catalog.warehouse, `${identifier.namespace}/${identifier.name}`) : undefined);
  if (!base) throw new Error(`No location for ${id}: pass one or give the catalog a warehouse`);
  const metadata = newTableMetadata({ location: toFileUri(base), schema, properties: opts.properties ?? {} });
  const location = newMetadataLocation(metadata, 0);
  await catalog.createNamespace(identifier.namespace);
  await writeMetadataFile(catalog, location, metadata);
  await catalog.insertTable(identifier, location);
  return { catalog, identifier, metadataLocation: location, metadata };
}

export interface AppendCommitOptions extends RetryHooks, CommitTableOptions {}

export interface AppendResult {
  /** 63-bit, so a decimal string. */
  snapshotId: string;
  attempts: number;
  warnings: string[];
  metadataLocation: string;
}

export interface PreparedAppend {
  dataFile: DataFile;
  snapshotId: string;
  commit(opts?: AppendCommitOptions): Promise<AppendResult>;
}

const num = (summary: Record<string, string> | undefined, k: string): bigint => BigInt(summary?.[k] ?? '0');

/**
 * The snapshot's summary: the caller's properties (pyiceberg's `snapshot_properties`), then this append's
 * counts and the totals carried over from the parent (pyiceberg snapshots.py), which a property cannot override.
 */
function summaryFor(
  parent: Snapshot | undefined,
  f: DataFile,
  properties: Record<string, string>,
): Snapshot['summary'] {
  const p = parent?.summary;
  return {
    ...properties,
    operation: 'append',
    'added-files-size': String(f.fileSizeInBytes),
    'added-data-files': '1',
    'added-records': String(f.recordCount),
    'total-data-files': String(num(p, 'total-data-files') + 1n),
    'total-delete-files': String(num(p, 'total-delete-files')),
    'total-records': String(num(p, 'total-records') + f.recordCount),
    'total-files-size': String(num(p, 'total-files-size') + f.fileSizeInBytes),
    'total-position-deletes': String(num(p, 'total-position-deletes')),
    'total-equality-deletes': String(num(p, 'total-equality-deletes')),
  };
}

/**
 * Writes the new manifest and manifest list for `snapshotId` on top of `m`'s main head and returns the
 * updates and requirements to commit, plus the files written (to delete if this attempt loses).
 */
async function stageAppend(
  catalog: IcebergCatalog,
  m: TableMetadata,
  snapshotId: bigint,
  dataFile: DataFile,
  properties: Record<string, string>,
): Promise<{ updates: Update[]; requirements: Requirement[]; written: IcebergFile[] }> {
  const commitUuid = randomUUID();
  const parent = currentSnapshot(m);
  const sequenceNumber = m['last-sequence-number'] + 1;
  const metadataDir = m.properties['write.metadata.path'] ?? joinLocation(m.location, 'metadata');
  const schema = currentSchema(m);
  const write = async (location: string, bytes: Uint8Array): Promise<IcebergFile> => {
    const file = fileAt(location, catalog.resolvePath);
    // Durably: the commit will name it.
    await writeNewFile(file, bytes);
    return file;
  };
  const manifestLocation = joinLocation(metadataDir, `${commitUuid}-m0.avro`);
  const manifestBytes = encodeManifest({ schema, snapshotId, files: [dataFile] });
  const manifestFile = await write(manifestLocation, manifestBytes);
  const seq = BigInt(sequenceNumber);
  const manifests: ManifestFile[] = [
    {
      manifestPath: toFileUri(manifestFile.path),
      manifestLength: BigInt(manifestBytes.length),
      partitionSpecId: m['default-spec-id'],
      content: 0,
      sequenceNumber: seq,
      minSequenceNumber: seq,
      addedSnapshotId: snapshotId,
      addedFilesCount: 1,
      existingFilesCount: 0,
      deletedFilesCount: 0,
      addedRowsCount: dataFile.recordCount,
      existingRowsCount: 0n,
      deletedRowsCount: 0n,
    },
    // Fast append: the parent's manifests are carried over as they are.
    ...(parent ? await readManifestList(parent['manifest-list'], catalog.resolvePath) : []),
  ];
  const listLocation = joinLocation(metadataDir, `snap-${snapshotId}-0-${commitUuid}.avro`);
  const listFile = await write(
    listLocation,
    encodeManifestList({ snapshotId, parentSnapshotId: parent?.['snapshot-id'], sequenceNumber: seq, manifests }),
  );
  const snapshot: Snapshot = {
    'snapshot-id': snapshotId,
    ...(parent ? { 'parent-snapshot-id': parent['snapshot-id'] } : {}),
    'sequence-number': sequenceNumber,
    'timestamp-ms': Date.now(),
    'manifest-list': toFileUri(listFile.path),
    summary: summaryFor(parent, dataFile, properties),
    'schema-id': schema['schema-id'],
  };
  return {
    updates: [
      { action: 'add-snapshot', snapshot },
      { action: 'set-snapshot-ref', refName: 'main', refType: 'branch', snapshotId },
    ],
    requirements: [
      { type: 'assert-ref-snapshot-id', ref: 'main', snapshotId: m.refs.main?.['snapshot-id'] ?? null },
      { type: 'assert-table-uuid', uuid: m['table-uuid'] },
    ],
    written: [manifestFile, listFile],
  };
}

/** Removes lost attempts' manifests and manifest lists (the data file stays: the next attempt names it). */
async function removeFiles(attempts: IcebergFile[][]): Promise<void> {
  for (const files of attempts) for (const f of files) await f.store.delete(f.key);
}

export interface PrepareAppendOptions {
  /** Extra snapshot summary properties, as pyiceberg's `append(df, snapshot_properties=…)`. */
  snapshotProperties?: Record<string, string>;
}

/**
 * Writes the data file now (Parquet with field ids, from `sources`) and returns the commit step, so
 * several processes can each load and write, wait at a barrier, and then commit.
 */
export async function prepareIcebergAppend(
  table: IcebergTable,
  sources: string[],
  options: PrepareAppendOptions = {},
): Promise<PreparedAppend> {
  const dataFile = await withConnection((c) =>
    writeDataFile(c, {
      schema: currentSchema(table.metadata),
      // pyiceberg honours write.data.path, else `<location>/data`.
      dataDir: table.metadata.properties['write.data.path'] ?? joinLocation(table.metadata.location, 'data'),
      sources,
      resolvePath: table.catalog.resolvePath,
    }),
  );
  const snapshotId = newSnapshotId();
  let used = false;
  return {
    dataFile,
    snapshotId: String(snapshotId),
    async commit(opts: AppendCommitOptions = {}): Promise<AppendResult> {
      // pyiceberg marks a failed transaction unusable; we refuse any second commit of the same append.
      if (used) throw new Error('This append was already committed (or failed); prepare a new one');
      used = true;
      const policy = retryPolicyFrom(table.metadata.properties);
      const written: IcebergFile[][] = [];
      let current = table;
      const outcome = await withCommitRetry(
        policy,
        {
          attempt: async () => {
            const staged = await stageAppend(
              table.catalog,
              current.metadata,
              snapshotId,
              dataFile,
              options.snapshotProperties ?? {},
            );
            written.push(staged.written);
            const done = await commitTable(table.catalog, table.identifier, staged, { beforeSwap: opts.beforeSwap });
            await removeFiles(written.slice(0, -1));
            return done.metadataLocation;
          },
          refresh: async () => {
            const fresh = await loadTable(table.catalog, table.identifier);
            if (fresh.metadata['table-uuid'] !== table.metadata['table-uuid']) {
              throw new Error(
                `Table UUID does not match: current=${table.metadata['table-uuid']} != refreshed=${fresh.metadata['table-uuid']}`,
              );
            }
            current = fresh;
            return fresh.metadata.snapshots.some((s) => s['snapshot-id'] === snapshotId)
              ? fresh.metadataLocation
              : null;
          },
          onGiveUp: async () => {
            await removeFiles(written);
          },
        },
        opts,
      );
      return {
        snapshotId: String(snapshotId),
        attempts: outcome.attempts,
        warnings: outcome.warnings,
        metadataLocation: outcome.result,
      };
    },
  };
}

/** Load, write and commit in one go (e.g. the lab's base table: the Jan 15 trips). */
export async function appendParquetToIcebergTable(
  catalog: IcebergCatalog,
  id: string,
  sources: string[],
  opts: AppendCommitOptions = {},
): Promise<AppendResult> {
  const table = await loadTable(catalog, id);
  const prepared = await prepareIcebergAppend(table, sources);
  return prepared.commit(opts);
}
