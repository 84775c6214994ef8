/**
 * Binding: resolving column names against the table schema and building type-checked nodes. The
 * parser calls these constructors as it reads, so a tree that exists is a tree that checked. Types
 * follow DuckDB's implicit casts where they are unsurprising (a string literal compared with a date
 * column is a date) and refuse the rest (a string column compared with a number).
 */
import {
  type DeltaType,
  decimalParts,
  deltaToDuckType,
  type PrimitiveTypeName,
  type StructField,
  type StructType,
} from '../delta/protocol/schema';
import {
  type ArithOp,
  type CastTarget,
  type Column,
  type CompareOp,
  columnsOf,
  type DateLiteral,
  type Expr,
  type FunctionName,
  type Literal,
  type NumberLiteral,
  type SqlType,
  type TimestampLiteral,
} from './ast';
import { dateToTimestamp, parseDate, parseTimestamp } from './date-time';
import { fail } from './errors';
import { renderExpression } from './render';

/** What binding needs to know: the table's fields, and what the text is, for messages. */
export interface Scope {
  readonly fields: readonly StructField[];
  readonly what: string;
  /**
   * No schema is known (a syntax check): every name binds as a column of unknown type, typed as NULL
   * is, which every operator accepts, so only what is wrong whatever the columns are is refused.
   */
  readonly untyped?: boolean;
}

const PRIMITIVE_SQL_TYPES: Record<PrimitiveTypeName, SqlType> = {
  string: 'string',
  long: 'number',
  integer: 'number',
  short: 'number',
  byte: 'number',
  float: 'number',
  double: 'number',
  boolean: 'boolean',
  binary: 'binary',
  date: 'date',
  timestamp: 'timestamp',
  timestamp_ntz: 'timestamp',
};

export function sqlTypeOf(t: DeltaType): SqlType {
  if (typeof t !== 'string') return 'complex';
  return decimalParts(t) ? 'number' : PRIMITIVE_SQL_TYPES[t as PrimitiveTypeName];
}

/** Types with an order, which comparisons, IN, BETWEEN and coalesce accept. */
const ORDERED: readonly SqlType[] = ['number', 'string', 'boolean', 'date', 'timestamp', 'null'];

function describe(e: Expr): string {
  return `'${renderExpression(e)}' (${e.sqlType})`;
}

/**
 * The field named `name`, compared exactly: delta-rs 1.6 parses predicates with DataFusion's
 * identifier normalisation off, so an unquoted `VendorId` or `vendorid` is a name of its own and no
 * column of a table whose column is `VendorID`. A name that differs from columns only in case is
 * refused like any unknown one, with those columns named.
 */
function lookup(name: string, fields: readonly StructField[], where: string, pos?: number): StructField {
  const exact = fields.find((f) => f.name === name);
  if (exact) return exact;
  const at = pos === undefined ? '' : ` at position ${pos}`;
  const lower = name.toLowerCase();
  const cased = fields.filter((f) => f.name.toLowerCase() === lower).map((f) => `'${f.name}'`);
  const hint =
    cased.length === 0 ? '' : ` (column names are case-sensitive, as in delta-rs: did you mean ${cased.join(' or ')}?)`;
  fail(`unknown column '${name}'${at} in ${where}${hint}; columns are: ${fields.map((f) => f.name).join(', ')}`, pos);
}

/** A name written in double quotes, a doubled quote standing for one, as in a predicate. */
const QUOTED_NAME = /^"((?:[^"]|"")*)"$/;

/**
 * The schema's top-level field for a user-written name (an update's target column, a merge key):
 * the exact name, or the exact name double-quoted (`"VendorID"`), as delta-rs takes an update's
 * column names. Case counts, as in predicates.
 */
export function resolveColumn(schema: StructType, name: string): StructField {
  const quoted = QUOTED_NAME.exec(name)?.[1];
  const unquoted =
    quoted === undefined || schema.fields.some((f) => f.name === name) ? name : quoted.replaceAll('""', '"');
  return lookup(unquoted, schema.fields, 'schema');
}

