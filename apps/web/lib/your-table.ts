/**
 * The playground on a table of the user's own, pure (no React, no fetch): its layout and forecast queries,
 * the columns one can map it by, the heatmap of its files by one column (bands of the column's values from
 * each file's min/max stats, or its partition value) and by the two writers' predicates (rows matched per
 * file, counted from the data by the API), and the API's refusals put next to the fields they are about.
 */
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
  statAt,
} from './heatmap';
import { setPairs, type WriterInput } from './races';

export const YOUR_LAYOUT_QUERY = graphql(`query YourTableLayout($location: String!, $predicates: [String!]) {
  tableLayout(location: $location, predicates: $predicates) {
    location version schema partitionColumns
    files { path rows partitionValues { key value } minValues maxValues matches }
  }
}`);

export const YOUR_FORECAST_QUERY = graphql(`query YourTableForecast($input: PredictConflictInput!) {
  predictConflict(input: $input) {
    secondCommits failedCheck message isolationLevel firstTouchesFiles secondReadsFiles nothingToCommit
    byEngine { engine isolationLevel commits failedCheck message note }
  }
}`);

export type YourLayout = ResultOf<typeof YOUR_LAYOUT_QUERY>['tableLayout'];
export type YourForecast = ResultOf<typeof YOUR_FORECAST_QUERY>['predictConflict'];

// ---------------------------------------------------------------------------------------------
// The columns of the table's schema

/** A column one can map the files by: a primitive field, nested ones by their dotted path. */
export interface SchemaColumn {
  name: string;
  type: string;
  partition: boolean;
}

interface SchemaField {
  name: string;
  type: string | { type: string; fields?: SchemaField[] };
}

/** Every primitive column of a Delta schema (JSON), struct fields by their dotted path; arrays and maps have no stats. */
export function schemaColumns(schemaJson: string, partitionColumns: readonly string[]): SchemaColumn[] {
  const out: SchemaColumn[] = [];
  const walk = (fields: readonly SchemaField[], prefix: string) => {
    for (const f of fields) {
      const name = `${prefix}${f.name}`;
      if (typeof f.type === 'string') out.push({ name, type: f.type, partition: partitionColumns.includes(name) });
      else if (f.type.type === 'struct') walk(f.type.fields ?? [], `${name}.`);
    }
  };
  try {
    walk((JSON.parse(schemaJson) as { fields?: SchemaField[] }).fields ?? [], '');
  } catch {
    return [];
  }
  return out;
}

/** The column to show first: the first partition column, else the first column. */
export const defaultColumn = (columns: readonly SchemaColumn[]): string =>
  (columns.find((c) => c.partition) ?? columns[0])?.name ?? '';

// ---------------------------------------------------------------------------------------------
// Bands of a column's values, and which files' stats overlap each

type Value = number | string;

const NUMERIC = /^(byte|short|integer|long|float|double|decimal(\(.*\))?)$/;
const TEMPORAL = /^(date|timestamp|timestamp_ntz)$/;
const INTEGRAL = /^(byte|short|integer|long)$/;

/** A stats or partition value as something that orders as the column does; undefined when it cannot. */
function orderable(type: string, raw: unknown): Value | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (NUMERIC.test(type)) {
    const n = Number(raw);
    return Number.isFinite(n) ? n : undefined;
  }
  if (TEMPORAL.test(type)) {
    const t = Date.parse(String(raw));
    return Number.isFinite(t) ? t : undefined;
  }
  return String(raw);
}

const less = (a: Value, b: Value) => (typeof a === 'number' && typeof b === 'number' ? a < b : String(a) < String(b));

/** A file's range of the column: from its partition value, or from its stats; null when neither says. */
export interface FileRange {
  min: Value;
  max: Value;
}

export function fileRange(c: HeatmapColumn, column: SchemaColumn): FileRange | null {
  const [minRaw, maxRaw] = column.partition
    ? [c.partitionValues[column.name], c.partitionValues[column.name]]
    : [statAt(c.minValues, column.name), statAt(c.maxValues, column.name)];
  const min = orderable(column.type, minRaw);
  const max = orderable(column.type, maxRaw);
  return min === undefined || max === undefined ? null : { min, max };
}

export interface Band {
  label: string;
  lo: Value;
  hi: Value;
  /** The last band holds its upper bound; the others stop short of it. */
  closed: boolean;
}

export const MAX_BANDS = 8;

function shown(type: string, v: Value): string {
  if (typeof v === 'string') return v;
  if (TEMPORAL.test(type)) {
    const iso = new Date(v).toISOString();
    return type === 'date' ? iso.slice(0, 10) : iso.replace('T', ' ').replace(/\.000Z$|Z$/, '');
  }
  return formatCount(Number.isInteger(v) ? v : Number(v.toPrecision(4)));
}

/**
 * Up to MAX_BANDS bands covering every file's range: one per value when the column has that few (an integer
 * column spanning 1..7, a partition column), equal widths of a numeric or temporal column, else cut at the
 * files' own min and max values (text orders, but has no widths).
 */
