/**
 * The lesson's cases as inputs only: the table, its properties, the writers and what each does,
 * and the order some must wait for. What happens is never written here: outcomes emerge from the
 * engine's rules when the writers run. (Expected outcomes live in the tests and the report checker.)
 */

export type FebDay = '2025-02-01' | '2025-02-02' | '2025-02-14';

/**
 * Rows a writer adds to a table that has no lab February days: a Parquet file (a resolved path under the
 * roots), or `sample` rows of the table's own current version (the lab writes them to a file once per race,
 * before any run, so every run and every replay adds the same rows).
 */
export type RowsFrom = { file: string } | { sample: number };

export type WriterOperation =
  /** Append one February day; `blind` marks the commit `isBlindAppend: true` through commit metadata. */
  | { kind: 'append'; day: FebDay; blind?: boolean }
  /** Append rows from a file or a sample of the table (any table). */
  | { kind: 'append'; from: RowsFrom; blind?: boolean }
  | { kind: 'update'; predicate: string; set: Record<string, string> }
  | { kind: 'delete'; predicate: string }
  | { kind: 'optimize' }
  /** The lesson's E1 job: count the day's trips in the table as opened; append the day only if none. */
  | { kind: 'check-then-append'; day: FebDay }
  /** E1's job on any table: count the rows matching `predicate`; append `from` only if none. */
  | { kind: 'check-then-append'; predicate: string; from: RowsFrom }
  /** Overwrite with a predicate: replace every trip picked up on `day` with that day's trips. */
  | { kind: 'overwrite-day'; day: FebDay }
  /** Overwrite with a predicate on any table: replace the rows matching `predicate` with `from`'s rows. */
  | { kind: 'overwrite'; predicate: string; from: RowsFrom }
  /**
   * A team's own job: its program and arguments, run in `cwd` on a full copy of the table (runner/job-command.ts).
   * Once a case is checked (cases/job-roots.ts) the program, its script and `cwd` are absolute paths.
   */
  | { kind: 'command'; command: string[]; cwd?: string };

export interface WriterSpec {
  name: string;
  operation: WriterOperation;
  /** delta-rs `max_commit_retries` (default 15). */
  maxCommitRetries?: number;
  /** Application-level loop: catch CommitFailedError, reopen the table, redo the whole change, up to this many tries. */
  retryLoop?: number;
  /** Start only after this writer has committed (or given up), instead of at the barrier. */
  startAfter?: string;
  /**
   * A fault, given to this writer's store only (the engine's LostAnswerStore): the first log entry its commit
   * lands has its answer lost, as a connection closed before the answer (object_store resends the put) or a
   * timeout (object_store gives up; the error reaches the writer).
   */
  lostAnswer?: 'connection-closed' | 'timeout';
  /** This engine's option, not delta-rs's: a taken version holding the commit's own bytes is its commit. */
  recogniseOwnCommit?: boolean;
  /** What the retry loop catches: CommitFailedError (the default), or any error (a job runner redoing a failed job). */
  retryOn?: 'commit-failed' | 'any-error';
  /**
   * An application transaction: each commit carries txn(appId, version), and each try first reads the table's
   * last version for appId and skips a batch already committed.
   */
  txn?: { appId: string; version: number };
}

/** A table of the user's own, raced on copies: `path` resolved by locations.ts, `display` as the user named it. */
export interface TableAt {
  location: string;
  display: string;
}

export interface DeltaCase {
  id: string;
  title: string;
  format: 'delta';
  /** One of the lab's base tables, or a table of the user's own (each run races a fresh copy of it). */
  table: 'flat' | 'partitioned' | TableAt;
  /** Table properties of the run's copy, e.g. `delta.isolationLevel`. */
  properties?: Record<string, string>;
  writers: WriterSpec[];
  /**
   * The suite that runs the case: it runs only when named (`npm run lab -- H1 …`), never in the default lab
   * (`npm run lab` with no ids, the full-lab runs, their 8-minute budget). `s3-lying-store`: a race meant for a
   * store set up for it (an S3 endpoint its test gives, `npm run test:s3`).
   */
  suite?: 's3-lying-store' | 'ambiguous-commits';
}

