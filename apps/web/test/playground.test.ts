/**
 * The playground's browser-side prediction, on small hand-built layouts shaped like the lesson's:
 * a flat table whose files 1–7 hold VendorID 7 and files 8–9 VendorID 6 (so every file's VendorID
 * min/max spans 1..7 or 1..6), and a copy partitioned by VendorID.
 */
import { checkStartRace } from '@racelab/contracts';
import {
  CONFLICT_MESSAGES,
  filesMatchingPredicate,
  parsePredicate,
  SPARK_RUN,
  type StructType,
} from '@racelab/engine/conflict';
import { describe, expect, it } from 'vitest';
import { cellColor, cellIntensity, legendSteps, numberRanges } from '../lib/playground/heatmap';
import { cellTitle, labHeatmap, labHeatmapSummary } from '../lib/playground/lab-heatmap';
import { addsOf, type LayoutFile, type PlaygroundLayout } from '../lib/playground/lab-tables';
import {
  measuredSummary,
  measuredVariables,
  PAIR_RACE_RUNS,
  pairRaceInput,
  raceProperties,
} from '../lib/playground/measured';
import { predict } from '../lib/playground/prediction';
import { APPEND_DAYS, LAYOUT_PREDICATES, WRITER_MENU } from '../lib/playground/writer-menu';

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'VendorID', type: 'integer', nullable: true, metadata: {} },
    { name: 'trip_distance', type: 'double', nullable: true, metadata: {} },
    { name: 'fare_amount', type: 'double', nullable: true, metadata: {} },
    { name: 'tip_amount', type: 'double', nullable: true, metadata: {} },
    { name: 'trip_id', type: 'long', nullable: true, metadata: {} },
  ],
};
const PROTOCOL = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['timestampNtz'], writerFeatures: [] };
const MB = 1_000_000;

interface FileSpec {
  path: string;
  vendors: Record<string, number>;
  /** Rows with fare_amount < 0 / trip_distance = 0. */
  negativeFares: number;
  zeroDistances: number;
  partition?: string;
  size?: number;
}

/** A file as tableLayout returns it: stats JSON (VendorID left out when partitioned), counts and matches. */
function file(spec: FileSpec): LayoutFile {
  const rows = Object.values(spec.vendors).reduce((a, b) => a + b, 0);
  const present = Object.keys(spec.vendors)
    .filter((v) => (spec.vendors[v] ?? 0) > 0)
    .map(Number);
  const minValues: Record<string, unknown> = {
    trip_distance: spec.zeroDistances > 0 ? 0 : 0.1,
    fare_amount: spec.negativeFares > 0 ? -50 : 0,
    tip_amount: 0,
    trip_id: 0,
  };
  const maxValues: Record<string, unknown> = { trip_distance: 40, fare_amount: 300, tip_amount: 80, trip_id: 4e6 };
  if (spec.partition === undefined) {
    minValues.VendorID = Math.min(...present);
    maxValues.VendorID = Math.max(...present);
  }
  const stats = {
    numRecords: rows,
    minValues,
    maxValues,
    nullCount: { VendorID: 0, trip_distance: 0, fare_amount: 0, tip_amount: 0, trip_id: 0 },
  };
  const matchesOf = (p: string) =>
    p === 'fare_amount < 0'
      ? spec.negativeFares
      : p === 'trip_distance = 0'
        ? spec.zeroDistances
        : (spec.vendors[p.replace('VendorID = ', '')] ?? 0);
  return {
    path: spec.path,
    rows,
    size: spec.size ?? 10 * MB,
    stats: JSON.stringify(stats),
    partitionValues: spec.partition === undefined ? [] : [{ key: 'VendorID', value: spec.partition }],
    minValues: JSON.stringify(minValues),
    maxValues: JSON.stringify(maxValues),
    countsBy: Object.entries(spec.vendors)
      .filter(([, n]) => n > 0)
      .map(([value, n]) => ({ value, rows: n })),
    matches: LAYOUT_PREDICATES.map(matchesOf),
  };
}

