/**
 * The lab's results file: `contracts/lab-results.schema.json` (generated from @racelab/contracts), extended (never contradicted).
 * The runner writes it and the report checker reads it; these types are all the two share.
 */

import type { WriterOutcomeKind, WriterRun } from '@racelab/contracts';

export type DataSourceKind = 'synthetic' | 'tlc';

export interface LabResults {
  createdAt: string;
  scale: number;
  dataSource: DataSourceKind;
  /** node, engine, duckdb, postgres server, … */
  versions: Record<string, string>;
  /**
   * Extension: the folder holding the data set the runs used (january.parquet, feb-YYYY-MM-DD.parquet);
   * in a results file, relative to the file's folder.
   */
  dataDir: string;
  cases: CaseResult[];
}

export interface CaseResult {
  id: string;
  /** Extension: the case's one-line title. */
  title?: string;
  runs: RunResult[];
}

export interface AttemptError {
  attempt: number;
  errorClass: string;
  errorMessage: string;
  /** Extension: the table version that attempt had read. */
  readVersion?: number | null;
}

export interface WriterTimings {
  /** Milliseconds from the run's start: table opened, data prepared, released at the barrier, done. */
  opened: number;
  prepared: number;
  released: number;
  finished: number;
}

export interface WriterResult {
  name: string;
  /** append, update, delete, overwrite, merge, optimize, check-then-append, iceberg-append, postgres-update */
  operation: string;
  committed: boolean;
  /**
   * Extension: committed, failed, or nothing-to-commit (it ended without an error and wrote nothing: a delete or
   * update that matched no rows, a check that found its rows, a compaction with nothing to compact). Read with
   * writerOutcomeOf, which derives it from the other fields where a file lacks it.
   */
  outcome?: WriterOutcomeKind;
  /** Delta table version it committed, else null. */
  version: number | null;
  /** How many times the writer ran its whole change (the application loop's count; 1 without one). */
  attempts: number;
  /** Versions the library found taken and moved past inside the final attempt. */
  commitRetries: number | null;
  attemptErrors: AttemptError[];
  waitedOnLock: boolean | null;
  warnings: string[];
  errorClass: string | null;
  errorMessage: string | null;
  /** Extension: the version the writer read (held from before the barrier). */
  readVersion?: number | null;
  timings?: WriterTimings;
  /** Extension: data files the writer wrote (its zombies too, when it lost) and their bytes. */
  filesWritten?: number;
  bytesWritten?: number;
  /** Extension: the writer process's peak resident memory, MB. */
  peakRssMb?: number;
  /** Extension: host:pid of the process that ran the writer, when its race spanned hosts. */
  host?: string;
  /** Extension: the final commit's removes and adds (E2's retried job: 1 and 1). */
  filesRemoved?: number;
  filesAdded?: number;
  /** Extension: what the writer's check saw (E1: trips already there for its day). */
  observed?: Record<string, number>;
  /** Extension: the library that ran the writer's change, named as the engine names libraries (e.g. delta-rs). */
  library?: string;
  /** Extension: that library's version (a real one's own, e.g. 1.6.6; the engine's for an emulated writer). */
  libraryVersion?: string;
  /** Extension: real (the library itself ran) or emulated (the engine ran the change as the library would). */
  run?: WriterRun;
  /**
   * Extension: what a real writer's program printed (stdout and stderr, its end when long), kept when it ended
   * without a result. For people reading the results file: it may hold paths and tracebacks.
   */
  log?: string;
}

export interface TableCheck {
  version: number | null;
  rows: number;
  /** Lab tables only (null for a table of the user's own, whose rows need not have trip ids). */
  distinctTripIds: number | null;
  /**
   * Trips per pickup day, for the days the lab uses: 2025-01-15, 2025-02-01, 2025-02-02, 2025-02-14. Lab tables
   * only: absent for a table of the user's own (the contract reads an absent map as empty).
   */
  tripsOnDay?: Record<string, number>;
  /** Sum of (tip now − original tip) per VendorID, over January trips. Lab tables only, like tripsOnDay. */
  tipDeltaByVendor?: Record<string, number>;
  /** Extension: January trips per VendorID whose tip changed at all, and the distinct non-zero changes. */
  tipChangedByVendor?: Record<string, number>;
  tipDeltaValues?: number[];
  /** Extension: January trips per VendorID still in the table. */
  tripsByVendor?: Record<string, number>;
  dataFilesOnDisk: number | null;
  dataFilesInLog: number | null;
  /**
   * Extension: what writers killed at work left beside the table, which vacuum reclaims once older than the
   * retention: files under `_staging/`, and `_delta_log` files under a temporary name (`<name>#<owner>`).
   */
  stagingFilesOnDisk?: number;
  tempLogFilesOnDisk?: number;
}

