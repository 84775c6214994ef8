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
  /**
   * recorded: from `readVersion` (or version 0, before which nothing landed); inferred: from `timestamp −
   * execution_time_ms`, the commits with a lower version stamped at or after that start; unknown: neither.
   */
  evidence: ConcurrencyEvidence;
  /** Files the commit added and removed. */
  adds: number;
  removes: number;
}

export type HistorySeverity = 'error' | 'warning' | 'info';

/** One thing the log shows (or fails to show), with the versions it rests on and what to do about it. */
export interface HistoryFinding {
  /** Stable id of the rule, e.g. 'log-gap', 'landed-only-under-write-serializable'. */
  rule: string;
  severity: HistorySeverity;
  /** The commits it is about (empty when it is about the log as a whole). */
  versions: number[];
  /** What was seen, with the figures or the file it rests on. */
  evidence: string;
  fix: string;
}

/** What one library would have done with a commit under one isolation level, judged again from the log. */
export interface LibraryJudgement {
  /** delta-rs (1.2–1.6.x), delta-rs-legacy (≤ 1.1.4), delta-spark, databricks. */
  library: string;
  /** Serializable, WriteSerializable, SnapshotIsolation. */
  level: string;
  outcome: 'commit' | 'conflict' | 'cannot-judge';
  /** The conflict's kind, or why it cannot be judged; null for a commit. */
  conflict: string | null;
  message: string | null;
}

/** A concurrent commit re-judged: every library's and level's outcome, or why it cannot be judged at all. */
export interface Rejudgement {
  version: number;
  judgements: LibraryJudgement[];
  /** Why the log lacks what any judgement needs (no predicate recorded, a winner's adds without stats…); else null. */
  cannotJudge: string | null;
}

/** A commit that added rows of a duplicated key. */
export interface DuplicateSource {
  version: number;
  rows: number;
  writer: HistoryWriter;
  /** Whether this commit was concurrent with another commit that added the same key. */
  concurrent: boolean;
}

export interface DuplicateKey {
  /** The key's values, by column. */
  values: Record<string, string | number | boolean | null>;
  /** Rows holding it. */
  count: number;
  addedBy: DuplicateSource[];
}

/** Keys present more than once in the snapshot read (the latest, or `atVersion`). */
export interface DuplicateKeys {
  key: string[];
  atVersion: number;
  /** Distinct keys present more than once. */
  distinct: number;
  /** The keys listed (the first ones, up to the bound). */
  keys: DuplicateKey[];
  /** True when more keys were found than are listed. */
  truncated: boolean;
}

/** When the contention happened: the hour (UTC) with the most concurrent commits. */
export interface BusiestHour {
  /** The hour's start, ISO 8601. */
  start: string;
  commits: number;
  concurrentCommits: number;
}

export interface HistorySummary {
  /** Commits read. */
  commits: number;
  /** Distinct writers (library, version and app id). */
  writers: number;
  /** Commits concurrent with at least one other, from recorded or inferred evidence. */
  concurrentCommits: number;
  /** Of those, the ones whose overlap was inferred from timing. */
  inferredConcurrentCommits: number;
  /** Commits with neither readVersion nor timing: not known to be safe. */
  unknownConcurrency: number;
  /** The most consecutive versions each concurrent with the one before it (1 when none were; 0 with no commit). */
  longestConcurrentChain: number;
  /** Commits per hour over the span between the first and last timestamp read; null with fewer than two. */
  commitsPerHour: number | null;
  busiestHour: BusiestHour | null;
  /** Distinct keys present more than once; null without `--key`. */
  duplicateKeys: number | null;
}

/** What the history audit read, from where to where. */
export interface HistoryRange {
  /** The oldest version read; earlier ones were cleaned up, or are before `since`. */
  fromVersion: number;
  latestVersion: number;
  /** The oldest commit file the log keeps (older ones are only in a checkpoint). */
  oldestKept: number;
  /** `since` as an ISO timestamp, when given. */
  since: string | null;
}

export interface TableHistory {
  /** The table as it was named (an alias, a path as given, an s3:// URL): never a server folder. */
  location: string;
  range: HistoryRange;
  commits: HistoryCommit[];
  rejudgements: Rejudgement[];
  duplicates: DuplicateKeys | null;
  findings: HistoryFinding[];
  summary: HistorySummary;
  /** Some finding is an error (the CLI exits 1). */
  failed: boolean;
}
