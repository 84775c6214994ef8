/**
 * The conflict playground's logic, pure (no React, no fetch): the writer menu, the layout query, the
 * browser-side prediction, the lab's measured outcome and the race that measures a pair, and the heatmap's model.
 *
 * The prediction is the engine's one conflict simulation (`simulateConflict` from
 * `@racelab/engine/conflict`, the same the lab's forecasts and the API run), on facts taken from the
 * layout: the per-file match counts of each writer's predicate (never min/max alone) and the stats of
 * the rows each day's append would write.
 */
import {
  type Add,
  type ConflictForecast,
  type FileStats,
  factsNeeded,
  type Protocol,
  parseStats,
  type SimulatedWriter,
  type SimulationFacts,
  type StructType,
  simulateConflict,
} from '@racelab/engine/conflict';
import { graphql, type ResultOf } from './gql';
import {
  fileColumns,
  filesWith,
  formatCount,
  type HeatmapColumn,
  type HeatmapPicture,
  type HeatmapRow,
  largestCell,
  numberRanges,
  partitionGroups,
} from './heatmap';
import { type RaceProperty, type StartRaceInput, settableProperties, type WriterInput } from './races';

// ---------------------------------------------------------------------------------------------
// The tables and the writer menu

export type TableKind = 'flat' | 'partitioned';
export const TABLE_KINDS: readonly TableKind[] = ['flat', 'partitioned'];
export const SCALES: readonly number[] = [0.01, 0.1, 1];
/** The lesson's full-size table. */
export const DEFAULT_SCALE = 1;

/** The lab's base table as the API names it, e.g. `lab:flat@1`. */
export const labLocation = (kind: TableKind, scale: number): string => `lab:${kind}@${scale}`;

export type WriterKey =
  | 'update-1'
  | 'update-2'
  | 'update-6'
  | 'update-7'
  | 'delete-fare'
  | 'delete-distance'
  | 'append-2025-02-01'
  | 'append-2025-02-02'
  | 'optimize';

export type MenuWriter =
  | { key: WriterKey; label: string; operation: 'update'; predicate: string; set: Record<string, string> }
  | { key: WriterKey; label: string; operation: 'delete'; predicate: string }
  | { key: WriterKey; label: string; operation: 'append'; day: string }
  | { key: WriterKey; label: string; operation: 'optimize' };

/** The lesson's writer: update `VendorID = v` set tip_amount = tip_amount + 1 (catalog.ts's tipUpdate). */
const tipUpdate = (vendor: 1 | 2 | 6 | 7): MenuWriter => ({
  key: `update-${vendor}`,
  label: `update: tip + 1 where VendorID = ${vendor}`,
  operation: 'update',
  predicate: `VendorID = ${vendor}`,
  set: { tip_amount: 'tip_amount + 1' },
});

export const WRITER_MENU: readonly MenuWriter[] = [
  tipUpdate(1),
  tipUpdate(2),
  tipUpdate(6),
  tipUpdate(7),
  { key: 'delete-fare', label: 'delete where fare_amount < 0', operation: 'delete', predicate: 'fare_amount < 0' },
  {
    key: 'delete-distance',
    label: 'delete where trip_distance = 0',
    operation: 'delete',
    predicate: 'trip_distance = 0',
  },
  { key: 'append-2025-02-01', label: 'append the trips of Feb 1', operation: 'append', day: '2025-02-01' },
  { key: 'append-2025-02-02', label: 'append the trips of Feb 2', operation: 'append', day: '2025-02-02' },
  { key: 'optimize', label: 'compaction (optimize)', operation: 'optimize' },
];

export class PlaygroundError extends Error {
  override name = 'PlaygroundError';
}

export function menuWriter(key: string): MenuWriter {
  const w = WRITER_MENU.find((m) => m.key === key);
  if (!w) throw new PlaygroundError(`unknown writer '${key}'`);
  return w;
}

