/**
 * The one conflict simulation on hand-built snapshots: per-file match counts decide which files a
 * winner rewrites, never min/max alone; the commit loop's retries and a writer's redo loop decide
 * how SECOND ends; FIRST's engine decides its commitInfo and each engine's checker judges SECOND.
 * (The lab's test/simulation-vs-lab.test.ts holds it against measured races.)
 */
import { describe, expect, it } from 'vitest';
import {
  type Add,
  type AppendedFile,
  type CheckedLibrary,
  CONFLICT_MESSAGES,
  compactionBins,
  type FileStats,
  factsNeeded,
  field,
  MODELLED_NOT_MEASURED,
  type SimulatedWriter,
  type SimulationFacts,
  SPARK_NOT_MEASURED,
  SPARK_RUN,
  type StructType,
  simulateConflict,
  type WriterChange,
} from '../src/index';
import { writerCommit } from '../src/kernel/simulation/simulated-writer';

const schema: StructType = {
  type: 'struct',
  fields: [
    field('VendorID', 'integer'),
    field('fare_amount', 'double'),
    field('trip_distance', 'double'),
    field('tip_amount', 'double'),
  ],
};
const protocol = { minReaderVersion: 1, minWriterVersion: 2 };
const ADDED = `Failed to commit transaction: ${CONFLICT_MESSAGES.ConcurrentAppend}`;
const DELETED_READ = `Failed to commit transaction: ${CONFLICT_MESSAGES.ConcurrentDeleteRead}`;

/** The lesson's flat layout: files 1–7 hold vendors 1, 2, 7; files 8–9 hold 1, 2, 6. */
const flat: Add[] = Array.from({ length: 9 }, (_, i) => {
  const stats: FileStats = {
    numRecords: 400_000,
    minValues: { VendorID: 1, fare_amount: -50, trip_distance: 0, tip_amount: 0 },
    maxValues: { VendorID: i < 7 ? 7 : 6, fare_amount: 500, trip_distance: 60, tip_amount: 90 },
    nullCount: { VendorID: 0, fare_amount: 0, trip_distance: 0, tip_amount: 0 },
  };
  return {
    path: `f${i + 1}.parquet`,
    partitionValues: {},
    size: 10_000_000,
    modificationTime: 0,
    dataChange: true,
    stats: JSON.stringify(stats),
  };
});
/** Rows of each vendor per file, as a layout query counts them. */
const perFile = (vendor: number) =>
  new Map(flat.map((f, i) => [f.path, vendor === 7 ? (i < 7 ? 170 : 0) : vendor === 6 ? (i < 7 ? 0 : 240) : 100_000]));
const everyFile = (n: number) => new Map(flat.map((f) => [f.path, n]));

/** February 1 as one appended file spanning every vendor. */
const FEB01: AppendedFile[] = [
  {
    partitionValues: {},
    stats: {
      numRecords: 1500,
      minValues: { VendorID: 1, fare_amount: 0, trip_distance: 0, tip_amount: 0 },
      maxValues: { VendorID: 7, fare_amount: 100, trip_distance: 30, tip_amount: 20 },
      nullCount: {},
    },
  },
];

/** Facts backed by fixed counts and append stats; a predicate not counted is refused, as the lab's and the browser's are. */
function factsOf(
  files: readonly Add[],
  counts: Record<string, ReadonlyMap<string, number>>,
  appends: Record<string, readonly AppendedFile[]> = {},
  configuration: Record<string, string> = {},
): SimulationFacts {
  return {
    snapshot: {
      version: 0,
      files,
      protocol,
      schema,
      // Partitioned by VendorID when the files say so, as the lab's partitioned copy is.
      partitionColumns: files.some((f) => 'VendorID' in f.partitionValues) ? ['VendorID'] : [],
      configuration,
    },
    matches: (p) => {
      const m = counts[p];
      if (!m) throw new Error(`no counts for '${p}'`);
      return m;
    },
    appended: (rows) => appends[rows] ?? null,
  };
}

