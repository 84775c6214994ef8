/**
 * @racelab/engine/conflict: the engine's pure half, safe for the browser (everything here comes from kernel/,
 * which has no `node:` imports and no DuckDB): the expression parser and stats pruning, the conflict checkers
 * (delta-rs's, and the Delta Spark / Databricks model behind `checkerFor`), the isolation-level parsing and
 * per-engine interpretation, the one retry policy, and the one conflict simulation (kernel/simulation/) that
 * every forecast runs, in the lab, the API and the browser alike.
 */

export * from './kernel/conflict/conflict-checker';
export { CommitFailedError, type CommitFailureKind, conflictError } from './kernel/conflict/errors';
export * from './kernel/conflict/isolation';
export * from './kernel/conflict/isolation-spelling';
export * from './kernel/conflict/library-checkers';
export * from './kernel/conflict/spark-conflict-checker';
export * from './kernel/conflict/spark-errors';
export * from './kernel/conflict/writer-libraries';
export { compactionBins } from './kernel/delta/compaction-bins';
export type { Action, Add, CommitInfo, Metadata, Protocol, Remove, Txn } from './kernel/delta/protocol/actions';
export { DEFAULT_TARGET_FILE_SIZE, targetFileSize } from './kernel/delta/protocol/config';
export type { DeltaType, StructField, StructType } from './kernel/delta/protocol/schema';
export { type FileStats, parseStats } from './kernel/delta/protocol/stats';
export {
  type Backoff,
  backoffPause,
  DEFAULT_MAX_RETRIES,
  JITTERS,
  type RetryPolicy,
  seededRandom,
} from './kernel/retry/policy';
export * from './kernel/simulation/index';
export * from './kernel/sql/index';
export { nearestRank, type Quantiles, quantileSampler, quantilesOf } from './kernel/statistics/quantiles';