export interface PostgresCase {
  id: string;
  title: string;
  format: 'postgres';
  isolation: 'read committed' | 'repeatable read';
  vendorA: number;
  vendorB: number;
}

/** The Iceberg contrast: appends to a table of the 2025-01-15 trips through a SQLite SQL catalog. */
export interface IcebergCase {
  id: string;
  title: string;
  format: 'iceberg';
  /** Table properties, e.g. `commit.retry.num-retries`. */
  properties?: Record<string, string>;
  writers: WriterSpec[];
}

export type LabCase = DeltaCase | PostgresCase | IcebergCase;

/** A case's table format: which folder of formats/ runs it (see formats/registry.ts). */
export type TableFormatId = LabCase['format'];

const tipUpdate = (vendor: number): WriterSpec => ({
  name: `vendor${vendor}`,
  operation: { kind: 'update', predicate: `VendorID = ${vendor}`, set: { tip_amount: 'tip_amount + 1' } },
});
const append = (name: string, day: FebDay, extra: Partial<WriterSpec> = {}): WriterSpec => ({
  name,
  operation: { kind: 'append', day },
  ...extra,
});
const compact: WriterSpec = { name: 'compact', operation: { kind: 'optimize' } };

/** I1–I6: an append (blind or not) commits, then an update of VendorID 2 that read version 0. */
function isolationCase(id: string, level: string | null, blind: boolean): DeltaCase {
  return {
    id,
    title: `delta.isolationLevel ${level === null ? 'unset' : `'${level}'`}, append ${blind ? '' : 'not '}marked blind, then an update that read v0`,
    format: 'delta',
    table: 'flat',
    ...(level !== null && { properties: { 'delta.isolationLevel': level } }),
    writers: [
      { name: 'append', operation: { kind: 'append', day: '2025-02-01', blind } },
      { ...tipUpdate(2), startAfter: 'append' },
    ],
  };
}