const FLAT = factsOf(
  flat,
  {
    'VendorID = 1': perFile(1),
    'VendorID = 2': perFile(2),
    'VendorID = 6': perFile(6),
    'VendorID = 7': perFile(7),
    'fare_amount < 0': everyFile(1000),
    'trip_distance = 0': everyFile(1000),
  },
  { '2025-02-01': FEB01 },
);

const writer = (name: string, change: WriterChange, extra: Partial<SimulatedWriter> = {}): SimulatedWriter => ({
  name,
  change,
  ...extra,
});
const updateOf = (vendor: number, extra: Partial<SimulatedWriter> = {}) =>
  writer(
    `vendor${vendor}`,
    { kind: 'update', predicate: `VendorID = ${vendor}`, set: { tip_amount: 'tip_amount + 1' } },
    extra,
  );
const deleteOf = (predicate: string) => writer(predicate, { kind: 'delete', predicate });
const append = (blind = false, extra: Partial<SimulatedWriter> = {}) =>
  writer('append', { kind: 'append', rows: '2025-02-01', blind }, extra);
const compact = writer('compact', { kind: 'optimize' });

const removedPaths = (facts: SimulationFacts, w: SimulatedWriter) =>
  (writerCommit(facts, w, 'w')?.actions ?? []).flatMap((a) => ('remove' in a ? [a.remove.path] : []));

describe('D1: updates of vendors 6 and 7 on the flat table', () => {
  it('6 then 7: both commit, because 6 rewrites only files 8–9 and its new file spans VendorID 1..6', () => {
    const p = simulateConflict({ facts: FLAT, first: updateOf(6), second: updateOf(7) });
    expect(p.secondCommits).toBe(true);
    expect(p.failedCheck).toBeNull();
    expect(removedPaths(FLAT, updateOf(6))).toEqual(['f8.parquet', 'f9.parquet']);
    expect(p).toMatchObject({ firstTouchesFiles: 2, firstAddsFiles: 1, secondReadsFiles: 7 });
  });

  it('7 then 6: the second fails with "added new data", because 7 rewrites files 1–7 into one spanning 1..7', () => {
    const p = simulateConflict({ facts: FLAT, first: updateOf(7), second: updateOf(6) });
    expect(p.conflictKind).toBe('ConcurrentAppend');
    expect(p.failedCheck).toBe('concurrentAppend');
    expect(p.message).toBe(ADDED);
    expect(p.message).toMatch(
      /^Failed to commit transaction: Commit failed: a concurrent transactions added new data\./,
    );
  });

  it('min/max alone would have predicted a conflict for 6 then 7', () => {
    const guessed = factsOf(flat, { 'VendorID = 6': everyFile(1), 'VendorID = 7': perFile(7) });
    const guess = simulateConflict({ facts: guessed, first: updateOf(6), second: updateOf(7) });
    expect(guess.conflictKind).toBe('ConcurrentAppend');
  });
});

