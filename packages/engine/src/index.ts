/**
 * @racelab/engine: Delta Lake tables written the way delta-rs 1.6.x writes them. The pure half
 * (expressions, pruning, conflict checker, isolation parsing, the conflict simulation) is also exported
 * on its own as `@racelab/engine/conflict`, for the browser.
 */
export * from './conflict';
export { configureDuck, withConnection } from './data/duck';
export { checkExpressionRuns, type RunCheckOptions } from './data/expression-check';
export { fromLogPath, toLogPath } from './data/paths';
export { DataFileMissingError } from './data/scan';
export { type DataSource, SchemaMismatchError } from './data/source';
export {
  type CommitRequest,
  type CommitResult,
  commit,
  DEFAULT_MAX_RETRIES,
  latestVersion,
} from './delta/commit/commit';
export { buildCommitInfo, CommitPropertiesError, ENGINE_INFO } from './delta/commit/commit-info';
export {
  type AttemptFailure,
  type CommitOptions,
  removeFor,
  Transaction,
  type TransactionSpec,
} from './delta/commit/transaction';
export { type DvSource, dvSource } from './delta/dv/descriptor';
export { DeletionVectorError } from './delta/dv/errors';
export { readDeletionVector } from './delta/dv/read';
export { writeCheckpoint } from './delta/log/checkpoint';
export { CHECKPOINT_CACHE_ENV, defaultCheckpointCacheDir } from './delta/log/checkpoint-cache';
export { commitKey, LOG_DIR, listLog, NotATableError } from './delta/log/listing';
export { type LoadedState, type LoadOptions, loadState, readCommit, VersionNotFoundError } from './delta/log/snapshot';
export { deleteRows, prepareDelete } from './delta/ops/delete';
export { MergeError, type MergeSpec, merge, prepareMerge } from './delta/ops/merge';
export { type OptimizeOptions, optimize, prepareOptimize } from './delta/ops/optimize';
export {
  type CommitHooks,
  commitPrepared,
  type OperationResult,
  type OperationSummary,
  PreparedOperation,
} from './delta/ops/prepared';
export { type FileMatch, matchingFiles } from './delta/ops/rewrite';
export { prepareUpdate, type UpdateSpec, update } from './delta/ops/update';
export { type VacuumOptions, type VacuumResult, VacuumRetentionError, vacuum } from './delta/ops/vacuum';
export {
  newTableMetadata,
  PredicateViolationError,
  prepareWrite,
  TableExistsError,
  type WriteMode,
  type WriteOptions,
  type WriteResult,
  writeDeltaTable,
} from './delta/ops/write';
export * from './delta/protocol/actions';
export { ColumnMappingError, type ColumnMappingMode } from './delta/protocol/column-mapping';
export { checkpointInterval } from './delta/protocol/config';
export { assertCanWrite, protocolForSchema, UnsupportedFeatureError } from './delta/protocol/features';
export * from './delta/protocol/schema';
export { buildStats, statsColumns } from './delta/protocol/stats';
export { LogFormatError, parseCommitText, validateAction, validateCommitActions } from './delta/protocol/validate';
export { DeltaTable, type OpenOptions, storeFor, type TableLocation } from './delta/table';
export * from './iceberg/index';
export { LocalObjectStore } from './storage/local-store';
export {
  AnswerLostError,
  LOST_ANSWERS,
  type LostAnswer,
  type LostAnswerEvent,
  LostAnswerStore,
} from './storage/lost-answer-store';
export { NotFoundError, type ObjectStore, StorageError } from './storage/object-store';
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