export function column(name: string, pos: number, scope: Scope): Column {
  // The Delta type is a placeholder: an untyped expression is only checked, never rendered or pruned with.
  if (scope.untyped) return { kind: 'column', name, type: 'string', sqlType: 'null', pos };
  const f = lookup(name, scope.fields, scope.what, pos);
  return { kind: 'column', name: f.name, type: f.type, sqlType: sqlTypeOf(f.type), pos };
}

export function numberLiteral(text: string, pos: number): NumberLiteral {
  const value = Number(text);
  if (!Number.isFinite(value)) fail(`number out of range: '${text}' at position ${pos}`, pos);
  // Integers beyond 2^53 keep their digits, so a BIGINT constant reaches DuckDB unrounded.
  const exact = /^\d+$/.test(text) && !Number.isSafeInteger(value);
  return { kind: 'literal', sqlType: 'number', value, text: exact ? text.replace(/^0+/, '') : String(value), pos };
}

export function dateLiteral(text: string, pos: number): DateLiteral {
  const value = parseDate(text);
  if (value === null) fail(`invalid date '${text}' at position ${pos}; expected 'YYYY-MM-DD'`, pos);
  return { kind: 'literal', sqlType: 'date', value, pos };
}

export function timestampLiteral(text: string, pos: number, utc = false): TimestampLiteral {
  const parsed = parseTimestamp(text);
  if (!parsed) fail(`invalid timestamp '${text}' at position ${pos}; expected 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]'`, pos);
  return { kind: 'literal', sqlType: 'timestamp', value: parsed.micros, utc, pos };
}

/** A Delta `timestamp` (an instant, DuckDB TIMESTAMPTZ) rather than a wall-clock timestamp_ntz. */
function zoned(e: Expr): boolean {
  return (
    (e.kind === 'column' && e.type === 'timestamp') || (e.kind === 'literal' && e.sqlType === 'timestamp' && e.utc)
  );
}

/**
 * `e` retyped to meet `other`, when `e` is a literal DuckDB would cast implicitly: a string as a
 * date or timestamp, a date as midnight, a wall-clock timestamp as UTC next to an instant column.
 * Undefined when no retyping applies.
 */
function coerceLiteral(e: Expr, other: Expr): Literal | undefined {
  if (e.kind !== 'literal') return undefined;
  if (other.sqlType === 'date' && e.sqlType === 'string') return dateLiteral(e.value, e.pos);
  if (other.sqlType !== 'timestamp') return undefined;
  const utc = zoned(other);
  if (e.sqlType === 'string') return timestampLiteral(e.value, e.pos, utc);
  if (e.sqlType === 'date')
    return { kind: 'literal', sqlType: 'timestamp', value: dateToTimestamp(e.value), utc, pos: e.pos };
  if (e.sqlType === 'timestamp' && utc && !e.utc) return { ...e, utc };
  return undefined;
}

/** A date widened to a timestamp at midnight, as DuckDB does when comparing the two. */
function toTimestamp(e: Expr): Expr {
  if (e.kind === 'literal' && e.sqlType === 'date') {
    return { kind: 'literal', sqlType: 'timestamp', value: dateToTimestamp(e.value), utc: false, pos: e.pos };
  }
  return { kind: 'cast', operand: e, to: 'timestamp_ntz', sqlType: 'timestamp', pos: e.pos };
}