export function valueBands(ranges: readonly (FileRange | null)[], column: SchemaColumn): Band[] {
  const known = ranges.filter((r): r is FileRange => r !== null);
  if (known.length === 0) return [];
  const ends = [...new Set(known.flatMap((r) => [r.min, r.max]))].sort((a, b) =>
    less(a, b) ? -1 : less(b, a) ? 1 : 0,
  );
  const lo = ends[0] as Value;
  const hi = ends[ends.length - 1] as Value;
  const one = (v: Value): Band => ({ label: shown(column.type, v), lo: v, hi: v, closed: true });
  if (ends.length === 1) return [one(lo)];
  if (typeof lo === 'number' && typeof hi === 'number') {
    if (INTEGRAL.test(column.type) && hi - lo < MAX_BANDS) {
      return Array.from({ length: hi - lo + 1 }, (_, i) => one(lo + i));
    }
    if (column.partition && ends.length <= MAX_BANDS) return ends.map(one);
    if (INTEGRAL.test(column.type)) {
      // Whole numbers: bands of whole numbers, each holding both its ends.
      const step = Math.ceil((hi - lo + 1) / MAX_BANDS);
      return Array.from({ length: Math.ceil((hi - lo + 1) / step) }, (_, i) => {
        const a = lo + i * step;
        const b = Math.min(a + step - 1, hi);
        return { label: `${shown(column.type, a)}..${shown(column.type, b)}`, lo: a, hi: b, closed: true };
      });
    }
    const width = (hi - lo) / MAX_BANDS;
    return Array.from({ length: MAX_BANDS }, (_, i) => {
      const a = lo + i * width;
      const b = i === MAX_BANDS - 1 ? hi : lo + (i + 1) * width;
      return { label: `${shown(column.type, a)}..${shown(column.type, b)}`, lo: a, hi: b, closed: i === MAX_BANDS - 1 };
    });
  }
  if (column.partition && ends.length <= MAX_BANDS) return ends.map(one);
  // Cuts at evenly spaced ones of the files' own ends.
  const cuts =
    ends.length <= MAX_BANDS + 1
      ? ends
      : Array.from({ length: MAX_BANDS + 1 }, (_, i) => ends[Math.round((i * (ends.length - 1)) / MAX_BANDS)] as Value);
  return cuts.slice(0, -1).map((a, i) => {
    const b = cuts[i + 1] as Value;
    const last = i === cuts.length - 2;
    return { label: `${shown(column.type, a)}..${shown(column.type, b)}`, lo: a, hi: b, closed: last };
  });
}

/** Whether a file whose stats say `r` may hold a value of `band` (null: no stats, so it may hold any). */
export function overlaps(r: FileRange | null, band: Band): boolean {
  if (r === null) return true;
  const belowTop = band.closed ? !less(band.hi, r.min) : less(r.min, band.hi);
  return belowTop && !less(r.max, band.lo);
}

// ---------------------------------------------------------------------------------------------
// The two writers, and the picture

export const PLAYGROUND_OPERATIONS = ['update', 'delete', 'optimize'] as const;
export type PlaygroundOperation = (typeof PLAYGROUND_OPERATIONS)[number];

export interface PlaygroundWriter {
  operation: PlaygroundOperation;
  predicate: string;
  /** One "column = expression" a line (update only). */
  set: string;
}

export const WHO = ['first', 'second'] as const;
export type Who = (typeof WHO)[number];
export const WHO_LABEL: Record<Who, string> = { first: 'FIRST', second: 'SECOND' };

export const hasPredicate = (w: PlaygroundWriter) => w.operation !== 'optimize';

/** The API's WriterInput for a playground writer, named `first` or `second`. */
export function yourWriterInput(name: Who, w: PlaygroundWriter): WriterInput {
  return {
    name,
    operation: w.operation,
    ...(hasPredicate(w) && { predicate: w.predicate }),
    ...(w.operation === 'update' && { set: setPairs(w.set) }),
  };
}

/** The predicates the layout counts per file, and whose they are (optimize has none), in that order. */
export function layoutPredicates(writers: Record<Who, PlaygroundWriter>): { who: Who; predicate: string }[] {
  return WHO.filter((who) => hasPredicate(writers[who])).map((who) => ({ who, predicate: writers[who].predicate }));
}

export interface YourHeatmap extends HeatmapPicture {
  column: SchemaColumn;
  bands: Band[];
  /** Files whose stats say nothing of the column: they may hold any value. */
  unstated: number[];
  summary: string;
}

const fileCount = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
const inFiles = (numbers: readonly number[]) =>
  numbers.length === 0 ? 'in no file' : `in file${numbers.length === 1 ? '' : 's'} ${numberRanges(numbers)}`;