/** A menu writer as the engine's simulation knows it; an append's rows are named by its day. */
function simulatedWriter(name: string, w: MenuWriter): SimulatedWriter {
  switch (w.operation) {
    case 'update':
      return { name, change: { kind: 'update', predicate: w.predicate, set: w.set } };
    case 'delete':
      return { name, change: { kind: 'delete', predicate: w.predicate } };
    case 'append':
      return { name, change: { kind: 'append', rows: w.day } };
    case 'optimize':
      return { name, change: { kind: 'optimize' } };
  }
}

/**
 * What the simulation asks of the menu's writers: the layout counts each predicate per file and previews each
 * day's append.
 */
const MENU_NEEDS = factsNeeded(WRITER_MENU.map((w) => simulatedWriter(w.key, w)));
export const LAYOUT_PREDICATES: readonly string[] = MENU_NEEDS.predicates;
export const APPEND_DAYS: readonly string[] = MENU_NEEDS.appends;
export const COUNT_BY = 'VendorID';

// ---------------------------------------------------------------------------------------------
// The layout, as the API's tableLayout returns it

export type TableLayout = ResultOf<typeof TABLE_LAYOUT_QUERY>['tableLayout'];
export type LayoutFile = TableLayout['files'][number];
export type KeyValue = LayoutFile['partitionValues'][number];

/** A layout together with the predicates its `matches` count, in the same order. */
export interface PlaygroundLayout extends TableLayout {
  predicates: readonly string[];
}

export const TABLE_LAYOUT_QUERY = graphql(`query PlaygroundLayout(
  $location: String!, $countBy: String, $predicates: [String!], $appendDays: [String!]
) {
  tableLayout(location: $location, countBy: $countBy, predicates: $predicates, appendDays: $appendDays) {
    version
    files { path rows size stats partitionValues { key value } minValues maxValues countsBy { value rows } matches }
    schema
    partitionColumns
    protocol
    configuration { key value }
    appends { day files { partitionValues { key value } stats } }
  }
}`);

export function layoutVariables(kind: TableKind, scale: number) {
  return {
    location: labLocation(kind, scale),
    countBy: COUNT_BY,
    predicates: [...LAYOUT_PREDICATES],
    appendDays: [...APPEND_DAYS],
  };
}

const recordOf = (pairs: readonly KeyValue[]): Record<string, string | null> =>
  Object.fromEntries(pairs.map((p) => [p.key, p.value]));

/** The read snapshot's add actions as the layout gives them: logical column names, rows net of deletion vectors. */
export function addsOf(layout: TableLayout): Add[] {
  return layout.files.map((f) => ({
    path: f.path,
    partitionValues: recordOf(f.partitionValues),
    size: f.size,
    modificationTime: 0,
    dataChange: true,
    ...(f.stats != null && { stats: f.stats }),
  }));
}

// ---------------------------------------------------------------------------------------------
// The prediction: the engine's one simulation, on facts from the layout

/** Rows matching `predicate` per file path (files with none left out), from the layout's counts. */
export function matchesFor(layout: PlaygroundLayout, predicate: string): Map<string, number> {
  const at = layout.predicates.indexOf(predicate);
  if (at < 0) {
    throw new PlaygroundError(
      `the layout has no per-file counts for '${predicate}'; a prediction never guesses them from min/max`,
    );
  }
  const out = new Map<string, number>();
  for (const f of layout.files) {
    const n = f.matches?.[at];
    if (n === undefined) {
      throw new PlaygroundError(`file ${f.path} has no count for '${predicate}'; a prediction never guesses it`);
    }
    if (n > 0) out.set(f.path, n);
  }
  return out;
}

/** The layout as the simulation's facts: its snapshot, its per-file counts, its previews of each day's append. */
export function layoutFacts(layout: PlaygroundLayout): SimulationFacts {
  return {
    snapshot: {
      version: layout.version,
      files: addsOf(layout),
      protocol: JSON.parse(layout.protocol) as Protocol,
      schema: JSON.parse(layout.schema) as StructType,
      partitionColumns: layout.partitionColumns,
      configuration: recordOf(layout.configuration),
    },
    matches: (predicate) => matchesFor(layout, predicate),
    appended: (day) => {
      const preview = layout.appends.find((a) => a.day === day);
      if (!preview) throw new PlaygroundError(`the layout has no preview of appending ${day}`);
      return preview.files.map((f) => {
        const stats = parseStats(f.stats);
        return {
          partitionValues: recordOf(f.partitionValues),
          ...(typeof stats?.numRecords === 'number' && { stats: stats as FileStats }),
        };
      });
    },
  };
}

