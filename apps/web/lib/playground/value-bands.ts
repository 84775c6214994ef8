/**
 * Bands of a column's values for "your table"'s heatmap, and which files may hold each: a file's range of the
 * column comes from its partition value or its min/max stats, ordered as the column's type orders.
 */
import { formatCount, type HeatmapColumn, statAt } from './heatmap';
import type { SchemaColumn } from './schema-columns';

export type Value = number | string;

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

export function valueText(type: string, v: Value): string {
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
  const one = (v: Value): Band => ({ label: valueText(column.type, v), lo: v, hi: v, closed: true });
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
        return { label: `${valueText(column.type, a)}..${valueText(column.type, b)}`, lo: a, hi: b, closed: true };
      });
    }
    const width = (hi - lo) / MAX_BANDS;
    return Array.from({ length: MAX_BANDS }, (_, i) => {
      const a = lo + i * width;
      const b = i === MAX_BANDS - 1 ? hi : lo + (i + 1) * width;
      return {
        label: `${valueText(column.type, a)}..${valueText(column.type, b)}`,
        lo: a,
        hi: b,
        closed: i === MAX_BANDS - 1,
      };
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
    return { label: `${valueText(column.type, a)}..${valueText(column.type, b)}`, lo: a, hi: b, closed: last };
  });
}

/** Whether a file whose stats say `r` may hold a value of `band` (null: no stats, so it may hold any). */
export function overlaps(r: FileRange | null, band: Band): boolean {
  if (r === null) return true;
  const belowTop = band.closed ? !less(band.hi, r.min) : less(r.min, band.hi);
  return belowTop && !less(r.max, band.lo);
}