describe('other pairs', () => {
  it('B1: vendor 1 then vendor 2 on the flat table fails the second', () => {
    expect(simulateConflict({ facts: FLAT, first: updateOf(1), second: updateOf(2) }).conflictKind).toBe(
      'ConcurrentAppend',
    );
  });

  it('B3: vendors 1 and 2 on the partitioned copy both commit, under every engine (Spark reads partitions only)', () => {
    const parts: Add[] = [1, 2, 6, 7].map((v) => ({
      path: `VendorID=${v}/a.parquet`,
      partitionValues: { VendorID: String(v) },
      size: 1,
      modificationTime: 0,
      dataChange: true,
    }));
    const counts = (v: number) =>
      new Map(parts.map((f) => [f.path, f.partitionValues.VendorID === String(v) ? 10 : 0]));
    const facts = factsOf(parts, { 'VendorID = 1': counts(1), 'VendorID = 2': counts(2) });
    expect(facts.snapshot.partitionColumns).toEqual(['VendorID']);
    const p = simulateConflict({ facts, first: updateOf(1), second: updateOf(2) });
    expect(p.secondCommits).toBe(true);
    expect(p.byEngine.map((e) => [e.engine, e.commits])).toEqual([
      ['delta-rs', true],
      ['delta-spark', true],
      ['databricks', true],
    ]);
  });

  it('B2: two deletes on overlapping rows fail the second', () => {
    const p = simulateConflict({
      facts: FLAT,
      first: deleteOf('fare_amount < 0'),
      second: deleteOf('trip_distance = 0'),
    });
    expect(p.conflictKind).toBe('ConcurrentAppend');
  });

  it('I5 and I4: a blind append passes an update only under small-w writeSerializable', () => {
    const level = (value: string) => ({
      ...FLAT,
      snapshot: { ...FLAT.snapshot, configuration: { 'delta.isolationLevel': value } },
    });
    const i5 = simulateConflict({ facts: level('writeSerializable'), first: append(true), second: updateOf(2) });
    expect(i5).toMatchObject({ isolationLevel: 'WriteSerializable', secondCommits: true });
    // Capital W does not parse in delta-rs: the table stays Serializable.
    const i4 = simulateConflict({ facts: level('WriteSerializable'), first: append(true), second: updateOf(2) });
    expect(i4).toMatchObject({ isolationLevel: 'Serializable', conflictKind: 'ConcurrentAppend', message: ADDED });
    const i6 = simulateConflict({ facts: level('writeSerializable'), first: append(false), second: updateOf(2) });
    expect(i6.secondCommits).toBe(false);
  });

  it('C3: an update first fails a compaction with "deleted data this operation read"', () => {
    const small = factsOf(
      flat.map((f) => ({ ...f, size: 1000 })),
      { 'VendorID = 2': perFile(2) },
    );
    const p = simulateConflict({ facts: small, first: updateOf(2), second: compact });
    expect(p).toMatchObject({ conflictKind: 'ConcurrentDeleteRead', message: DELETED_READ, secondReadsFiles: 9 });
    // C2: the compaction first fails the update with "added new data".
    expect(simulateConflict({ facts: small, first: compact, second: updateOf(2) }).message).toBe(ADDED);
  });

  it('an update first fails an append too: the append read every file, and the update removed some', () => {
    const p = simulateConflict({ facts: FLAT, first: updateOf(2), second: append() });
    expect(p).toMatchObject({ secondCommits: false, failedCheck: 'deleteRead', message: DELETED_READ });
    // Two appends remove nothing: both commit (A1).
    expect(simulateConflict({ facts: FLAT, first: append(), second: append() }).secondCommits).toBe(true);
  });
});