/** The engine's forecast, its writers named 'first' and 'second'. */
export type PlaygroundPrediction = ConflictForecast;

/** Both writers read the same snapshot; FIRST commits; does SECOND commit, and if not, why? */
export function predict(layout: PlaygroundLayout, firstKey: string, secondKey: string): PlaygroundPrediction {
  return simulateConflict({
    facts: layoutFacts(layout),
    first: simulatedWriter('first', menuWriter(firstKey)),
    second: simulatedWriter('second', menuWriter(secondKey)),
  });
}

// ---------------------------------------------------------------------------------------------
// Measured in the lab, and the race that measures the pair in the predicted order

/** The API's WriterInput for a menu writer. */
export function writerInput(key: string, name: string): WriterInput {
  const w = menuWriter(key);
  switch (w.operation) {
    case 'update':
      return {
        name,
        operation: 'update',
        predicate: w.predicate,
        set: Object.entries(w.set).map(([k, value]) => ({ key: k, value })),
      };
    case 'delete':
      return { name, operation: 'delete', predicate: w.predicate };
    case 'append':
      return { name, operation: 'append', day: w.day };
    case 'optimize':
      return { name, operation: 'optimize' };
  }
}

export const MEASURED_QUERY = graphql(`query PlaygroundMeasured(
  $table: String!, $first: WriterInput!, $second: WriterInput!, $tableProperties: [KeyValueInput!]
) {
  measuredOutcome(table: $table, first: $first, second: $second, tableProperties: $tableProperties) {
    runs caseIds neitherCommitted
    inOrder { runs firstCommitted secondCommitted messages }
    otherOrder { runs }
  }
}`);

/**
 * The table properties of the layout that a race can set. A race's copy inherits them from the base table
 * anyway; naming them makes the race say what it ran under and the measured outcome count only such races.
 */
export const raceProperties = (layout: Pick<TableLayout, 'configuration'>): RaceProperty[] =>
  settableProperties(layout.configuration);

/** "delta.isolationLevel = Serializable", or "no table property". */
export const propertiesText = (properties: readonly RaceProperty[]): string =>
  properties.length === 0 ? 'no table property' : properties.map((p) => `${p.key} = ${p.value}`).join(', ');

export function measuredVariables(
  kind: TableKind,
  firstKey: string,
  secondKey: string,
  tableProperties: readonly RaceProperty[],
) {
  return {
    table: kind,
    first: writerInput(firstKey, 'first'),
    second: writerInput(secondKey, 'second'),
    tableProperties: [...tableProperties],
  };
}

export type Measured = ResultOf<typeof MEASURED_QUERY>['measuredOutcome'];

const runCount = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/** What SECOND (and FIRST, when it did not always commit) did in the runs of one order. */
function fates(o: Measured['inOrder']): string {
  const failed = o.runs - o.secondCommitted;
  const second =
    failed === 0
      ? `SECOND committed in ${o.secondCommitted}`
      : o.secondCommitted === 0
        ? `SECOND failed in ${failed}`
        : `SECOND committed in ${o.secondCommitted}, failed in ${failed}`;
  return o.firstCommitted < o.runs ? `${second}; FIRST committed in only ${o.firstCommitted}` : second;
}

/**
 * "B1: 3 runs in this order: SECOND failed in 3; 2 more ran the other way", or null when the lab has not run
 * the pair. Only the runs in which FIRST went first compare with the prediction; the others are only counted.
 */