export const CASES: LabCase[] = [
  {
    id: 'A1',
    title: 'two appends (Feb 1, Feb 2), library retries on',
    format: 'delta',
    table: 'flat',
    writers: [append('feb01', '2025-02-01'), append('feb02', '2025-02-02')],
  },
  {
    id: 'A2',
    title: 'two appends, max commit retries 0',
    format: 'delta',
    table: 'flat',
    writers: [
      append('feb01', '2025-02-01', { maxCommitRetries: 0 }),
      append('feb02', '2025-02-02', { maxCommitRetries: 0 }),
    ],
  },
  {
    id: 'B1',
    title: 'update tip+1 where VendorID=1 ‖ VendorID=2, flat table',
    format: 'delta',
    table: 'flat',
    writers: [tipUpdate(1), tipUpdate(2)],
  },
  {
    id: 'B2',
    title: 'delete fare_amount<0 ‖ delete trip_distance=0, flat table',
    format: 'delta',
    table: 'flat',
    writers: [
      { name: 'fare', operation: { kind: 'delete', predicate: 'fare_amount < 0' } },
      { name: 'distance', operation: { kind: 'delete', predicate: 'trip_distance = 0' } },
    ],
  },
  {
    id: 'B3',
    title: "B1's two updates on the copy partitioned by VendorID",
    format: 'delta',
    table: 'partitioned',
    writers: [tipUpdate(1), tipUpdate(2)],
  },
  {
    id: 'C1',
    title: 'optimize.compact ‖ update VendorID=2, started together',
    format: 'delta',
    table: 'flat',
    writers: [compact, tipUpdate(2)],
  },
  {
    id: 'C2',
    title: 'compaction commits first, then the update',
    format: 'delta',
    table: 'flat',
    writers: [compact, { ...tipUpdate(2), startAfter: 'compact' }],
  },
  {
    id: 'C3',
    title: 'update commits first, then the compaction',
    format: 'delta',
    table: 'flat',
    writers: [tipUpdate(2), { ...compact, startAfter: 'vendor2' }],
  },
  isolationCase('I1', null, false),
  isolationCase('I2', 'WriteSerializable', false),
  isolationCase('I3', null, true),
  isolationCase('I4', 'WriteSerializable', true),
  isolationCase('I5', 'writeSerializable', true),
  isolationCase('I6', 'writeSerializable', false),
  {
    id: 'D1',
    title: 'four updates (VendorID 1, 2, 6, 7) with an application retry loop of up to 10 tries',
    format: 'delta',
    table: 'flat',
    writers: [1, 2, 6, 7].map((v) => ({ ...tipUpdate(v), retryLoop: 10 })),
  },
  {
    id: 'E1',
    title: "'if no trips for 2025-02-14, append them', two jobs at once",
    format: 'delta',
    table: 'flat',
    writers: ['job1', 'job2'].map((name) => ({ name, operation: { kind: 'check-then-append', day: '2025-02-14' } })),
  },
  {
    id: 'E2',
    title: "overwrite with predicate 'pickup date = 2025-02-14' and a retry loop, two jobs",
    format: 'delta',
    table: 'flat',
    writers: ['job1', 'job2'].map((name) => ({
      name,
      operation: { kind: 'overwrite-day', day: '2025-02-14' },
      retryLoop: 10,
    })),
  },
  {
    id: 'F1',
    title: 'Iceberg: two appends (Feb 1, Feb 2) on the 2025-01-15 table, SQL catalog, default retries',
    format: 'iceberg',
    writers: [append('feb01', '2025-02-01'), append('feb02', '2025-02-02')],
  },
  {
    id: 'F2',
    title: 'Iceberg: the same with commit.retry.num-retries = 0; the second commits after the first',
    format: 'iceberg',
    properties: { 'commit.retry.num-retries': '0' },
    writers: [append('feb01', '2025-02-01'), append('feb02', '2025-02-02', { startAfter: 'feb01' })],
  },
  {
    id: 'P1',
    title: 'Postgres: A updates VendorID 1 and holds; B updates VendorID 2',
    format: 'postgres',
    isolation: 'read committed',
    vendorA: 1,
    vendorB: 2,
  },
  {
    id: 'P2',
    title: 'Postgres: both update VendorID 2, READ COMMITTED',
    format: 'postgres',
    isolation: 'read committed',
    vendorA: 2,
    vendorB: 2,
  },
  {
    id: 'P3',
    title: 'Postgres: both update VendorID 2, REPEATABLE READ',
    format: 'postgres',
    isolation: 'repeatable read',
    vendorA: 2,
    vendorB: 2,
  },
  {
    id: 'H1',
    title: 'two appenders, A1-shaped: appends of Feb 1 and Feb 2 on the flat table, library retries on',
    format: 'delta',
    table: 'flat',
    writers: [append('feb01', '2025-02-01'), append('feb02', '2025-02-02')],
    suite: 's3-lying-store',
  },
  {
    id: 'G1',
    title: "appends whose commit answer is lost (connection closed): delta-rs's default, then own-bytes recognition",
    format: 'delta',
    table: 'flat',
    writers: [
      append('default', '2025-02-01', { lostAnswer: 'connection-closed' }),
      append('own-bytes', '2025-02-02', {
        lostAnswer: 'connection-closed',
        recogniseOwnCommit: true,
        startAfter: 'default',
      }),
    ],
    suite: 'ambiguous-commits',
  },
  {
    id: 'G2',
    title: "the Feb 14 job's commit answer lost (timeout); the job is run again, without a txn",
    format: 'delta',
    table: 'flat',
    writers: [append('job', '2025-02-14', { lostAnswer: 'timeout', retryLoop: 3, retryOn: 'any-error' })],
    suite: 'ambiguous-commits',
  },
  {
    id: 'G3',
    title: "G2's job with an application transaction (txn appId 'daily-2025-02-14', version 1)",
    format: 'delta',
    table: 'flat',
    writers: [
      append('job', '2025-02-14', {
        lostAnswer: 'timeout',
        retryLoop: 3,
        retryOn: 'any-error',
        txn: { appId: 'daily-2025-02-14', version: 1 },
      }),
    ],
    suite: 'ambiguous-commits',
  },
];