/** Appending a February day: per partition, the rows' stats. */
function appendPreview(day: string, partitioned: boolean) {
  const stats = (vendorBounds: boolean, rows: number) =>
    JSON.stringify({
      numRecords: rows,
      minValues: { ...(vendorBounds && { VendorID: 1 }), trip_distance: 0, fare_amount: -20, tip_amount: 0 },
      maxValues: { ...(vendorBounds && { VendorID: 7 }), trip_distance: 30, fare_amount: 200, tip_amount: 50 },
      nullCount: {},
    });
  return {
    day,
    files: partitioned
      ? ['1', '7', '2'].map((v) => ({ partitionValues: [{ key: 'VendorID', value: v }], stats: stats(false, 100) }))
      : [{ partitionValues: [], stats: stats(true, 300) }],
  };
}

function layout(files: LayoutFile[], partitioned: boolean, configuration: Record<string, string> = {}) {
  return {
    version: 0,
    files,
    schema: JSON.stringify(SCHEMA),
    partitionColumns: partitioned ? ['VendorID'] : [],
    protocol: JSON.stringify(PROTOCOL),
    configuration: Object.entries(configuration).map(([key, value]) => ({ key, value })),
    appends: APPEND_DAYS.map((d) => appendPreview(d, partitioned)),
    predicates: LAYOUT_PREDICATES,
  } satisfies PlaygroundLayout;
}

/** The lesson's flat table in miniature: VendorID 7 in files 1–7, VendorID 6 in files 8–9. */
const FLAT = layout(
  Array.from({ length: 9 }, (_, i) =>
    file({
      path: `part-0000${i}-flat.parquet`,
      vendors: i < 7 ? { '1': 870, '2': 3130, '7': 2 } : { '1': 870, '2': 3130, '6': 3 },
      negativeFares: 160,
      zeroDistances: 100,
      size: i === 8 ? 7 * MB : 10 * MB,
    }),
  ),
  false,
);

/** The partitioned copy: vendor 1 → 2 files, 2 → 7, 6 → 1, 7 → 1. */
const PARTITIONED = layout(
  [
    ...[0, 1].map((i) => ({ v: '1', i })),
    ...[2, 3, 4, 5, 6, 7, 8].map((i) => ({ v: '2', i })),
    { v: '6', i: 9 },
    { v: '7', i: 10 },
  ].map(({ v, i }) =>
    file({
      path: `VendorID=${v}/part-${String(i).padStart(5, '0')}-p.parquet`,
      vendors: { [v]: v === '6' ? 5 : v === '7' ? 12 : 4000 },
      negativeFares: 160,
      zeroDistances: 100,
      partition: v,
      size: v === '6' || v === '7' ? 30_000 : 10 * MB,
    }),
  ),
  true,
);

const ADDED_NEW_DATA = `Failed to commit transaction: ${CONFLICT_MESSAGES.ConcurrentAppend}`;
const DELETED_READ = `Failed to commit transaction: ${CONFLICT_MESSAGES.ConcurrentDeleteRead}`;

describe('the writer menu', () => {
  it('has the lesson writers under the ids the page uses', () => {
    expect(WRITER_MENU.map((w) => w.key)).toEqual([
      'update-1',
      'update-2',
      'update-6',
      'update-7',
      'delete-fare',
      'delete-distance',
      'append-2025-02-01',
      'append-2025-02-02',
      'optimize',
    ]);
    expect(LAYOUT_PREDICATES).toEqual([
      'VendorID = 1',
      'VendorID = 2',
      'VendorID = 6',
      'VendorID = 7',
      'fare_amount < 0',
      'trip_distance = 0',
    ]);
    expect(APPEND_DAYS).toEqual(['2025-02-01', '2025-02-02']);
  });
});

