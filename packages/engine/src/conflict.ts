/**
 * @racelab/engine/conflict: the engine's pure half, safe for the browser (no `node:` imports, no
 * DuckDB): the expression parser and stats pruning, the conflict checkers (delta-rs's, and the
 * Delta Spark / Databricks model behind `checkerFor`), the isolation-level
 * parsing and per-engine interpretation, and the one conflict simulation (simulation/) that every
 * forecast runs, in the lab, the API and the browser alike.
 */

export * from './delta/commit/conflict-checker';
export * from './delta/commit/engines';
export { CommitFailedError, type CommitFailureKind, conflictError } from './delta/commit/errors';
export * from './delta/commit/isolation';
export * from './delta/commit/spark-conflict-checker';
export * from './delta/commit/spark-errors';
export * from './delta/commit/spelling';
export { compactionBins } from './delta/ops/compaction-bins';
export type { Action, Add, CommitInfo, Metadata, Protocol, Remove, Txn } from './delta/protocol/actions';
export { DEFAULT_TARGET_FILE_SIZE, targetFileSize } from './delta/protocol/config';
export type { DeltaType, StructField, StructType } from './delta/protocol/schema';
export { type FileStats, parseStats } from './delta/protocol/stats';
export * from './simulation/index';
export * from './sql/index';
