/**
 * Iceberg v2 on a pyiceberg-compatible SQL catalog (SQLite or Postgres): tables, fast appends with
 * pyiceberg 0.12.0's commit and retry behaviour, and scans. Every name carries "Iceberg" (or is
 * Iceberg-only) so `export * from './iceberg/index'` cannot clash with the Delta exports.
 */

export {
  backoffMs as icebergBackoffMs,
  type RetryHooks as IcebergRetryHooks,
  type RetryPolicy as IcebergRetryPolicy,
  retryPolicyFrom as icebergRetryPolicy,
  withCommitRetry as withIcebergCommitRetry,
} from '../../kernel/iceberg/commit-retry';
export {
  CommitFailedException,
  IcebergReadError,
  type IcebergSchema,
  NoSuchTableError as NoSuchIcebergTableError,
  type Snapshot as IcebergSnapshot,
  TableAlreadyExistsError as IcebergTableAlreadyExistsError,
  type TableIdentifier as IcebergTableIdentifier,
  type TableMetadata as IcebergTableMetadata,
} from '../../kernel/iceberg/types';
export {
  type AppendCommitOptions as IcebergAppendCommitOptions,
  type AppendResult as IcebergAppendResult,
  appendParquetToIcebergTable,
  type CreateTableOptions as CreateIcebergTableOptions,
  createIcebergTable,
  type PrepareAppendOptions as PrepareIcebergAppendOptions,
  type PreparedAppend as PreparedIcebergAppend,
  prepareIcebergAppend,
} from './append';
export {
  type IcebergCatalog,
  SqlCatalog as IcebergSqlCatalog,
  type SqlCatalogOptions as IcebergSqlCatalogOptions,
  type SqlDriver as IcebergSqlDriver,
} from './catalog';
export {
  commitTable as commitIcebergTable,
  type Requirement as IcebergRequirement,
  type Update as IcebergUpdate,
  validateRequirement as validateIcebergRequirement,
} from './commit';
export { readManifest as readIcebergManifest, readManifestList as readIcebergManifestList } from './manifest';
export {
  metadataVersion as icebergMetadataVersion,
  parseTableMetadata as parseIcebergTableMetadata,
  readTableMetadata as readIcebergTableMetadata,
  serializeTableMetadata as serializeIcebergTableMetadata,
  validateTableMetadata as validateIcebergTableMetadata,
} from './metadata';
export { defaultResolvePath as defaultIcebergPathResolver, type PathResolver as IcebergPathResolver } from './paths';
export { PostgresCatalog as IcebergPostgresCatalog } from './postgres-catalog';
export { type IcebergScan, icebergDataFiles, type ScannedDataFile as IcebergDataFile, scanIcebergTable } from './scan';
export { schemaFromFields as icebergSchemaFromFields } from './schema';
export { SqliteCatalog as IcebergSqliteCatalog } from './sqlite-catalog';
export { type IcebergTable, loadTable as loadIcebergTable, openIcebergTable } from './table';