describe('predict: the four required predictions', () => {
  it('flat, FIRST update VendorID 6, SECOND update VendorID 7: SECOND commits (D1: 7 passes after 6)', () => {
    const p = predict(FLAT, 'update-6', 'update-7');
    expect(p.secondCommits).toBe(true);
    expect(p.failedCheck).toBeNull();
    expect(p.message).toBeNull();
    expect(p.firstTouchesFiles).toBe(2);
    expect(p.firstAddsFiles).toBe(1);
    expect(p.secondReadsFiles).toBe(7);
    expect(p.isolationLevel).toBe('Serializable');
  });

  it('flat, FIRST update VendorID 7, SECOND update VendorID 6: SECOND fails, added new data', () => {
    const p = predict(FLAT, 'update-7', 'update-6');
    expect(p.secondCommits).toBe(false);
    expect(p.failedCheck).toBe('concurrentAppend');
    expect(p.conflictKind).toBe('ConcurrentAppend');
    expect(p.message).toBe(ADDED_NEW_DATA);
    expect(p.message?.split('\n')[0]).toBe(
      'Failed to commit transaction: Commit failed: a concurrent transactions added new data.',
    );
    expect(p.firstTouchesFiles).toBe(7);
    expect(p.secondReadsFiles).toBe(9);
  });

  it('partitioned, FIRST update VendorID 1, SECOND update VendorID 2: SECOND commits (B3)', () => {
    const p = predict(PARTITIONED, 'update-1', 'update-2');
    expect(p.secondCommits).toBe(true);
    expect(p.firstTouchesFiles).toBe(2);
    expect(p.secondReadsFiles).toBe(7);
  });

  it("flat, B2's deletes (fare_amount < 0, then trip_distance = 0): SECOND fails, added new data", () => {
    const p = predict(FLAT, 'delete-fare', 'delete-distance');
    expect(p.secondCommits).toBe(false);
    expect(p.failedCheck).toBe('concurrentAppend');
    expect(p.message).toBe(ADDED_NEW_DATA);
    expect(p.firstTouchesFiles).toBe(9);
    expect(p.secondReadsFiles).toBe(9);
  });
});

describe('predict: the other cases of the lesson', () => {
  it('B1 on the flat table: whichever of VendorID 1 and 2 commits second fails', () => {
    expect(predict(FLAT, 'update-1', 'update-2')).toMatchObject({
      secondCommits: false,
      failedCheck: 'concurrentAppend',
    });
    expect(predict(FLAT, 'update-2', 'update-1')).toMatchObject({
      secondCommits: false,
      failedCheck: 'concurrentAppend',
    });
  });

  it('D1: VendorID 6 after 7 fails, 1 and 2 fail after either', () => {
    expect(predict(FLAT, 'update-7', 'update-6').secondCommits).toBe(false);
    for (const first of ['update-6', 'update-7']) {
      for (const second of ['update-1', 'update-2']) expect(predict(FLAT, first, second).secondCommits).toBe(false);
    }
  });

  it('C2: the compaction commits first, the update of VendorID 2 fails with added new data', () => {
    const p = predict(FLAT, 'optimize', 'update-2');
    expect(p).toMatchObject({ secondCommits: false, failedCheck: 'concurrentAppend', message: ADDED_NEW_DATA });
    expect(p.firstTouchesFiles).toBe(9);
  });

  it('C3: the update commits first, the compaction fails: deleted data this operation read', () => {
    const p = predict(FLAT, 'update-2', 'optimize');
    expect(p).toMatchObject({ secondCommits: false, failedCheck: 'deleteRead', message: DELETED_READ });
    expect(p.secondReadsFiles).toBe(9);
  });

  it('A1: two appends both commit', () => {
    expect(predict(FLAT, 'append-2025-02-01', 'append-2025-02-02').secondCommits).toBe(true);
    expect(predict(PARTITIONED, 'append-2025-02-02', 'append-2025-02-01').secondCommits).toBe(true);
  });

  it('I1: an append commits, then an update of VendorID 2 that read the old version fails', () => {
    const p = predict(FLAT, 'append-2025-02-01', 'update-2');
    expect(p).toMatchObject({
      secondCommits: false,
      failedCheck: 'concurrentAppend',
      firstTouchesFiles: 0,
      firstAddsFiles: 1,
    });
  });

  it('an append on the partitioned table adds one file per partition, and only those partitions conflict', () => {
    // February's trips here fall in VendorID 1, 2 and 7: an update of VendorID 6 sees none of them.
    expect(predict(PARTITIONED, 'append-2025-02-01', 'update-6')).toMatchObject({
      secondCommits: true,
      firstAddsFiles: 3,
    });
    expect(predict(PARTITIONED, 'append-2025-02-01', 'update-7').secondCommits).toBe(false);
  });

  it('a compaction of the partitioned copy bins per partition and leaves single files alone', () => {
    const p = predict(PARTITIONED, 'optimize', 'update-6');
    expect(p.firstTouchesFiles).toBe(9);
    expect(p.firstAddsFiles).toBe(2);
    expect(p.secondCommits).toBe(true);
    expect(predict(PARTITIONED, 'optimize', 'update-2').secondCommits).toBe(false);
  });

  it('the isolation level comes from the configuration as delta-rs parses it', () => {
    const capital = layout(FLAT.files, false, { 'delta.isolationLevel': 'WriteSerializable' });
    expect(predict(capital, 'update-6', 'update-7').isolationLevel).toBe('Serializable');
    const small = layout(FLAT.files, false, { 'delta.isolationLevel': 'writeSerializable' });
    expect(predict(small, 'update-6', 'update-7').isolationLevel).toBe('WriteSerializable');
  });
});

