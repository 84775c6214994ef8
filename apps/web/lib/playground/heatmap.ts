/**
 * The one picture of a table's files the playground draws, pure (no React): one column per data file
 * (grouped by partition), one row per thing counted in each file, a cell's colour its rows on a log scale.
 * The lab tables' map (lab-heatmap.ts; rows: VendorID values, counted from the data) and "your table"'s map
 * (your-table.ts; rows: bands of the chosen column's values from the files' stats, then the writers' matches
 * from the data) are both built by heatmapOfFiles and drawn by the one component
 * (components/playground/heatmap.tsx).
 */

/** A file as a tableLayout query gives it; the fields the picture reads. */
export interface HeatmapFile {
  path: string;
  rows: number;
  partitionValues: readonly { key: string; value: string | null }[];
  minValues: string;
  maxValues: string;
}

export interface HeatmapColumn {
  /** 1-based, in the layout's order (by path). */
  number: number;
  path: string;
  /** `VendorID=2` for a partitioned file, '' otherwise. */
  partition: string;
  partitionValues: Record<string, string | null>;
  rows: number;
  minValues: Record<string, unknown>;
  maxValues: Record<string, unknown>;
}

export interface HeatmapGroup {
  partition: string;
  /** 0-based index of its first column, and how many. */
  start: number;
  count: number;
}

/** `count`: rows of the table counted per file (blue); `match`: rows a writer's predicate matches (orange). */
export type HeatmapTone = 'count' | 'match';

export interface HeatmapRow {
  key: string;
  label: string;
  tone: HeatmapTone;
  /** One number per column (rows), and the tooltip of each cell. */
  cells: number[];
  titles: string[];
}

export interface HeatmapPicture {
  columns: HeatmapColumn[];
  groups: HeatmapGroup[];
  rows: HeatmapRow[];
  /** The largest cell: one log scale for the whole picture, so colours compare across rows. */
  max: number;
}

const partitionLabel = (pairs: HeatmapFile['partitionValues']) =>
  pairs.map((p) => `${p.key}=${p.value === null || p.value === '' ? 'null' : p.value}`).join('/');

export const jsonObject = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export function fileColumns(files: readonly HeatmapFile[]): HeatmapColumn[] {
  return files.map((f, i) => ({
    number: i + 1,
    path: f.path,
    partition: partitionLabel(f.partitionValues),
    partitionValues: Object.fromEntries(f.partitionValues.map((p) => [p.key, p.value])),
    rows: f.rows,
    minValues: jsonObject(f.minValues),
    maxValues: jsonObject(f.maxValues),
  }));
}

/** Runs of neighbouring columns in the same partition. */
function partitionGroups(columns: readonly HeatmapColumn[]): HeatmapGroup[] {
  const groups: HeatmapGroup[] = [];
  columns.forEach((c, i) => {
    const last = groups[groups.length - 1];
    if (last && last.partition === c.partition) last.count++;
    else groups.push({ partition: c.partition, start: i, count: 1 });
  });
  return groups;
}

const largestCell = (rows: readonly HeatmapRow[]): number =>
  rows.reduce((m, r) => r.cells.reduce((a, b) => Math.max(a, b), m), 0);

/** The picture of `columns` with `rows` counted in them: partition groups, and one scale for every cell. */
export function heatmapPicture<C extends HeatmapColumn>(
  columns: C[],
  rows: HeatmapRow[],
): HeatmapPicture & { columns: C[] } {
  return { columns, groups: partitionGroups(columns), rows, max: largestCell(rows) };
}

const fileCount = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** "9 files", or "9 files in 3 partitions" when the picture's files are partitioned. */
export function filesText(picture: Pick<HeatmapPicture, 'columns' | 'groups'>): string {
  const parted = picture.groups.filter((g) => g.partition !== '').length;
  const n = fileCount(picture.columns.length);
  return parted > 0 ? `${n} in ${parted} partition${parted === 1 ? '' : 's'}` : n;
}

/** 0 for an empty cell, else from 0.12 (one row) to 1 (the largest cell), on a log scale. */
export function cellIntensity(rows: number, max: number): number {
  if (rows <= 0 || max <= 0) return 0;
  if (max === 1) return 1;
  return 0.12 + 0.88 * (Math.log(rows) / Math.log(max));
}

const EMPTY_RGB = [255, 255, 255] as const;
const FULL_RGB: Record<HeatmapTone, readonly number[]> = { count: [20, 54, 140], match: [184, 74, 12] };

/** The cell colour: white when empty, deeper blue (or orange, for matches) with more rows. */
export function cellColor(rows: number, max: number, tone: HeatmapTone = 'count'): string {
  const t = cellIntensity(rows, max);
  const full = FULL_RGB[tone];
  const mix = EMPTY_RGB.map((e, i) => Math.round(e + ((full[i] ?? e) - e) * t));
  return `rgb(${mix.join(', ')})`;
}

/** Two significant digits: 13,235 → 13,000. */
const roughly = (n: number) => {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
};

/** The legend's steps: 0, 1, then counts spread on the same log scale, ending at the largest cell. */
export function legendSteps(max: number, steps = 4): number[] {
  if (max <= 0) return [0];
  const out = [0, 1];
  for (let k = 1; k <= steps; k++) {
    const n = k === steps ? max : roughly(max ** (k / steps));
    if (n > (out[out.length - 1] ?? 0)) out.push(n);
  }
  return out;
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** "1–7", "1, 3–5, 9": file numbers as ranges. */
export function numberRanges(numbers: readonly number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    const start = sorted[i] as number;
    let end = start;
    while (i + 1 < sorted.length && sorted[i + 1] === end + 1) end = sorted[++i] as number;
    parts.push(start === end ? `${start}` : `${start}–${end}`);
    i++;
  }
  return parts.join(', ');
}

/** The numbers of the columns whose cell in `row` is not empty. */
export const filesWith = (row: HeatmapRow, columns: readonly HeatmapColumn[]): number[] =>
  columns.filter((_, i) => (row.cells[i] ?? 0) > 0).map((c) => c.number);

/** A value of a stats object by a column's dotted path (stats nest struct fields). */
export function statAt(values: Record<string, unknown>, path: string): unknown {
  let at: unknown = values;
  for (const part of path.split('.')) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** A file's min..max of `column` as its stats say, its partition value, or 'no stats'. */
export function statsRange(c: HeatmapColumn, column: string): string {
  if (column in c.partitionValues) return c.partition;
  const min = statAt(c.minValues, column);
  const max = statAt(c.maxValues, column);
  if (min === undefined || max === undefined) return 'no stats';
  return `${String(min)}..${String(max)}`;
}
