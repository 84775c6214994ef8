/**
 * File pruning from Delta `add` metadata: partition values and min/max/nullCount statistics.
 *
 * The key insight: pruning answers only "could this file hold a row that matches?", never "does
 * it?". Statistics bound a column; they do not enumerate it. A file whose VendorID has min 1 and
 * max 7 may or may not contain a 6, so `VendorID = 6` cannot exclude it, and nothing here can prove
 * that an update of VendorID 6 leaves that file alone. Only a file whose range misses 6 entirely
 * (min 1, max 2) is provably untouched. A false answer is a proof; a true answer is a shrug.
 *
 * The method is abstract interpretation over the file's rows: each scalar expression becomes a
 * range (bounds on its non-null values, plus whether NULL and non-NULL values may occur), each
 * condition becomes the set of truth values it may take on some row (TRUE, FALSE, NULL), and a
 * file is kept unless TRUE is impossible. Anything not understood is "unknown", which keeps it.
 */
import type { Column, CompareOp, Expr, SqlType } from './ast';
import { dateToTimestamp, MICROS_PER_DAY, parseDate, parseTimestamp, timestampToDate } from './date-time';
import { compareScalars, type Scalar } from './value-order';

export interface FileStatsView {
  /** Raw strings from the Delta log; null is a null partition. */
  partitionValues: Record<string, string | null>;
  numRecords?: number;
  /**
   * JSON stats as in Delta `add.stats`: numbers and strings; timestamps as text,
   * '2025-01-01 00:00:09.071191' (timestamp_ntz) or '2025-01-01T00:00:00.000Z' (timestamp);
   * dates 'YYYY-MM-DD'.
   */
  minValues?: Record<string, unknown>;
  maxValues?: Record<string, unknown>;
  nullCount?: Record<string, number>;
}

/** What the values of an expression may be across a file's rows. Absent bounds are unknown. */
interface Range {
  mayBeNull: boolean;
  mayBeNonNull: boolean;
  lo?: Scalar;
  hi?: Scalar;
}

const UNKNOWN: Range = { mayBeNull: true, mayBeNonNull: true };

/** The truth values a condition may take on some row. */
interface Truth {
  t: boolean;
  f: boolean;
  n: boolean;
}

/** delta-rs truncates string statistics to this many characters. */
const STRING_STATS_PREFIX = 32;
/** Timestamp statistics may be truncated to milliseconds: a max so written may hide 999 more µs. */
const MILLIS_SLACK = 999n;

/**
 * Returns false only when `file` provably holds no row on which `expr` is TRUE (rows where it is
 * NULL do not match). Column names in the stats and partition values are the canonical names.
 */
export function canMatch(expr: Expr, file: FileStatsView): boolean {
  if (file.numRecords === 0) return false;
  return truthOf(rangeOf(expr, file)).t;
}

function truthOf(r: Range): Truth {
  return { t: r.mayBeNonNull && r.hi !== false, f: r.mayBeNonNull && r.lo !== true, n: r.mayBeNull };
}

function fromTruth({ t, f, n }: Truth): Range {
  return { mayBeNull: n, mayBeNonNull: t || f, lo: !f, hi: t };
}

