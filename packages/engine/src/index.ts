/**
 * @racelab/engine: Delta Lake tables written the way delta-rs 1.6.x writes them, and Iceberg tables the way
 * pyiceberg does. The pure half (expressions, pruning, conflict checkers, isolation parsing, the retry policy, the
 * simulations) is also exported on its own as `@racelab/engine/conflict`, for the browser.
 *
 * Layers (src/README.md): `kernel/` is pure (no I/O: it bundles for the browser) and imports only itself;
 * `ops/` does the work (DuckDB, Parquet, the Delta and Iceberg operations) and imports `storage/` and `kernel/`;
 * `storage/` holds the ObjectStore handlers, knows nothing of Delta or Iceberg, and imports only itself and pure
 * helpers of `kernel/`. No folder imports one that imports it back.
 */
export * from './conflict';
export { type DvSource, dvSource } from './kernel/delta/dv/descriptor';
export { DeletionVectorError } from './kernel/delta/dv/errors';
export * from './kernel/delta/protocol/actions';
export { ColumnMappingError, type ColumnMappingMode } from './kernel/delta/protocol/column-mapping';
export { checkpointInterval } from './kernel/delta/protocol/config';
export { assertCanWrite, protocolForSchema } from './kernel/delta/protocol/features';
export * from './kernel/delta/protocol/schema';
export { buildStats, statsColumns } from './kernel/delta/protocol/stats';
export { UnsupportedFeatureError } from './kernel/delta/protocol/unsupported';
export {
  LogFormatError,
  parseCommitText,
  validateAction,
  validateCommitActions,
} from './kernel/delta/protocol/validate';
export {
  type CommitRequest,
  type CommitResult,
  commit,
  latestVersion,
} from './ops/delta/commit/commit';
export { buildCommitInfo, CommitPropertiesError, ENGINE_INFO } from './ops/delta/commit/commit-info';
export {
  type AttemptFailure,
  type CommitOptions,
  removeFor,
  Transaction,
  type TransactionSpec,
} from './ops/delta/commit/transaction';
export { type DvFileLocation, dvFileLocation } from './ops/delta/dv/locate';
export { readDeletionVector } from './ops/delta/dv/read';
export { writeCheckpoint } from './ops/delta/log/checkpoint';
export { CHECKPOINT_CACHE_ENV, defaultCheckpointCacheDir } from './ops/delta/log/checkpoint-cache';
export {
  commitKey,
  LOG_DIR,
  listLog,
  NotATableError,
  type NotATableFound,
  notATableWords,
} from './ops/delta/log/listing';
export {
  AnswerLostError,
  LOST_ANSWERS,
  type LostAnswer,
  type LostAnswerEvent,
  LostAnswerStore,
} from './ops/delta/log/lost-answer-store';
export {
  type LoadedState,
  type LoadOptions,
  loadState,
  readCommit,
  VersionNotFoundError,
} from './ops/delta/log/snapshot';
export { deleteRows, prepareDelete } from './ops/delta/operations/delete';
export { MergeError, type MergeSpec, merge, prepareMerge } from './ops/delta/operations/merge';
export { type OptimizeOptions, optimize, prepareOptimize } from './ops/delta/operations/optimize';
export {
  type CommitHooks,
  commitPrepared,
  type OperationResult,
  type OperationSummary,
  PreparedOperation,
} from './ops/delta/operations/prepared';
export { type FileMatch, matchingFiles } from './ops/delta/operations/rewrite';
export { prepareUpdate, type UpdateSpec, update } from './ops/delta/operations/update';
export { type VacuumOptions, type VacuumResult, VacuumRetentionError, vacuum } from './ops/delta/operations/vacuum';
export {
  newTableMetadata,
  PredicateViolationError,
  prepareWrite,
  TableExistsError,
  type WriteMode,
  type WriteOptions,
  type WriteResult,
  writeDeltaTable,
} from './ops/delta/operations/write';
export { DataFileMissingError } from './ops/delta/read/scan';
export { DeltaTable, type OpenOptions, storeFor, type TableLocation } from './ops/delta/table';
export * from './ops/iceberg/index';
export { fromLogPath, toLogPath } from './ops/parquet/data-file-paths';
export { configureDuck, withConnection } from './ops/parquet/duck';
export { checkExpressionRuns, type RunCheckOptions } from './ops/parquet/expression-check';
export { type DataSource, SchemaMismatchError } from './ops/parquet/source';
export { LocalObjectStore } from './storage/local-store';
export { NotFoundError, type ObjectStore, PathRefusedError, StorageError } from './storage/object-store';
export * from './storage/probe/index';
export { LEAN_ENV } from './storage/s3-lean';
export {
  CONFLICT_RETRIES,
  isS3Url,
  parseS3Url,
  type S3Location,
  S3ObjectStore,
  s3ConfigFromEnv,
} from './storage/s3-store';
export { type LeftoverKind, leftoverKind } from './storage/staging';