function comparable(left: Expr, right: Expr, token: string, pos: number): [Expr, Expr] {
  let l = coerceLiteral(left, right) ?? left;
  let r = coerceLiteral(right, l) ?? right;
  if (l.sqlType === 'date' && r.sqlType === 'timestamp') l = toTimestamp(l);
  if (r.sqlType === 'date' && l.sqlType === 'timestamp') r = toTimestamp(r);
  const sameType = l.sqlType === r.sqlType || l.sqlType === 'null' || r.sqlType === 'null';
  if (!sameType || !ORDERED.includes(l.sqlType) || !ORDERED.includes(r.sqlType)) {
    fail(`cannot compare ${describe(l)} with ${describe(r)} at '${token}' (position ${pos})`, pos);
  }
  // DuckDB would convert between an instant and a wall-clock time in the session's time zone,
  // which pruning cannot know; literals are pinned to UTC above instead.
  const bothTimestamps = l.sqlType === 'timestamp' && r.sqlType === 'timestamp';
  if (bothTimestamps && l.kind !== 'literal' && r.kind !== 'literal' && zoned(l) !== zoned(r)) {
    fail(
      `cannot compare ${describe(l)} with ${describe(r)} at '${token}' (position ${pos}): one is a timestamp with time zone and the other is not`,
      pos,
    );
  }
  return [l, r];
}

function requireType(e: Expr, type: SqlType, token: string, pos: number): void {
  if (e.sqlType !== type && e.sqlType !== 'null') {
    fail(`'${token}' at position ${pos} needs ${type} operands, but ${describe(e)} is not`, pos);
  }
}

export function negate(operand: Expr, pos: number): Expr {
  if (operand.kind === 'literal' && operand.sqlType === 'number') {
    const text = operand.value === 0 ? '0' : operand.text.startsWith('-') ? operand.text.slice(1) : `-${operand.text}`;
    return { ...operand, value: -operand.value, text, pos };
  }
  requireType(operand, 'number', '-', pos);
  return { kind: 'negate', operand, sqlType: 'number', pos };
}

export function arith(op: ArithOp, left: Expr, right: Expr, pos: number): Expr {
  requireType(left, 'number', op, pos);
  requireType(right, 'number', op, pos);
  return { kind: 'arith', op, left, right, sqlType: 'number', pos };
}

export function compare(op: CompareOp, left: Expr, right: Expr, token: string, pos: number): Expr {
  const [l, r] = comparable(left, right, token, pos);
  return { kind: 'compare', op, left: l, right: r, sqlType: 'boolean', pos };
}

export function logical(op: 'AND' | 'OR', operands: Expr[], pos: number): Expr {
  for (const e of operands) requireType(e, 'boolean', op, pos);
  return { kind: 'logical', op, operands, sqlType: 'boolean', pos };
}

export function not(operand: Expr, pos: number): Expr {
  requireType(operand, 'boolean', 'NOT', pos);
  return { kind: 'not', operand, sqlType: 'boolean', pos };
}

export function isNull(operand: Expr, negated: boolean, pos: number): Expr {
  return { kind: 'isNull', operand, negated, sqlType: 'boolean', pos };
}

export function isBool(operand: Expr, value: boolean, negated: boolean, pos: number): Expr {
  requireType(operand, 'boolean', 'IS', pos);
  return { kind: 'isBool', operand, value, negated, sqlType: 'boolean', pos };
}

/** The operand and literals of IN / BETWEEN made comparable, literals staying literals. */
function literalsFor(operand: Expr, literals: Literal[], token: string, pos: number): [Expr, Literal[]] {
  const op =
    operand.sqlType === 'date' && literals.some((l) => l.sqlType === 'timestamp') ? toTimestamp(operand) : operand;
  const coerced = literals.map((l) => coerceLiteral(l, op) ?? l);
  for (const l of coerced) comparable(op, l, token, pos);
  return [op, coerced];
}

export function inList(operand: Expr, list: Literal[], negated: boolean, pos: number): Expr {
  const [op, items] = literalsFor(operand, list, 'IN', pos);
  return { kind: 'in', operand: op, list: items, negated, sqlType: 'boolean', pos };
}

export function between(operand: Expr, low: Literal, high: Literal, negated: boolean, pos: number): Expr {
  const [op, [lo, hi]] = literalsFor(operand, [low, high], 'BETWEEN', pos);
  return { kind: 'between', operand: op, low: lo ?? low, high: hi ?? high, negated, sqlType: 'boolean', pos };
}

