/**
 * @racelab/engine: Delta Lake tables written the way delta-rs 1.6.x writes them.
 * The pure part (expressions, stats pruning; later the conflict checker) is also at `./conflict`.
 */
export { configureDuck, withConnection } from './data/duck';
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
  CONFLICT_MESSAGES,
  type Conflict,
  type ConflictCheck,
  type ConflictKind,
  canDowngradeToSnapshotIsolation,
  checkConflicts,
  checkWinner,
  filesMatchingPredicate,
  type TransactionReads,
  type WinningCommit,
} from './delta/commit/conflict-checker';
export { CommitFailedError, type CommitFailureKind, conflictError } from './delta/commit/errors';
export * from './delta/commit/isolation';
export { writeCheckpoint } from './delta/log/checkpoint';
export { commitKey, LOG_DIR, listLog, NotATableError } from './delta/log/listing';
export { type LoadedState, loadState, readCommit, VersionNotFoundError } from './delta/log/snapshot';
export {
  newTableMetadata,
  TableExistsError,
  type WriteMode,
  type WriteOptions,
  type WriteResult,
  writeDeltaTable,
} from './delta/ops/write';
export * from './delta/protocol/actions';
export { checkpointInterval, DEFAULT_TARGET_FILE_SIZE, targetFileSize } from './delta/protocol/config';
export { protocolForSchema, UnsupportedFeatureError } from './delta/protocol/features';
export * from './delta/protocol/schema';
export { buildStats, type FileStats, parseStats, statsColumns } from './delta/protocol/stats';
export { LogFormatError, parseCommitText, validateAction, validateCommitActions } from './delta/protocol/validate';
export { DeltaTable, type OpenOptions, storeFor, type TableLocation } from './delta/table';
export * from './sql/index';
export { LocalObjectStore } from './storage/local-store';
export { NotFoundError, type ObjectStore, StorageError } from './storage/object-store';
