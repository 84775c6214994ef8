/**
 * SQL evaluation of a bound expression on one JS row, with three-valued logic: for small sets of
 * rows in the browser, where running DuckDB is not worth it.
 *
 * Values, in and out: NULL is `null` (a missing key reads as NULL); numbers are JS numbers (a
 * bigint or numeric string in a numeric column is converted, exactly up to 2^53); strings and
 * booleans are themselves; a date is its 'YYYY-MM-DD' text; a timestamp is a bigint of
 * microseconds since 1970-01-01 00:00:00. Rows may also give a date or timestamp as a JS Date, a
 * date as a number of days since the epoch, and a timestamp as text in the Delta log's forms.
 * Time zones are read as UTC: CAST(instant AS DATE) takes the UTC day, which matches DuckDB when
 * the session TimeZone is UTC.
 */
import type { ArithOp, CastTarget, Column, CompareOp, Expr, FunctionName } from './ast';
import { ExpressionError } from './errors';
import { dateToTimestamp, daysToDate, formatTimestamp, parseDate, parseTimestamp, timestampToDate } from './time';
import { compareScalars, roundHalfAway, type Scalar } from './values';

const MS_PER_DAY = 86_400_000;

function badValue(col: Column, raw: unknown): never {
  throw new TypeError(
    `row value ${String(raw)} (${typeof raw}) does not fit column '${col.name}' of type ${col.sqlType}`,
  );
}

/** A row's value in the representation described above. */
function readColumn(col: Column, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (col.sqlType) {
    case 'number':
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'bigint' || (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)))) {
        return Number(raw);
      }
      return badValue(col, raw);
    case 'string':
    case 'boolean':
      return typeof raw === col.sqlType ? raw : badValue(col, raw);
    case 'date':
      if (raw instanceof Date) return daysToDate(Math.floor(raw.getTime() / MS_PER_DAY));
      if (typeof raw === 'number') return daysToDate(raw);
      return (typeof raw === 'string' && parseDate(raw)) || badValue(col, raw);
    case 'timestamp':
      if (typeof raw === 'bigint') return raw;
      if (raw instanceof Date) return BigInt(raw.getTime()) * 1000n;
      return (typeof raw === 'string' ? parseTimestamp(raw)?.micros : undefined) ?? badValue(col, raw);
    default:
      // Binary and nested values are only ever tested with IS NULL.
      return raw;
  }
}

function number(v: unknown): number {
  if (typeof v !== 'number') throw new TypeError(`expected a number, got ${String(v)}`);
  return v;
}

function compareValues(a: unknown, b: unknown): number {
  const order = compareScalars(a as Scalar, b as Scalar);
  if (order === undefined) throw new TypeError(`cannot compare ${String(a)} with ${String(b)}`);
  return order;
}

function holds(op: CompareOp, order: number): boolean {
  switch (op) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

function compare(op: CompareOp, a: unknown, b: unknown): boolean | null {
  return a === null || b === null ? null : holds(op, compareValues(a, b));
}

function and(a: unknown, b: unknown): boolean | null {
  if (a === false || b === false) return false;
  return a === null || b === null ? null : true;
}

function not(a: unknown): boolean | null {
  return a === null ? null : !a;
}

/** DuckDB's `/` is floating-point division; dividing by zero yields NULL rather than an error. */
function arith(op: ArithOp, a: number, b: number): number | null {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0 ? null : a / b;
    case '%':
      return b === 0 ? null : a % b;
  }
}

function parseNumber(s: string, to: CastTarget): number {
  const n = Number(s.trim());
  if (s.trim() === '' || !Number.isFinite(n)) throw new ExpressionError(`could not convert '${s}' to ${to}`);
  return n;
}

function castNumber(n: number, to: CastTarget): number {
  if (to === 'long' || to === 'integer') return roundHalfAway(n, 0);
  const scale = /^decimal\(\d+,(\d+)\)$/.exec(to)?.[1];
  return scale === undefined ? n : roundHalfAway(n, Number(scale));
}

function castValue(v: unknown, to: CastTarget): unknown {
  if (v === null) return null;
  switch (to) {
    case 'string':
      return typeof v === 'bigint' ? formatTimestamp(v) : String(v);
    case 'date':
      if (typeof v === 'bigint') return timestampToDate(v);
      if (parseDate(String(v))) return v;
      throw new ExpressionError(`could not convert '${String(v)}' to date`);
    case 'timestamp_ntz': {
      if (typeof v === 'bigint') return v;
      const s = String(v);
      const date = parseDate(s);
      if (date) return dateToTimestamp(date);
      const ts = parseTimestamp(s);
      if (ts) return ts.micros;
      throw new ExpressionError(`could not convert '${s}' to timestamp`);
    }
    default:
      return castNumber(typeof v === 'string' ? parseNumber(v, to) : number(v), to);
  }
}

/** The value of `expr` on `row`, keyed by canonical column name; see the module comment for types. */
export function evaluate(expr: Expr, row: Record<string, unknown>): unknown {
  const ev = (e: Expr): unknown => evaluate(e, row);
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'column':
      return readColumn(expr, row[expr.name]);
    case 'negate': {
      const v = ev(expr.operand);
      return v === null ? null : -number(v);
    }
    case 'arith': {
      const a = ev(expr.left);
      const b = ev(expr.right);
      return a === null || b === null ? null : arith(expr.op, number(a), number(b));
    }
    case 'compare':
      return compare(expr.op, ev(expr.left), ev(expr.right));
    case 'logical': {
      // FALSE decides an AND and TRUE an OR whatever else is NULL, so stop at the first.
      const decisive = expr.op === 'OR';
      let sawNull = false;
      for (const operand of expr.operands) {
        const v = ev(operand);
        if (v === decisive) return decisive;
        if (v === null) sawNull = true;
      }
      return sawNull ? null : !decisive;
    }
    case 'not':
      return not(ev(expr.operand));
    case 'isNull':
      return (ev(expr.operand) === null) !== expr.negated;
    case 'isBool':
      return (ev(expr.operand) === expr.value) !== expr.negated;
    case 'in': {
      const v = ev(expr.operand);
      if (v === null) return null;
      if (expr.list.some((l) => l.value !== null && compareValues(v, l.value) === 0)) return !expr.negated;
      return expr.list.some((l) => l.value === null) ? null : expr.negated;
    }
    case 'between': {
      const v = ev(expr.operand);
      const inside = and(compare('>=', v, expr.low.value), compare('<=', v, expr.high.value));
      return expr.negated ? not(inside) : inside;
    }
    case 'cast':
      return castValue(ev(expr.operand), expr.to);
    case 'call':
      return call(expr.fn, expr.args.map(ev));
  }
}

function call(fn: FunctionName, args: unknown[]): unknown {
  if (fn === 'coalesce') return args.find((a) => a !== null) ?? null;
  const [x, digits] = args;
  if (x === null) return null;
  switch (fn) {
    case 'abs':
      return Math.abs(number(x));
    case 'round':
      return roundHalfAway(number(x), digits === undefined ? 0 : number(digits));
    case 'lower':
      return String(x).toLowerCase();
    case 'upper':
      return String(x).toUpperCase();
  }
}