function castable(from: SqlType, to: SqlType): boolean {
  if (from === 'binary' || from === 'complex') return false;
  if (from === to || from === 'null' || from === 'string' || to === 'string') return true;
  return (from === 'date' || from === 'timestamp') && (to === 'date' || to === 'timestamp');
}

/** The digits a DECIMAL needs before its point to hold every value of an integer type. */
const INTEGER_DIGITS: Partial<Record<string, number>> = { byte: 3, short: 5, integer: 10, long: 19 };
/** Digits before the point that every value of an integer CAST target can take (INTEGER holds 999,999,999). */
const TARGET_DIGITS: Partial<Record<string, number>> = { integer: 9, long: 18 };
/** DuckDB's round() takes its digits as an INTEGER. */
const ROUND_DIGITS = { min: -2_147_483_648, max: 2_147_483_647 };

/**
 * Whether every value of numeric type `from` converts to `to` without an error. `from` is undefined
 * for a computed number, whose DuckDB type the binder does not track: it counts as a double.
 * Integer types only widen; a DECIMAL or integer target needs room for every digit the source has
 * before its point (a DECIMAL one more when the cast rounds fraction digits away: 9.995 as
 * DECIMAL(3,2) is 10.00); a floating-point value fits no integer or DECIMAL (1e300, NaN, infinity).
 */
function numberFits(from: DeltaType | undefined, to: CastTarget): boolean {
  if (to === 'double' || to === 'string') return true;
  const target = decimalParts(to);
  const room = target ? target.precision - target.scale : (TARGET_DIGITS[to] ?? 0);
  const fromName = typeof from === 'string' ? from : '';
  const integerDigits = INTEGER_DIGITS[fromName];
  if (integerDigits !== undefined) return target ? integerDigits <= room : (INTEGER_DIGITS[to] ?? 0) >= integerDigits;
  const source = from === undefined ? null : decimalParts(from);
  if (!source) return false;
  const rounds = target !== null && target.scale < source.scale;
  return source.precision - source.scale <= (rounds ? room - 1 : room);
}

/**
 * Why a cast of a column-reading operand can fail on some row's value (null when it cannot): text
 * to anything but text fails on any row whose text does not parse, a number on any value out of
 * the target's range. Such a predicate would pass every check and then stop a race on its data,
 * so it is refused here; a constant operand is left to DuckDB, which evaluates it when the
 * expression is checked (see checkExpressionRuns).
 */
function partialCast(operand: Expr, to: CastTarget, target: SqlType): string | null {
  if (target === 'string' || operand.sqlType === 'null' || columnsOf(operand).length === 0) return null;
  const duck = deltaToDuckType(to);
  if (operand.sqlType === 'string') return `text that is not a ${duck} fails it; compare the text itself instead`;
  if (operand.sqlType !== 'number') return null;
  const from = operand.kind === 'column' ? operand.type : undefined;
  if (numberFits(from, to)) return null;
  const what = from === undefined ? 'a computed number' : `type ${typeName(from)}`;
  return `not every value of ${what} fits ${duck}; compare the number itself (numbers of all types compare), or use round()`;
}

export function cast(operand: Expr, to: CastTarget, pos: number): Expr {
  const target = sqlTypeOf(to);
  // A cast string constant is checked now and becomes a typed literal, which pruning can use.
  if (operand.kind === 'literal' && operand.sqlType === 'string') {
    if (target === 'date') return dateLiteral(operand.value, operand.pos);
    if (target === 'timestamp') return timestampLiteral(operand.value, operand.pos);
  }
  if (!castable(operand.sqlType, target)) {
    fail(`cannot cast ${describe(operand)} to ${deltaToDuckType(to)} at 'CAST' (position ${pos})`, pos);
  }
  const partial = partialCast(operand, to, target);
  if (partial) {
    fail(
      `CAST of ${describe(operand)} to ${deltaToDuckType(to)} at position ${pos} can fail on the table's data: ${partial}`,
      pos,
    );
  }
  return { kind: 'cast', operand, to, sqlType: target, pos };
}

