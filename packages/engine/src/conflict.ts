/**
 * @racelab/engine/conflict: the engine's pure half, safe for the browser (no `node:` imports, no
 * DuckDB): the expression parser and stats pruning.
 */

export type { Action, Add, CommitInfo, Metadata, Protocol, Remove, Txn } from './delta/protocol/actions';
export type { DeltaType, StructField, StructType } from './delta/protocol/schema';
export * from './sql/index';