describe('predict by engine: FIRST a delta-rs writer, SECOND judged by each engine', () => {
  const byEngine = (p: ReturnType<typeof predict>) => p.byEngine.map((e) => [e.engine, e.isolationLevel, e.commits]);

  it("lists delta-rs as the prediction itself, Spark's as measured where real Delta Spark runs agreed, Databricks' as modelled", () => {
    const p = predict(FLAT, 'update-7', 'update-6');
    expect(p.byEngine.map((e) => [e.engine, e.note])).toEqual([
      ['delta-rs', null],
      ['delta-spark', `measured: as the lab's B1 under Serializable, ${SPARK_RUN}`],
      ['databricks', 'modelled, not measured: Databricks cannot run here'],
    ]);
    expect(p.byEngine[0]).toMatchObject({ commits: false, failedCheck: 'concurrentAppend', message: ADDED_NEW_DATA });
    expect(p.byEngine[1]?.message).toMatch(/^\[DELTA_CONCURRENT_APPEND\.WITHOUT_HINT\] Transaction conflict detected/);
  });

  // delta-rs, Delta Spark, Databricks: does SECOND commit? (levels unset: Serializable, Serializable, WriteSerializable)
  const cases: [string, PlaygroundLayout, string, string, [boolean, boolean, boolean]][] = [
    [
      'flat 6 then 7: delta-rs prunes by stats; Spark matches any file added to an unpartitioned table',
      FLAT,
      'update-6',
      'update-7',
      [true, false, false],
    ],
    [
      'partitioned 1 then 2 (B3): the layout names the partition column, and Spark reads partitions',
      PARTITIONED,
      'update-1',
      'update-2',
      [true, true, true],
    ],
    [
      "an update, then an append: only delta-rs's append read the removed files; Spark's read nothing",
      FLAT,
      'update-2',
      'append-2025-02-01',
      [false, true, true],
    ],
  ];
  for (const [name, layout, first, second, commits] of cases) {
    it(name, () => {
      expect(byEngine(predict(layout, first, second))).toEqual([
        ['delta-rs', 'Serializable', commits[0]],
        ['delta-spark', 'Serializable', commits[1]],
        ['databricks', 'WriteSerializable', commits[2]],
      ]);
    });
  }

  it("each engine reads the layout's delta.isolationLevel its own way", () => {
    const capitalW = { ...FLAT, configuration: [{ key: 'delta.isolationLevel', value: 'WriteSerializable' }] };
    expect(byEngine(predict(capitalW, 'update-1', 'update-2')).map(([engine, level]) => [engine, level])).toEqual([
      ['delta-rs', 'Serializable'],
      ['delta-spark', 'WriteSerializable'],
      ['databricks', 'WriteSerializable'],
    ]);
  });
});