describe('how SECOND ends: the commit loop and the redo loop', () => {
  it('with max_commit_retries 0, SECOND fails on the taken version without any check (A2)', () => {
    const p = simulateConflict({
      facts: FLAT,
      first: append(false, { maxCommitRetries: 0 }),
      second: append(false, { maxCommitRetries: 0 }),
    });
    expect(p).toMatchObject({
      secondCommits: false,
      failedCheck: null,
      conflictKind: 'MaxCommitAttempts',
      message: 'Failed to commit transaction: 0',
    });
    expect(p.first).toMatchObject({ committed: true, version: 1, commitRetries: 0, filesRemoved: 0, filesAdded: 1 });
    expect(p.second).toMatchObject({ committed: false, version: null, commitRetries: null, attempts: 1 });
  });

  it('a compaction commits with the default retries whatever it was given, as delta-rs does', () => {
    const small = factsOf(
      flat.map((f) => ({ ...f, size: 1000 })),
      {},
      { '2025-02-01': FEB01 },
    );
    const p = simulateConflict({ facts: small, first: append(), second: { ...compact, maxCommitRetries: 0 } });
    // The append removes nothing and compaction reads no predicate: it moves past the append's version.
    expect(p.second).toMatchObject({ committed: true, version: 2, commitRetries: 1, filesRemoved: 9, filesAdded: 1 });
  });

  it('a refused SECOND with a retry loop redoes its change on the version FIRST made and commits (E2)', () => {
    const day = "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'";
    const withDay: StructType = {
      ...schema,
      fields: [...schema.fields, field('tpep_pickup_datetime', 'timestamp_ntz')],
    };
    const facts = { ...factsOf(flat, { [day]: new Map() }, { feb14: FEB01 }) };
    facts.snapshot = { ...facts.snapshot, schema: withDay };
    const job = (name: string) => writer(name, { kind: 'overwrite', predicate: day, rows: 'feb14' }, { retryLoop: 10 });
    const p = simulateConflict({ facts, first: job('job1'), second: job('job2') });
    expect(p).toMatchObject({ secondCommits: true, failedCheck: 'concurrentAppend', message: ADDED });
    expect(p.first).toMatchObject({ committed: true, version: 1, filesRemoved: 0, filesAdded: 1 });
    expect(p.second).toMatchObject({
      committed: true,
      version: 2,
      attempts: 2,
      commitRetries: 0,
      attemptErrors: [{ attempt: 1, readVersion: 0, message: ADDED, check: 'concurrentAppend' }],
      error: null,
      // The redo's files depend on rows FIRST wrote: not forecast.
      filesRemoved: null,
    });
    // Without the loop it ends refused.
    const once = simulateConflict({ facts, first: job('job1'), second: { ...job('job2'), retryLoop: 1 } });
    expect(once.second).toMatchObject({ committed: false, error: { message: ADDED, kind: 'ConcurrentAppend' } });
  });

  it('a check-then-append whose day is there has nothing to commit; the other then commits first try', () => {
    const check = 'VendorID = 6';
    const job = (name: string) => writer(name, { kind: 'check-then-append', check, rows: '2025-02-01' });
    const p = simulateConflict({ facts: FLAT, first: job('job1'), second: updateOf(2) });
    expect(p).toMatchObject({ nothingToCommit: ['job1'], secondCommits: true, firstTouchesFiles: 0 });
    expect(p.second).toMatchObject({ committed: true, version: 1, commitRetries: 0 });
    const none = factsOf(flat, { [check]: new Map() }, { '2025-02-01': FEB01 });
    expect(simulateConflict({ facts: none, first: job('job1'), second: job('job2') }).second).toMatchObject({
      committed: true,
      version: 2,
      commitRetries: 1,
    });
  });
});

describe('commits in pieces, as the engine writes them', () => {
  const partitioned: Add[] = [1, 1, 2, 2, 2].map((v, i) => ({
    path: `VendorID=${v}/p${i}.parquet`,
    partitionValues: { VendorID: String(v) },
    size: 10_000_000,
    modificationTime: 0,
    dataChange: true,
    stats: JSON.stringify({
      numRecords: 100,
      minValues: { fare_amount: 1 },
      maxValues: { fare_amount: 9 },
      nullCount: {},
    }),
  }));
  const matchesIn = (vendor: number) =>
    new Map(partitioned.map((f) => [f.path, f.partitionValues.VendorID === String(vendor) ? 100 : 0]));
  const facts = factsOf(partitioned, {
    'fare_amount > 0': new Map(partitioned.map((f) => [f.path, 10])),
    'VendorID = 1': matchesIn(1),
    'VendorID = 2': matchesIn(2),
  });

  it('rewrites each partition into its own new file', () => {
    const commit = writerCommit(facts, deleteOf('fare_amount > 0'), 'w');
    expect(commit?.actions.filter((a) => 'add' in a)).toHaveLength(2);
    expect(commit?.actions.filter((a) => 'remove' in a)).toHaveLength(5);
    expect(commit?.actions.filter((a) => 'commitInfo' in a)).toHaveLength(1);
  });

  it('B3 on a partitioned table: an update of VendorID 2 after one of VendorID 1 commits', () => {
    const p = simulateConflict({ facts, first: updateOf(1), second: updateOf(2) });
    expect(p).toMatchObject({ secondCommits: true, firstTouchesFiles: 2, firstAddsFiles: 1, secondReadsFiles: 3 });
  });

  it('an overwrite writes its rows and the rows it keeps into one file per partition', () => {
    const keep = factsOf(
      partitioned,
      { 'fare_amount > 5': new Map([['VendorID=1/p0.parquet', 40]]) },
      {
        rows: [1, 3].map((v) => ({
          partitionValues: { VendorID: String(v) },
          stats: { ...FEB01[0]?.stats } as FileStats,
        })),
      },
    );
    const commit = writerCommit(
      keep,
      writer('o', { kind: 'overwrite', predicate: 'fare_amount > 5', rows: 'rows' }),
      'w',
    );
    const adds = commit?.actions.flatMap((a) => ('add' in a ? [a.add] : []));
    expect(adds?.map((a) => [a.partitionValues.VendorID, JSON.parse(a.stats ?? '{}').numRecords])).toEqual([
      ['1', 1500 + 60],
      ['3', 1500],
    ]);
    expect(commit?.actions.filter((a) => 'remove' in a)).toHaveLength(1);
  });

  it('compactionBins packs per partition, largest first, and leaves single-file bins alone', () => {
    const sized = (path: string, mb: number, vendor = '1'): Add => ({
      path,
      partitionValues: { VendorID: vendor },
      size: mb * 1_000_000,
      modificationTime: 0,
      dataChange: true,
    });
    const files = [
      sized('a', 10),
      sized('b', 12),
      sized('c', 9),
      sized('d', 30),
      sized('e', 5, '2'),
      sized('f', 5, '2'),
    ];
    expect(compactionBins(files, 25_000_000).map((b) => b.map((f) => f.path))).toEqual([
      ['b', 'a'],
      ['e', 'f'],
    ]);
    expect(compactionBins(files, 8_000_000)).toEqual([]);
    const target = factsOf(files, {});
    target.snapshot = { ...target.snapshot, configuration: { 'delta.targetFileSize': '25000000' } };
    const commit = writerCommit(target, compact, 'w');
    expect(commit?.actions.filter((a) => 'add' in a)).toHaveLength(2);
    expect(commit?.actions.filter((a) => 'remove' in a)).toHaveLength(4);
  });
});

