/**
 * What a table's own log says happened: each commit as evidence (who wrote it, what it read, what it was
 * concurrent with and how we know), the commits re-judged under every writer library and isolation level, keys
 * present more than once and the commits that added them, and the findings. The CLI's `--json`, the API's
 * `tableHistory` and the /history page all show this one shape (contracts/table-history.schema.json).
 */

/** How a commit's concurrency is known: its `readVersion` recorded, inferred from its timing, or not at all. */
export type ConcurrencyEvidence = 'recorded' | 'inferred' | 'unknown';

/** Who made a commit, as its commitInfo and txn actions say. */
export interface HistoryWriter {
  /** The writer library, when commitInfo names one: delta-rs, delta-spark, databricks; else null. */
  library: string | null;
  /** Its version as recorded (`clientVersion`, or from `engineInfo`). */
  version: string | null;
  /** commitInfo's `engineInfo` as written. */
  engineInfo: string | null;
  /** The job or app that made it: a `txn` action's appId, or commitInfo's job/notebook/cluster ids. */
  appId: string | null;
  /** commitInfo's `userMetadata`, as written. */
  userMetadata: string | null;
}

export interface HistoryCommit {
  version: number;
  /** commitInfo's `timestamp`, ms since the epoch; null when absent. */
  timestamp: number | null;
  /** When the commit's work started: `timestamp − operationMetrics.execution_time_ms`, when both are there. */
  startedAt: number | null;
  operation: string | null;
  /** The read predicate of an UPDATE, DELETE or MERGE (operationParameters), as recorded. */
  predicate: string | null;
  readVersion: number | null;
  /** commitInfo's `isolationLevel`, as recorded. */
  isolationLevel: string | null;
  isBlindAppend: boolean | null;
  /** The table's `delta.isolationLevel` in force when the commit was made (its read version's, else the one before it). */
  isolationProperty: string | null;
  writer: HistoryWriter;
  /** The versions that landed between this commit's read and its own landing. */
  concurrentWith: number[];
  evidence: ConcurrencyEvidence;
  /** Files the commit added and removed. */
  adds: number;
  removes: number;
}
