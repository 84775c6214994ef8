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

/** One library's answer for one re-judged commit: would its checker have let the commit through? */
export interface HistoryVerdict {
  /** delta-rs (1.2–1.6.x), delta-rs-legacy (≤ 1.1.4), delta-spark, databricks. */
  library: string;
  /**
   * The level judged under. Among a rejudgement's `asConfigured`, the level this library reads from the table's
   * property in force; null there when the library cannot read it (Delta Spark then fails every commit).
   */
  level: string | null;
  commits: boolean;
  /** The first refusal, against the first winner that refuses it; null when it commits. */
  conflict: {
    kind: string;
    check: string;
    /** The winning commit that refuses it; null when it fails before meeting any (an unreadable level). */
    winnerVersion: number | null;
    message: string;
  } | null;
}

/** A concurrent commit judged again from the log: against the commits it was concurrent with, by every checker. */
export interface Rejudgement {
  version: number;
  /** The version it read: its recorded `readVersion`, else the one before the first commit it overlapped. */
  readVersion: number;
  evidence: ConcurrencyEvidence;
  /** The winners it was judged against, in order (its `concurrentWith`). */
  winners: number[];
  /** Why the log cannot support a judgement (no predicate recorded, one that does not parse …); null when judged. */
  cannotJudge: string | null;
  /** The library its writer was judged as (from commitInfo); null when the log does not say. */
  library: string | null;
  /** What each library would have done under the table's property in force, as that library reads it. */
  asConfigured: HistoryVerdict[];
  /** Every library under every level: Serializable, WriteSerializable, SnapshotIsolation. */
  verdicts: HistoryVerdict[];
  /**
   * Its own library's checker, under the property in force, lets it through, as the log shows it was: true; false
   * when the checker would have refused it (the overlap was a redo, or the writer is not the library it says);
   * null when not judged or the library is unknown.
   */
  agreesWithLog: boolean | null;
}

/** A commit that added rows of a duplicated key. */
export interface DuplicateSource {
  version: number;
  /** Rows of the key in the files this commit added. */
  rows: number;
  operation: string | null;
  writer: HistoryWriter | null;
}

/** A key present more than once in the snapshot, and the commits whose files hold its rows. */
export interface DuplicateKey {
  /** Column → value, rendered as text (null for SQL NULL). */
  key: Record<string, string | null>;
  count: number;
  /** Versions in ascending order; a file added before the oldest commit read has version null there. */
  addedBy: (DuplicateSource | { version: null; rows: number; operation: null; writer: null })[];
  /** Two of the commits that added its rows were concurrent (one landed between the other's read and its commit). */
  concurrent: boolean;
}

/** Keys present more than once, listed up to a bound. */
export interface DuplicateKeys {
  columns: string[];
  /** The snapshot searched. */
  atVersion: number;
  /** Distinct keys present more than once (all of them, listed or not). */
  distinct: number;
  /** The most repeated keys first, up to `limit`. */
  keys: DuplicateKey[];
  limit: number;
}