function arity(fn: FunctionName, args: Expr[], min: number, max: number, pos: number): void {
  if (args.length >= min && args.length <= max) return;
  const expected = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
  fail(`${fn}() at position ${pos} takes ${expected} argument(s), got ${args.length}`, pos);
}

export function call(fn: FunctionName, args: Expr[], pos: number): Expr {
  switch (fn) {
    case 'abs':
    case 'round': {
      arity(fn, args, 1, fn === 'round' ? 2 : 1, pos);
      const [x, digits] = args as [Expr, Expr | undefined];
      requireType(x, 'number', fn, pos);
      if (digits && !(digits.kind === 'literal' && digits.sqlType === 'number' && Number.isInteger(digits.value))) {
        fail(`round() at position ${pos} needs an integer literal for its digits, got ${describe(digits)}`, pos);
      }
      // DuckDB's round() takes its digits as an INTEGER: a larger literal matches no round() at all.
      if (digits && (digits.value < ROUND_DIGITS.min || digits.value > ROUND_DIGITS.max)) {
        fail(
          `round() at position ${pos}: its second argument ${renderExpression(digits)} is out of range (${ROUND_DIGITS.min} to ${ROUND_DIGITS.max})`,
          pos,
        );
      }
      return { kind: 'call', fn, args, sqlType: 'number', pos };
    }
    case 'lower':
    case 'upper':
      arity(fn, args, 1, 1, pos);
      requireType(args[0] as Expr, 'string', fn, pos);
      return { kind: 'call', fn, args, sqlType: 'string', pos };
    case 'coalesce': {
      arity(fn, args, 1, Number.POSITIVE_INFINITY, pos);
      // The first non-literal argument decides the type, so coalesce(ts, '2025-01-01') works.
      const anchor =
        args.find((a) => a.kind !== 'literal' && a.sqlType !== 'null') ?? args.find((a) => a.sqlType !== 'null');
      if (!anchor) return { kind: 'call', fn, args, sqlType: 'null', pos };
      const coerced = args.map((a) => coerceLiteral(a, anchor) ?? a);
      for (const a of coerced) {
        if ((a.sqlType !== anchor.sqlType && a.sqlType !== 'null') || !ORDERED.includes(a.sqlType)) {
          fail(
            `coalesce() at position ${pos} needs arguments of one type, but ${describe(a)} does not match ${describe(anchor)}`,
            pos,
          );
        }
      }
      return { kind: 'call', fn, args: coerced, sqlType: anchor.sqlType, pos };
    }
  }
}

/** A predicate must be a condition; NULL is allowed as the condition that holds for no row. */
export function requirePredicate(e: Expr, scope: Scope): Expr {
  if (e.sqlType !== 'boolean' && e.sqlType !== 'null') {
    fail(`a ${scope.what} must be a boolean condition, but ${describe(e)} at position ${e.pos} is not`, e.pos);
  }
  return e;
}

function typeName(t: DeltaType): string {
  return typeof t === 'string' ? t : t.type;
}

/** An update value must fit its target column: numeric into numeric, string into string, and so on. */
export function requireAssignable(e: Expr, target: StructField): Expr {
  const targetColumn: Column = {
    kind: 'column',
    name: target.name,
    type: target.type,
    sqlType: sqlTypeOf(target.type),
    pos: 1,
  };
  const value = coerceLiteral(e, targetColumn) ?? e;
  if (value.sqlType === 'null') {
    if (!target.nullable) fail(`column '${target.name}' is not nullable and cannot be set to NULL`, value.pos);
    return value;
  }
  if (value.sqlType === targetColumn.sqlType && ORDERED.includes(value.sqlType)) return value;
  if (value.sqlType === 'date' && targetColumn.sqlType === 'timestamp') return toTimestamp(value);
  fail(
    `cannot assign ${describe(value)} at position ${value.pos} to column '${target.name}' of type ${typeName(target.type)}`,
    value.pos,
  );
}