describe('predict never decides from min/max alone', () => {
  it('min/max says every flat file may hold VendorID 6; the counts say only files 8 and 9 do', () => {
    const files = addsOf(FLAT);
    expect(filesMatchingPredicate(files, parsePredicate('VendorID = 6', SCHEMA))).toHaveLength(9);
    expect(predict(FLAT, 'update-6', 'update-1').firstTouchesFiles).toBe(2);
  });

  it('a writer whose predicate matches no row has nothing to commit, and the other commits', () => {
    const noSix = layout(
      FLAT.files.map((f) => ({ ...f, matches: (f.matches ?? []).map((n, i) => (i === 2 ? 0 : n)) })),
      false,
    );
    expect(predict(noSix, 'update-6', 'update-7')).toMatchObject({
      secondCommits: true,
      nothingToCommit: ['first'],
      firstTouchesFiles: 0,
    });
    expect(predict(noSix, 'update-7', 'update-6')).toMatchObject({ secondCommits: true, nothingToCommit: ['second'] });
  });

  it('refuses a layout without per-file match counts instead of guessing', () => {
    const uncounted = { ...FLAT, files: FLAT.files.map((f) => ({ ...f, matches: null })) };
    expect(() => predict(uncounted, 'update-7', 'update-6')).toThrow(/never guess/);
    expect(() => predict({ ...FLAT, predicates: [] }, 'update-7', 'update-6')).toThrow(/never guesses/);
  });

  it('refuses unknown writers', () => {
    expect(() => predict(FLAT, 'update-3', 'update-6')).toThrow(/unknown writer/);
  });
});

describe('measured in the lab, and the race that measures a pair', () => {
  const update1 = {
    name: 'first',
    operation: 'update',
    predicate: 'VendorID = 1',
    set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
  };

  it("builds the API's writer inputs from the menu, with the table properties the races must have set", () => {
    expect(measuredVariables('flat', 'update-1', 'delete-distance', [])).toEqual({
      table: 'flat',
      first: update1,
      second: { name: 'second', operation: 'delete', predicate: 'trip_distance = 0' },
      tableProperties: [],
    });
    const level = [{ key: 'delta.isolationLevel', value: 'Serializable' }];
    expect(measuredVariables('partitioned', 'append-2025-02-02', 'optimize', level)).toEqual({
      table: 'partitioned',
      first: { name: 'first', operation: 'append', day: '2025-02-02' },
      second: { name: 'second', operation: 'optimize' },
      tableProperties: level,
    });
  });

  it("takes the chosen table's properties that a race can set, and leaves out the rest", () => {
    expect(raceProperties(FLAT)).toEqual([]);
    const configured = layout(FLAT.files, false, {
      'delta.isolationLevel': 'WriteSerializable',
      'delta.enableChangeDataFeed': 'true',
      'delta.checkpointInterval': '10',
    });
    expect(raceProperties(configured)).toEqual([
      { key: 'delta.isolationLevel', value: 'WriteSerializable' },
      { key: 'delta.checkpointInterval', value: '10' },
    ]);
  });

  it('races FIRST then SECOND: SECOND starts after FIRST, on the chosen table, scale and properties', () => {
    const level = [{ key: 'delta.isolationLevel', value: 'Serializable' }];
    const input = pairRaceInput('partitioned', 0.01, 'update-1', 'update-2', level);
    expect(input).toEqual({
      table: 'partitioned',
      scale: 0.01,
      runs: PAIR_RACE_RUNS,
      tableProperties: level,
      writers: [update1, { ...update1, name: 'second', predicate: 'VendorID = 2', startAfter: 'first' }],
    });
    // What the API will be sent passes the race input's own checks.
    expect(checkStartRace(input).ok).toBe(true);
  });

  const order = (runs: number, secondCommitted: number, firstCommitted = runs) => ({
    runs,
    firstCommitted,
    secondCommitted,
    secondNothingToCommit: 0,
    messages: [],
  });
  const measured = { runs: 5, caseIds: ['B1'], inOrder: order(3, 0), otherOrder: order(2, 0), neitherCommitted: 0 };

  it('counts apart the runs in the predicted order and those that ran the other way', () => {
    expect(measuredSummary(measured)).toBe('B1: 3 runs in this order: SECOND failed in 3; 2 more ran the other way');
    expect(measuredSummary({ ...measured, runs: 2, caseIds: [], inOrder: order(2, 2), otherOrder: order(0, 0) })).toBe(
      'custom races: 2 runs in this order: SECOND committed in 2',
    );
    expect(measuredSummary({ ...measured, runs: 4, inOrder: order(1, 1), otherOrder: order(0, 0) })).toBe(
      'B1: 1 run in this order: SECOND committed in 1',
    );
    expect(measuredSummary({ ...measured, inOrder: order(3, 1), neitherCommitted: 1, otherOrder: order(1, 0) })).toBe(
      'B1: 3 runs in this order: SECOND committed in 1, failed in 2; 1 more ran the other way; in 1 more neither committed',
    );
    expect(measuredSummary({ ...measured, inOrder: order(2, 2, 0), otherOrder: order(3, 0) })).toBe(
      'B1: 2 runs in this order: SECOND committed in 2; FIRST committed in only 0; 3 more ran the other way',
    );
  });

  it('says runs in which SECOND had nothing to commit apart from failures', () => {
    const idle = { ...order(3, 1), secondNothingToCommit: 2 };
    expect(measuredSummary({ ...measured, inOrder: idle, otherOrder: order(0, 0) })).toBe(
      'B1: 3 runs in this order: SECOND committed in 1, had nothing to commit in 2',
    );
  });

  it('says when no run went in this order, or none at all', () => {
    expect(measuredSummary({ ...measured, runs: 2, caseIds: [], inOrder: order(0, 0), otherOrder: order(2, 2) })).toBe(
      'custom races: no run in this order; 2 ran the other way',
    );
    expect(
      measuredSummary({ runs: 0, caseIds: [], inOrder: order(0, 0), otherOrder: order(0, 0), neitherCommitted: 0 }),
    ).toBeNull();
  });
});