/**
 * The files of `layout` by `column`: a row per band of its values (a file's cell holds its rows when its
 * min/max may hold the band: what a reader of those values must scan), then a row per counted predicate
 * (the rows of each file that match it, from the data).
 */
export function yourHeatmap(
  layout: Pick<YourLayout, 'files'>,
  column: SchemaColumn,
  counted: readonly { who: Who; predicate: string }[] = [],
): YourHeatmap {
  const columns = fileColumns(layout.files);
  const ranges = columns.map((c) => fileRange(c, column));
  const bands = valueBands(ranges, column);
  const where = (c: HeatmapColumn) => {
    const r = ranges[c.number - 1];
    const span = r
      ? r.min === r.max
        ? shown(column.type, r.min)
        : `${shown(column.type, r.min)}..${shown(column.type, r.max)}`
      : 'no stats';
    return `file ${c.number} (${column.name} ${span}, ${formatCount(c.rows)} rows)`;
  };
  const bandRows: HeatmapRow[] = bands.map((b, bi) => ({
    key: `band-${bi}`,
    label: `${column.name} ${b.lo === b.hi ? '=' : 'in'} ${b.label}`,
    tone: 'count',
    cells: columns.map((c, i) => (overlaps(ranges[i] ?? null, b) ? c.rows : 0)),
    titles: columns.map((c, i) =>
      overlaps(ranges[i] ?? null, b) ? `${where(c)} may hold ${b.label}` : `${where(c)} holds none of ${b.label}`,
    ),
  }));
  const matchRows: HeatmapRow[] = counted.map(({ who, predicate }, pi) => ({
    key: `match-${who}`,
    label: `${WHO_LABEL[who]}: ${predicate}`,
    tone: 'match',
    cells: layout.files.map((f) => f.matches?.[pi] ?? 0),
    titles: columns.map(
      (c, i) =>
        `file ${c.number}: ${formatCount(layout.files[i]?.matches?.[pi] ?? 0)} of ${formatCount(c.rows)} rows match ${WHO_LABEL[who]}'s predicate`,
    ),
  }));
  const rows = [...bandRows, ...matchRows];
  const groups = partitionGroups(columns);
  const parted = groups.filter((g) => g.partition !== '').length;
  const unstated = columns.filter((_, i) => ranges[i] === null).map((c) => c.number);
  const head =
    parted > 0
      ? `${fileCount(columns.length)} in ${parted} partition${parted === 1 ? '' : 's'}`
      : fileCount(columns.length);
  const parts = [
    ...bandRows.map((r) => `${r.label} ${inFiles(filesWith(r, columns))}`),
    ...matchRows.map(
      (r, i) => `${WHO_LABEL[counted[i]?.who ?? 'first']}'s predicate matches rows ${inFiles(filesWith(r, columns))}`,
    ),
  ];
  if (unstated.length > 0) parts.push(`no stats of ${column.name} ${inFiles(unstated)}`);
  return {
    columns,
    groups,
    rows,
    max: largestCell(rows),
    column,
    bands,
    unstated,
    summary: `${head}, by ${column.name}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}.`,
  };
}

// ---------------------------------------------------------------------------------------------
// The API's refusals, next to their fields

export interface FieldProblems {
  location: string[];
  predicate: Record<Who, string[]>;
  set: Record<Who, string[]>;
  /** Whatever names no field: shown with the forecast. */
  other: string[];
}

export const noProblems = (): FieldProblems => ({
  location: [],
  predicate: { first: [], second: [] },
  set: { first: [], second: [] },
  other: [],
});

/**
 * Puts each message where it belongs: "writer first: predicate: …" (predictConflict), "predicates[1]: …"
 * (tableLayout, `counted` saying whose predicate is at each index), "writer second: set x: …". A message
 * already shown for a field is not shown twice.
 */
export function placeProblems(
  errors: readonly { message: string; problems?: readonly string[] }[],
  counted: readonly { who: Who }[],
): FieldProblems {
  const out = noProblems();
  const add = (list: string[], message: string) => {
    if (!list.includes(message)) list.push(message);
  };
  for (const e of errors) {
    const messages = e.problems && e.problems.length > 0 ? e.problems : [e.message];
    for (const m of messages) {
      const writer = /^writer (first|second): (predicate|set)\b:? ?(.*)$/s.exec(m);
      const indexed = /^predicates\[(\d+)\]: (.*)$/s.exec(m);
      if (writer) {
        const who = writer[1] as Who;
        const field = writer[2] === 'set' ? out.set : out.predicate;
        add(field[who], writer[2] === 'set' ? m.slice(`writer ${who}: `.length) : (writer[3] ?? m));
      } else if (indexed) {
        const who = counted[Number(indexed[1])]?.who;
        if (who) add(out.predicate[who], indexed[2] ?? m);
        else add(out.other, m);
      } else add(out.other, m);
    }
  }
  // The same predicate refused by both queries, in slightly different words: keep the first.
  for (const who of WHO) out.predicate[who] = out.predicate[who].slice(0, 1);
  return out;
}