function rangeOf(e: Expr, file: FileStatsView): Range {
  switch (e.kind) {
    case 'literal':
      return e.value === null ? { mayBeNull: true, mayBeNonNull: false } : point(e.value);
    case 'column':
      return columnRange(e, file);
    case 'compare':
      return fromTruth(compareRanges(e.op, rangeOf(e.left, file), rangeOf(e.right, file)));
    case 'logical':
      return fromTruth(e.operands.map((o) => truthOf(rangeOf(o, file))).reduce(e.op === 'AND' ? and : or));
    case 'not':
      return fromTruth(not(truthOf(rangeOf(e.operand, file))));
    case 'isNull': {
      const r = rangeOf(e.operand, file);
      return fromTruth(negateIf(e.negated, { t: r.mayBeNull, f: r.mayBeNonNull, n: false }));
    }
    case 'isBool': {
      const x = truthOf(rangeOf(e.operand, file));
      const is = e.value ? x.t : x.f;
      return fromTruth(negateIf(e.negated, { t: is, f: x.n || (e.value ? x.f : x.t), n: false }));
    }
    case 'in': {
      const r = rangeOf(e.operand, file);
      const any = e.list.map((l) => compareRanges('=', r, rangeOf(l, file))).reduce(or);
      return fromTruth(negateIf(e.negated, any));
    }
    case 'between': {
      const r = rangeOf(e.operand, file);
      const inside = and(compareRanges('>=', r, rangeOf(e.low, file)), compareRanges('<=', r, rangeOf(e.high, file)));
      return fromTruth(negateIf(e.negated, inside));
    }
    case 'cast':
      return castRange(e.operand, e.sqlType, rangeOf(e.operand, file));
    default:
      // Arithmetic and function results are not tracked.
      return UNKNOWN;
  }
}

function point(v: Scalar): Range {
  return { mayBeNull: false, mayBeNonNull: true, lo: v, hi: v };
}

function and(a: Truth, b: Truth): Truth {
  return { t: a.t && b.t, f: a.f || b.f, n: a.n || b.n };
}

function or(a: Truth, b: Truth): Truth {
  return { t: a.t || b.t, f: a.f && b.f, n: a.n || b.n };
}

function not(a: Truth): Truth {
  return { t: a.f, f: a.t, n: a.n };
}

function negateIf(negated: boolean, a: Truth): Truth {
  return negated ? not(a) : a;
}

/** Whether some value of `a` may lie below (or, unless strict, at) some value of `b`. */
function mayBeBelow(a: Range, b: Range, strict: boolean): boolean {
  if (a.lo === undefined || b.hi === undefined) return true;
  const order = compareScalars(a.lo, b.hi);
  return order === undefined || (strict ? order < 0 : order <= 0);
}

/** Whether every value on both sides is one and the same constant. */
function allEqual(a: Range, b: Range): boolean {
  const bounds = [a.lo, a.hi, b.lo, b.hi];
  const [first] = bounds;
  return bounds.every((v) => v !== undefined && first !== undefined && compareScalars(v, first) === 0);
}

function compareRanges(op: CompareOp, a: Range, b: Range): Truth {
  const n = a.mayBeNull || b.mayBeNull;
  if (!a.mayBeNonNull || !b.mayBeNonNull) return { t: false, f: false, n };
  const mayEqual = mayBeBelow(a, b, false) && mayBeBelow(b, a, false);
  const mayDiffer = !allEqual(a, b);
  switch (op) {
    case '=':
      return { t: mayEqual, f: mayDiffer, n };
    case '<>':
      return { t: mayDiffer, f: mayEqual, n };
    case '<':
      return { t: mayBeBelow(a, b, true), f: mayBeBelow(b, a, false), n };
    case '<=':
      return { t: mayBeBelow(a, b, false), f: mayBeBelow(b, a, true), n };
    case '>':
      return { t: mayBeBelow(b, a, true), f: mayBeBelow(a, b, false), n };
    case '>=':
      return { t: mayBeBelow(b, a, false), f: mayBeBelow(a, b, true), n };
  }
}

/**
 * Casts that preserve order map bounds to bounds: timestamp to date (the day), date to timestamp
 * (midnight), and a type to itself. A Delta `timestamp` is an instant whose day DuckDB takes in
 * the session's time zone, so its bounds are widened by a day either way to hold in any zone.
 */