export function measuredSummary(m: Measured): string | null {
  if (m.runs === 0) return null;
  const cases = m.caseIds.length > 0 ? m.caseIds.join(', ') : 'custom races';
  const o = m.inOrder;
  const parts = [o.runs === 0 ? 'no run in this order' : `${runCount(o.runs)} in this order: ${fates(o)}`];
  if (m.otherOrder.runs > 0) parts.push(`${m.otherOrder.runs} ${o.runs === 0 ? '' : 'more '}ran the other way`);
  if (m.neitherCommitted > 0) parts.push(`in ${m.neitherCommitted} more neither committed`);
  return `${cases}: ${parts.join('; ')}`;
}

/** Runs of the race the playground starts for a pair: enough to see a pattern, short at a small scale. */
export const PAIR_RACE_RUNS = 3;

/**
 * startRace's input for "FIRST, then SECOND": both open the chosen table at the chosen scale, and SECOND
 * changes it only once FIRST has committed, so every run measures the order the prediction is about.
 */
export function pairRaceInput(
  kind: TableKind,
  scale: number,
  firstKey: string,
  secondKey: string,
  tableProperties: readonly RaceProperty[],
): StartRaceInput {
  const first = writerInput(firstKey, 'first');
  return {
    table: kind,
    scale,
    runs: PAIR_RACE_RUNS,
    tableProperties: [...tableProperties],
    writers: [first, { ...writerInput(secondKey, 'second'), startAfter: first.name }],
  };
}

// ---------------------------------------------------------------------------------------------
// The lab tables' heatmap: one row per VendorID, counted from the data (lib/heatmap.ts draws it)

export interface LabHeatmapColumn extends HeatmapColumn {
  /** Trips per row value (a VendorID as text). */
  counts: Map<string, number>;
}

export interface HeatmapModel extends HeatmapPicture {
  /** The VendorID values, in numeric order. */
  values: string[];
  columns: LabHeatmapColumn[];
  /** False when the layout has no per-value counts. */
  counted: boolean;
}

const byNumber = (a: string, b: string) => {
  const x = Number(a);
  const y = Number(b);
  return Number.isNaN(x) || Number.isNaN(y) ? (a < b ? -1 : a > b ? 1 : 0) : x - y;
};

/** One tooltip: "file 3, VendorID 2: 301,234 trips". */
export const cellTitle = (column: LabHeatmapColumn, value: string): string =>
  `file ${column.number}, ${COUNT_BY} ${value}: ${formatCount(column.counts.get(value) ?? 0)} trips`;

export function heatmapModel(layout: TableLayout): HeatmapModel {
  const columns = fileColumns(layout.files).map((c, i): LabHeatmapColumn => {
    const counts = new Map<string, number>();
    for (const v of layout.files[i]?.countsBy ?? []) counts.set(v.value, (counts.get(v.value) ?? 0) + v.rows);
    return { ...c, counts };
  });
  const values = [...new Set(columns.flatMap((c) => [...c.counts.keys()]))].sort(byNumber);
  const rows: HeatmapRow[] = values.map((v) => ({
    key: v,
    label: `${COUNT_BY} ${v}`,
    tone: 'count',
    cells: columns.map((c) => c.counts.get(v) ?? 0),
    titles: columns.map((c) => cellTitle(c, v)),
  }));
  return {
    values,
    columns,
    groups: partitionGroups(columns),
    rows,
    max: largestCell(rows),
    counted: layout.files.every((f) => f.countsBy !== null),
  };
}

/** The heatmap in one sentence, for its aria-label. */
export function heatmapSummary(kind: TableKind, model: HeatmapModel): string {
  const n = model.columns.length;
  const parted = model.groups.filter((g) => g.partition !== '').length;
  const head =
    kind === 'partitioned' && parted > 0
      ? `Partitioned table, ${n} file${n === 1 ? '' : 's'} in ${parted} partition${parted === 1 ? '' : 's'}`
      : `Flat table, ${n} file${n === 1 ? '' : 's'}`;
  const where = model.rows.map((r) => {
    const files = filesWith(r, model.columns);
    const total = r.cells.reduce((t, x) => t + x, 0);
    const one = files.length === 1;
    return `${r.label} (${formatCount(total)} trips) in file${one ? '' : 's'} ${numberRanges(files)}`;
  });
  return where.length > 0 ? `${head}: ${where.join('; ')}.` : `${head}.`;
}
