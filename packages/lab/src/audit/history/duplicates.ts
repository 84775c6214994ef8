/**
 * Keys present more than once in a snapshot, and the commits that added their rows, found with DuckDB under
 * bounds. Placeholder with the agreed signature: the search itself is written beside it and replaces this body.
 */
import type { Action, DeltaTable } from '@racelab/engine';
import type { DuplicateKeys, HistoryCommit, HistoryFinding } from './types';

export interface DuplicateOptions {
  /** The commits read, for each adding commit's writer and concurrency. */
  commits: HistoryCommit[];
  /** A commit's actions, read again from the log (which commit added a file). */
  readActions(version: number): Promise<Action[]>;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** Duplicated keys listed at most (the count covers them all). */
  maxKeys?: number;
}

export interface DuplicateResult {
  duplicates: DuplicateKeys;
  findings: HistoryFinding[];
}

/** `table` is opened at the version to search (the latest, or `--at-version`). */
export async function duplicateKeys(table: DeltaTable, key: string[], _o: DuplicateOptions): Promise<DuplicateResult> {
  return { duplicates: { key, atVersion: table.version, distinct: 0, keys: [], truncated: false }, findings: [] };
}