/** A row that differs between the raced table and the serial replay, for people to look at. */
export interface VerdictExample {
  kind: 'duplicated' | 'missing' | 'extra';
  /** The row's columns as JSON values (dates and timestamps as ISO text). */
  row: Record<string, unknown>;
}

/** What a writer's replayed change did to the raced table, when the raced table is not the serial one. */
export interface VerdictWriter {
  name: string;
  /** Its change is absent from the raced table although it reported committed. */
  notApplied: boolean;
  /** Its change is in the raced table twice. */
  appliedTwice: boolean;
}

/** A writer that failed: what its change would have touched, left as it was. */
export interface FailedWriterCheck {
  name: string;
  /** Rows its change would have touched (a delete's or update's matches in the raced table; an append's rows). */
  rowsTouched: number;
  /** Whether those rows are as the writer found them (true: nothing of its change leaked in). */
  untouched: boolean;
  /** In words, e.g. "vendor7's delete failed: its 1,206 VendorID 7 rows are still there". */
  summary: string;
}

/** A writer that ended without an error and wrote nothing: "del1's delete matched no rows: nothing to commit". */
export interface NothingToCommitCheck {
  name: string;
  summary: string;
}

/**
 * Extension: the serial-replay oracle's answer for a run. The writers that reported committed are replayed
 * whole, one after another, on a fresh copy of the run's starting table, and the raced table is compared
 * with that serial result as a multiset of rows.
 */
export interface RunVerdict {
  /**
   * serializable: equal to the serial result in commit order; reordered: equal in another serial order
   * (what WriteSerializable permits), named in `order`; not-serializable: equal in no order tried.
   */
  status: 'serializable' | 'reordered' | 'not-serializable';
  /** The order replayed for `status`: commit order, or the other order that matched. */
  order: string[];
  /** The verdict in words a person reads at a glance. */
  summary: string;
  /** For not-serializable: rows the raced table has more often than the serial one (extra copies of a serial row). */
  rowsDuplicated?: number;
  /** Rows of the serial result missing from the raced table. */
  rowsMissing?: number;
  /** Rows of the raced table that the serial result has nowhere. */
  rowsExtra?: number;
  /** For not-serializable: each committed writer, whether its change is missing or doubled. */
  writers?: VerdictWriter[];
  /** A few rows that differ (at most 5 of each kind). */
  examples?: VerdictExample[];
  failedWriters: FailedWriterCheck[];
  /** Extension: writers that had nothing to commit (no failure: they are not among failedWriters). */
  nothingToCommit?: NothingToCommitCheck[];
  /** The oracle's own time, ms, kept out of the run's durationMs. */
  oracleMs: number;
}

export interface RunResult {
  index: number;
  writers: WriterResult[];
  table: TableCheck;
  /** Extension: did the table end as some serial order of the committed writers would leave it? */
  verdict?: RunVerdict;
  /** Extension: writer names in the order their commits landed (from the table's own log). */
  commitOrder?: string[];
  /** Extension: the run's wall time, ms. */
  durationMs?: number;
  /** Extension: each commit the race wrote, as parsed values (Delta cases; `npm run lab -- compare` reads them). */
  commits?: CommitSummary[];
}

/** A file a commit added or removed, without what differs between libraries by nature (name, size, time). */
export interface CommitFile {
  role: 'add' | 'remove' | 'cdc';
  partitionValues: Record<string, string | null>;
  /** From the action's `stats`; null without them. */
  numRecords: number | null;
  dataChange: boolean | null;
  /** The action carries a deletion vector. */
  deletionVector: boolean;
}

/** One commit of a run, as parsed values: its files by role, and commitInfo's fields that mean something. */
export interface CommitSummary {
  version: number;
  /** commitInfo's `writer` tag. */
  writer: string | null;
  operation: string | null;
  /** commitInfo.operationParameters, each value parsed where it is JSON text. */
  operationParameters: Record<string, unknown>;
  readVersion: number | null;
  isolationLevel: string | null;
  isBlindAppend: boolean | null;
  files: CommitFile[];
  /** The commit's other actions: `txn <appId> <version>`, or the action's kind (metaData, protocol, …). */
  otherActions: string[];
}