describe('what the facts must give, and bad input', () => {
  it('asks for each predicate and each appended batch once', () => {
    expect(
      factsNeeded([
        updateOf(1),
        deleteOf('VendorID = 1'),
        append(),
        writer('c', { kind: 'check-then-append', check: 'VendorID = 6', rows: '2025-02-01' }),
        writer('o', { kind: 'overwrite', predicate: 'VendorID = 7', rows: 'x' }),
        compact,
      ]),
    ).toEqual({ predicates: ['VendorID = 1', 'VendorID = 6', 'VendorID = 7'], appends: ['2025-02-01', 'x'] });
  });

  it('names the writer and the part in expression errors, and refuses an update that sets nothing', () => {
    const bad = writer('w', { kind: 'delete', predicate: 'fare_amout < 0' });
    expect(() => simulateConflict({ facts: FLAT, first: updateOf(1), second: bad })).toThrow(
      /^writer 'w' predicate: unknown column 'fare_amout' at position 1/,
    );
    const badSet = writer('w', { kind: 'update', predicate: 'VendorID = 1', set: { tip_amount: "'x' + 1" } });
    expect(() => simulateConflict({ facts: FLAT, first: badSet, second: updateOf(2) })).toThrow(
      /^writer 'w' set tip_amount: /,
    );
    const nothingSet = writer('w', { kind: 'update', predicate: 'VendorID = 1', set: {} });
    expect(() => simulateConflict({ facts: FLAT, first: nothingSet, second: updateOf(2) })).toThrow(
      "writer 'w': an update needs at least one column to set",
    );
  });
});