describe('the heatmap', () => {
  it('has one row per VendorID and one column per file, grouped by partition', () => {
    const flat = labHeatmap(FLAT);
    expect(flat.values).toEqual(['1', '2', '6', '7']);
    expect(flat.columns.map((c) => c.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(flat.groups).toEqual([{ partition: '', start: 0, count: 9 }]);
    expect(flat.max).toBe(3130);
    const parted = labHeatmap(PARTITIONED);
    expect(parted.groups.map((g) => [g.partition, g.count])).toEqual([
      ['VendorID=1', 2],
      ['VendorID=2', 7],
      ['VendorID=6', 1],
      ['VendorID=7', 1],
    ]);
  });

  it('says in words where each vendor lives', () => {
    expect(labHeatmapSummary('flat', labHeatmap(FLAT))).toBe(
      'Flat table, 9 files: VendorID 1 (7,830 trips) in files 1–9; VendorID 2 (28,170 trips) in files 1–9; ' +
        'VendorID 6 (6 trips) in files 8–9; VendorID 7 (14 trips) in files 1–7.',
    );
    expect(labHeatmapSummary('partitioned', labHeatmap(PARTITIONED))).toMatch(
      /^Partitioned table, 11 files in 4 partitions: VendorID 1 \(8,000 trips\) in files 1–2; .*VendorID 7 \(12 trips\) in file 11\.$/,
    );
  });

  it('tooltips name the file, the vendor and the trips', () => {
    const flat = labHeatmap(FLAT);
    const third = flat.columns[2];
    expect(third && cellTitle(third, '2')).toBe('file 3, VendorID 2: 3,130 trips');
    expect(third && cellTitle(third, '6')).toBe('file 3, VendorID 6: 0 trips');
  });

  it('colours an empty cell white and more trips deeper, on a log scale a single trip still shows', () => {
    expect(cellIntensity(0, 3130)).toBe(0);
    expect(cellColor(0, 3130)).toBe('rgb(255, 255, 255)');
    expect(cellIntensity(1, 3130)).toBeGreaterThan(0.1);
    expect(cellIntensity(2, 3130)).toBeLessThan(cellIntensity(870, 3130));
    expect(cellIntensity(3130, 3130)).toBe(1);
    expect(legendSteps(10_000)).toEqual([0, 1, 10, 100, 1000, 10_000]);
    expect(legendSteps(313_077)).toEqual([0, 1, 24, 560, 13_000, 313_077]);
    expect(legendSteps(1)).toEqual([0, 1]);
    expect(legendSteps(0)).toEqual([0]);
  });

  it('writes file numbers as ranges', () => {
    expect(numberRanges([1, 2, 3, 4, 5, 6, 7])).toBe('1–7');
    expect(numberRanges([9, 8])).toBe('8–9');
    expect(numberRanges([1, 3, 4, 5, 9])).toBe('1, 3–5, 9');
    expect(numberRanges([])).toBe('');
  });
});