function castRange(operand: Expr, to: SqlType, r: Range): Range {
  const from = operand.sqlType;
  const temporal = (t: SqlType): boolean => t === 'date' || t === 'timestamp';
  // Number casts round, and casts to or from strings reorder values: neither keeps bounds.
  if (!((from === to && from !== 'number') || (temporal(from) && temporal(to)))) return UNKNOWN;
  const slack = operand.kind === 'column' && operand.type === 'timestamp' ? MICROS_PER_DAY : 0n;
  const bound = (v: Scalar | undefined, sign: bigint): Scalar | undefined => {
    if (typeof v === 'bigint' && from === 'timestamp') {
      const shifted = v + sign * slack;
      return to === 'date' ? timestampToDate(shifted) : shifted;
    }
    if (typeof v === 'string' && from === 'date' && to === 'timestamp') return dateToTimestamp(v);
    return v;
  };
  return { ...r, lo: bound(r.lo, -1n), hi: bound(r.hi, 1n) };
}

function columnRange(col: Column, file: FileStatsView): Range {
  if (Object.hasOwn(file.partitionValues, col.name)) {
    const raw = file.partitionValues[col.name];
    if (raw === null || raw === undefined) return { mayBeNull: true, mayBeNonNull: false };
    // Spark writes an empty partition value for NULL, so '' may stand for either.
    if (raw === '') return col.sqlType === 'string' ? { ...point(''), mayBeNull: true } : UNKNOWN;
    return partitionRange(col, raw);
  }
  const nulls = file.nullCount?.[col.name];
  return {
    mayBeNull: typeof nulls === 'number' ? nulls > 0 : true,
    mayBeNonNull: typeof nulls === 'number' && typeof file.numRecords === 'number' ? nulls < file.numRecords : true,
    lo: statBound(col, file.minValues?.[col.name], 'min'),
    hi: statBound(col, file.maxValues?.[col.name], 'max'),
  };
}

/** A zone after the time of day: 'Z', '+01', '-0530', '+05:30'. */
const ZONE_SUFFIX = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/;

/** A partition value is exact, typed per the column: the file holds that one value. */
function partitionRange(col: Column, raw: string): Range {
  const exact = (v: Scalar | null | undefined): Range => (v === null || v === undefined ? UNKNOWN : point(v));
  switch (col.sqlType) {
    case 'number': {
      const n = Number(raw);
      return exact(Number.isNaN(n) ? undefined : n);
    }
    case 'string':
      return point(raw);
    case 'boolean':
      return exact(raw === 'true' ? true : raw === 'false' ? false : undefined);
    case 'date':
      return exact(parseDate(raw));
    case 'timestamp': {
      const ts = parseTimestamp(raw);
      if (!ts) return UNKNOWN;
      // A zone-less value of an instant column may have been written in the writer's session
      // time zone (Spark does), so it is only known to within a day.
      const slack = col.type === 'timestamp' && !ZONE_SUFFIX.test(raw.slice(10)) ? MICROS_PER_DAY : 0n;
      return { mayBeNull: false, mayBeNonNull: true, lo: ts.micros - slack, hi: ts.micros + slack };
    }
    default:
      return UNKNOWN;
  }
}

/** A statistic as a bound that truly holds for every non-null value, or undefined. */
function statBound(col: Column, v: unknown, which: 'min' | 'max'): Scalar | undefined {
  switch (col.sqlType) {
    case 'number':
      // A float max is used as delta-rs's DataFusion pruning uses it, although Parquet leaves NaN
      // out of float statistics: the conflict checker must judge files exactly as delta-rs does.
      return typeof v === 'number' ? v : undefined;
    case 'string':
      // A long string statistic may be a truncated prefix: still a lower bound, not an upper one.
      if (typeof v !== 'string') return undefined;
      return which === 'max' && [...v].length >= STRING_STATS_PREFIX ? undefined : v;
    case 'boolean':
      return typeof v === 'boolean' ? v : undefined;
    case 'date':
      return typeof v === 'string' ? (parseDate(v) ?? undefined) : undefined;
    case 'timestamp': {
      const ts = typeof v === 'string' ? parseTimestamp(v) : null;
      if (!ts) return undefined;
      return which === 'max' && ts.fractionDigits <= 3 ? ts.micros + MILLIS_SLACK : ts.micros;
    }
    default:
      return undefined;
  }
}