describe('by engine: FIRST written by its engine, SECOND judged by each', () => {
  const withLevel = (facts: SimulationFacts, value: string): SimulationFacts => ({
    ...facts,
    snapshot: { ...facts.snapshot, configuration: { 'delta.isolationLevel': value } },
  });
  const verdicts = (p: ReturnType<typeof simulateConflict>) =>
    Object.fromEntries(p.byEngine.map((e) => [e.engine, e.commits])) as Record<CheckedLibrary, boolean>;
  const sparkAppend = (extra: Partial<SimulatedWriter> = {}) => append(false, { engine: 'delta-spark', ...extra });
  const SPARK_APPEND =
    /^\[DELTA_CONCURRENT_APPEND\.WITHOUT_HINT\] Transaction conflict detected\. a concurrent WRITE added data/;

  it('lists delta-rs, Delta Spark, Databricks; delta-rs is the forecast itself, Delta Spark measured where real runs agreed, Databricks modelled', () => {
    const measured = (caseId: string, level: string) => `measured: as the lab's ${caseId} under ${level}, ${SPARK_RUN}`;
    for (const [first, second, spark] of [
      [updateOf(1), updateOf(2), measured('B1', 'Serializable')],
      [updateOf(6), updateOf(7), measured('B1', 'Serializable')],
      [updateOf(2), append(), SPARK_NOT_MEASURED],
      [compact, updateOf(2), measured('C1', 'Serializable')],
      [append(true), updateOf(2), measured('I3@together', 'Serializable')],
      [append(false, { maxCommitRetries: 0 }), append(false, { maxCommitRetries: 0 }), SPARK_NOT_MEASURED],
    ] as [SimulatedWriter, SimulatedWriter, string][]) {
      const p = simulateConflict({ facts: FLAT, first, second });
      expect(p.byEngine.map((e) => [e.engine, e.note])).toEqual([
        ['delta-rs', null],
        ['delta-spark', spark],
        ['databricks', MODELLED_NOT_MEASURED],
      ]);
      expect(p.byEngine[0]).toEqual({
        engine: 'delta-rs',
        isolationLevel: p.isolationLevel,
        commits: p.secondCommits,
        failedCheck: p.failedCheck,
        message: p.message,
        exceptionClass: p.message === null ? null : 'CommitFailedError',
        note: null,
      });
    }
    // Another level than the one measured, or a partitioned table for B1's kinds: modelled.
    const ws = simulateConflict({
      facts: withLevel(FLAT, 'WriteSerializable'),
      first: append(true),
      second: updateOf(2),
    });
    expect(ws.byEngine[1]?.note).toBe(measured('I4@together', 'WriteSerializable'));
    // C1 with the update first was seen under WriteSerializable only.
    const updateFirst = (level: string) =>
      simulateConflict({ facts: withLevel(FLAT, level), first: updateOf(2), second: compact }).byEngine[1]?.note;
    expect(updateFirst('WriteSerializable')).toBe(measured('C1', 'WriteSerializable'));
    expect(updateFirst('Serializable')).toBe(SPARK_NOT_MEASURED);
    const snapshot = simulateConflict({
      facts: withLevel(FLAT, 'SnapshotIsolation'),
      first: updateOf(1),
      second: updateOf(2),
    });
    expect(snapshot.byEngine[1]?.note).toBe(SPARK_NOT_MEASURED);
    expect(MODELLED_NOT_MEASURED).toBe('modelled, not measured: Databricks cannot run here');
  });

  it('the example manifest: a blind-claiming append, then a capital-W update: Delta Spark commits, delta-rs fails', () => {
    // daily-append (delta-rs, isBlindAppend in its commit metadata) commits; vendor2-tips read before it.
    const p = simulateConflict({
      facts: withLevel(FLAT, 'WriteSerializable'),
      first: append(true),
      second: updateOf(2),
    });
    expect(p).toMatchObject({ secondCommits: false, conflictKind: 'ConcurrentAppend', message: ADDED });
    expect(p.byEngine.map((e) => [e.engine, e.isolationLevel, e.commits])).toEqual([
      ['delta-rs', 'Serializable', false],
      ['delta-spark', 'WriteSerializable', true],
      ['databricks', 'WriteSerializable', true],
    ]);
  });

  it("the winner's engine writes isBlindAppend: Delta Spark always, delta-rs only when the job claims it", () => {
    const level = withLevel(FLAT, 'WriteSerializable');
    // A plain delta-rs append writes no isBlindAppend: Spark's checker counts its file as added data.
    const rs = simulateConflict({ facts: level, first: append(), second: updateOf(2) });
    expect(verdicts(rs)).toEqual({ 'delta-rs': false, 'delta-spark': false, databricks: false });
    expect(rs.byEngine[1]).toMatchObject({
      failedCheck: 'concurrentAppend',
      message: expect.stringMatching(SPARK_APPEND),
    });
    // The same append by Delta Spark is blind, so WriteSerializable lets the update through.
    expect(verdicts(simulateConflict({ facts: level, first: sparkAppend(), second: updateOf(2) }))).toEqual({
      'delta-rs': false,
      'delta-spark': true,
      databricks: true,
    });
    // delta-rs honours a Spark winner's flag too, once it reads the level (small w).
    const small = simulateConflict({
      facts: withLevel(FLAT, 'writeSerializable'),
      first: sparkAppend(),
      second: updateOf(2),
    });
    expect(small.secondCommits).toBe(true);
    // A Spark append that scans the table first is not blind.
    const checks = writer(
      'append',
      { kind: 'append', rows: '2025-02-01', checksFirst: true },
      { engine: 'delta-spark' },
    );
    expect(verdicts(simulateConflict({ facts: level, first: checks, second: updateOf(2) }))['delta-spark']).toBe(false);
  });

  it('unset, Databricks defaults to WriteSerializable and Delta Spark to Serializable', () => {
    const p = simulateConflict({ facts: FLAT, first: sparkAppend(), second: updateOf(2) });
    expect(p.byEngine.map((e) => [e.engine, e.isolationLevel, e.commits])).toEqual([
      ['delta-rs', 'Serializable', false],
      ['delta-spark', 'Serializable', false],
      ['databricks', 'WriteSerializable', true],
    ]);
  });

  it('Spark ignores stats on an unpartitioned table: after VendorID 6, an update of 7 commits only under delta-rs', () => {
    // D1: delta-rs prunes 6's new file (VendorID 1..6) away from 7; Spark's check matches any added file.
    expect(verdicts(simulateConflict({ facts: FLAT, first: updateOf(6), second: updateOf(7) }))).toEqual({
      'delta-rs': true,
      'delta-spark': false,
      databricks: false,
    });
  });

  it('a Spark append reads nothing: an update before it fails it under delta-rs only', () => {
    const p = simulateConflict({ facts: FLAT, first: updateOf(2), second: append() });
    expect(verdicts(p)).toEqual({ 'delta-rs': false, 'delta-spark': true, databricks: true });
    expect(p.byEngine[0]?.failedCheck).toBe('deleteRead');
  });

  it("max_commit_retries is delta-rs's: with it at 0 only the delta-rs line fails", () => {
    const p = simulateConflict({
      facts: FLAT,
      first: append(false, { maxCommitRetries: 0 }),
      second: append(false, { maxCommitRetries: 0 }),
    });
    expect(verdicts(p)).toEqual({ 'delta-rs': false, 'delta-spark': true, databricks: true });
  });

  it('a level Spark cannot read fails every Spark commit, with no rival and after a redo too', () => {
    const bad = withLevel(
      { ...FLAT, matches: (p) => (p === 'VendorID = 3' ? new Map() : FLAT.matches(p)) },
      'write_serializable',
    );
    const INVALID = "[DELTA_INVALID_ISOLATION_LEVEL] invalid isolation level 'write_serializable'";
    const p = simulateConflict({ facts: bad, first: updateOf(3), second: updateOf(2, { retryLoop: 5 }) });
    expect(p.nothingToCommit).toEqual(['vendor3']);
    expect(p.byEngine).toEqual([
      {
        engine: 'delta-rs',
        isolationLevel: 'Serializable',
        commits: true,
        failedCheck: null,
        message: null,
        exceptionClass: null,
        note: null,
      },
      ...(['delta-spark', 'databricks'] as const).map((engine) => ({
        engine,
        isolationLevel: null,
        commits: false,
        failedCheck: 'isolationLevel',
        message: INVALID,
        exceptionClass: 'org.apache.spark.sql.delta.DeltaIllegalArgumentException',
        note: engine === 'delta-spark' ? SPARK_NOT_MEASURED : MODELLED_NOT_MEASURED,
      })),
    ]);
    // A Spark FIRST cannot commit there either: nothing wins, and SECOND commits first try under delta-rs.
    const q = simulateConflict({ facts: bad, first: updateOf(1, { engine: 'delta-spark' }), second: updateOf(2) });
    expect(q.first).toMatchObject({ committed: false, error: { message: INVALID, kind: 'InvalidIsolationLevel' } });
    expect(q.second).toMatchObject({ committed: true, version: 1, commitRetries: 0 });
  });
});
