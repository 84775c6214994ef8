/**
 * The rows of a small write (JS rows, flat columns) turned into typed columns in TypeScript, so that the commit can
 * write its one file without DuckDB (parquet-encode.ts). The DuckDB path reads the same rows as JSON
 * (`read_json` with the data's column types, then a CAST to the table's types: source.ts); this module takes only
 * the value forms whose result there is certain, and gives up (null) on anything else, which then goes through
 * DuckDB as before. So a value is never read two ways: either it has one plain form, or DuckDB reads it.
 *
 * Plain forms: null/undefined; integers (numbers or bigints in range) for byte, short, integer, long; finite
 * numbers for float and double; booleans; well-formed strings (up to 256 UTF-8 bytes, where DuckDB's string
 * statistics stop being exact) for string, and strings without escapes for binary; `YYYY-MM-DD` for date;
 * `YYYY-MM-DD[ T]HH:MM:SS[.ffffff]` for timestamps (with `Z`, `+00` or `+00:00`, or a Date, for `timestamp`);
 * decimal digits within the type's precision and scale, as a string or a number whose text has them.
 */
import type { DeltaType, StructField, StructType } from '../../kernel/delta/protocol/schema';
import { decimalParts } from '../../kernel/delta/protocol/schema';
import type { RawColumnStats } from '../../kernel/delta/protocol/stats';
import type { FlatColumn, FlatColumnStats, FlatType, FlatValue } from './parquet-encode';
import { conformFields } from './source';

/**
 * Up to this many rows a write takes the TypeScript path. Measured on the lab's 21-column trips schema (bench/
 * RESULTS.md): the encoder costs 0.5-0.7 ms for 1-10 rows, 1.8 ms for 100, 12.5 ms for 1,000, against
 * ~15-18 ms of CPU for DuckDB's JSON read and COPY whatever the rows; but its PLAIN, uncompressed pages make
 * files 1.5x DuckDB's at 100 rows (7.4 against 4.8 KB) and 3x at 1,000 (54 against 17 KB). 100 keeps the files
 * close to DuckDB's and the write at a tenth of its cost.
 */
export const SMALL_WRITE_ROWS = 100;

/** Strings longer than this get truncated min/max statistics from DuckDB's writer: they go through DuckDB. */
const MAX_STAT_STRING_BYTES = 256;

/** A value with no plain form: the write goes through DuckDB. */
const NOT_PLAIN = Symbol('not plain');
type Parsed = FlatValue | null | typeof NOT_PLAIN;

const INT_RANGE: Record<string, [bigint, bigint]> = {
  byte: [-128n, 127n],
  short: [-32_768n, 32_767n],
  integer: [-2_147_483_648n, 2_147_483_647n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
};

const utf8 = new TextEncoder();

/** No lone surrogate (JSON would escape it, and DuckDB's reading of that is its own) and no NUL. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s) && !s.includes('\0');

function integer(v: unknown, type: string): Parsed {
  let x: bigint;
  if (typeof v === 'bigint') x = v;
  else if (typeof v === 'number' && Number.isInteger(v)) x = BigInt(v);
  else return NOT_PLAIN;
  const [lo, hi] = INT_RANGE[type] as [bigint, bigint];
  if (x < lo || x > hi) return NOT_PLAIN;
  return type === 'long' ? x : Number(x);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TS_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|\+00|\+00:00)?$/;
const DAY_MS = 86_400_000;

/** Milliseconds since the epoch of a calendar date and time, or null when it is no such date (or its year is odd). */
function utcMillis(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | null {
  // Four-digit years only: years below 1000 print differently, and JS maps years 0-99 to the 1900s.
  if (y < 1000 || h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : null;
}

function date(v: unknown): Parsed {
  const m = typeof v === 'string' ? DATE_RE.exec(v) : null;
  if (!m) return NOT_PLAIN;
  const ms = utcMillis(Number(m[1]), Number(m[2]), Number(m[3]));
  return ms === null ? NOT_PLAIN : ms / DAY_MS;
}

/** Microseconds since the epoch; the session is in UTC, so a naive text is UTC for both kinds. */
function timestamp(v: unknown, withZone: boolean): Parsed {
  // JSON.stringify gives a Date as its toISOString(), which has a `Z`.
  const text = v instanceof Date && withZone && !Number.isNaN(v.getTime()) ? v.toISOString() : v;
  const m = typeof text === 'string' ? TS_RE.exec(text) : null;
  if (!m || (m[8] !== undefined && !withZone)) return NOT_PLAIN;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = utcMillis(y, mo, d, h, mi, s);
  if (ms === null) return NOT_PLAIN;
  return BigInt(ms) * 1000n + BigInt((m[7] ?? '').padEnd(6, '0'));
}

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

/** The unscaled value: only digits the type holds exactly, so no rounding is ever needed. */
function decimal(v: unknown, precision: number, scale: number): Parsed {
  // A number is read from its JSON text; beyond 2^53 that text is no longer the number the caller meant.
  if (typeof v === 'number' && !(Number.isFinite(v) && Math.abs(v) < 2 ** 53)) return NOT_PLAIN;
  const text = typeof v === 'number' ? String(v) : v;
  const m = typeof text === 'string' ? DECIMAL_TEXT.exec(text) : null;
  if (!m) return NOT_PLAIN;
  const whole = (m[2] as string).replace(/^0+(?=\d)/, '');
  const fraction = m[3] ?? '';
  if (fraction.length > scale || (whole === '0' ? 0 : whole.length) > precision - scale) return NOT_PLAIN;
  const unscaled = BigInt(whole + fraction.padEnd(scale, '0'));
  return m[1] === '-' ? -unscaled : unscaled;
}

/** A value of the data's column type, as `read_json` would read it, when it has a plain form. */
function parse(v: unknown, type: FlatType): Parsed {
  if (v === null || v === undefined) return null;
  const dec = decimalParts(type);
  if (dec) return decimal(v, dec.precision, dec.scale);
  switch (type) {
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
      return integer(v, type);
    case 'float': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return NOT_PLAIN;
      const f = Math.fround(v);
      // JSON writes -0 as 0.
      return Number.isFinite(f) ? f + 0 : NOT_PLAIN;
    }
    case 'double':
      return typeof v === 'number' && Number.isFinite(v) ? v + 0 : NOT_PLAIN;
    case 'boolean':
      return typeof v === 'boolean' ? v : NOT_PLAIN;
    case 'string':
      return typeof v === 'string' && wellFormed(v) && utf8.encode(v).length <= MAX_STAT_STRING_BYTES ? v : NOT_PLAIN;
    case 'binary':
      // DuckDB reads a string into a BLOB with `\x..` escapes interpreted: only strings without them are plain.
      return typeof v === 'string' && wellFormed(v) && !v.includes('\\') ? utf8.encode(v) : NOT_PLAIN;
    case 'date':
      return date(v);
    case 'timestamp':
    case 'timestamp_ntz':
      return timestamp(v, type === 'timestamp');
    default:
      return NOT_PLAIN;
  }
}

/** A value of the data's type as the table's wider type (source.ts `widens`: integers up, to double, float up). */
function widen(v: FlatValue, from: FlatType, to: FlatType): FlatValue | typeof NOT_PLAIN {
  if (from === to) return v;
  if (to === 'double') {
    // Beyond 2^53 the conversion rounds, and to which neighbour is DuckDB's business.
    if (typeof v === 'bigint') return v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : NOT_PLAIN;
    return v as number;
  }
  return to === 'long' ? BigInt(v as number) : v;
}

const flat = (t: DeltaType): t is FlatType => typeof t === 'string';

/**
 * The table's columns filled from `rows`, as the DuckDB path would fill them, or null when any value (or column)
 * has no plain form. Errors about the data's columns are conformFields's, the same as on the DuckDB path.
 */
export function smallRowsColumns(
  data: { schema: StructType; rows: readonly Record<string, unknown>[] },
  table: StructType,
): FlatColumn[] | null {
  const sources = conformFields(data.schema, table);
  const names = new Set(data.schema.fields.map((f) => f.name));
  // Column names that differ only in case, or keys that are no column: how read_json matches them is its own.
  if (new Set(data.schema.fields.map((f) => f.name.toLowerCase())).size !== names.size) return null;
  for (const row of data.rows) for (const k of Object.keys(row)) if (!names.has(k)) return null;
  const columns: FlatColumn[] = [];
  for (const [i, t] of table.fields.entries()) {
    const source = sources[i] as StructField | null;
    if (!flat(t.type) || (source && !flat(source.type))) return null;
    const values: (FlatValue | null)[] = [];
    for (const row of data.rows) {
      const parsed = source ? parse(row[source.name], source.type as FlatType) : null;
      if (parsed === NOT_PLAIN) return null;
      const v = parsed === null ? null : widen(parsed, source?.type as FlatType, t.type);
      // A null in a non-nullable column: whatever the DuckDB path does with it, it does alone.
      if (v === NOT_PLAIN || (v === null && !t.nullable)) return null;
      values.push(v);
    }
    columns.push({ name: t.name, type: t.type, values });
  }
  return columns;
}

const pad = (n: number | bigint, width = 2) => String(n).padStart(width, '0');

/** The shortest decimal text that reads back as this float32, as DuckDB prints FLOAT statistics. */
function float32Text(f: number): string {
  for (let p = 1; p < 9; p++) {
    const t = f.toPrecision(p);
    if (Math.fround(Number(t)) === f) return t;
  }
  return f.toPrecision(9);
}

function decimalText(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return unscaled < 0n ? `-${text}` : text;
}

function timestampText(micros: bigint): string {
  const ms = Number(micros / 1000n - (micros % 1000n < 0n ? 1n : 0n));
  const d = new Date(ms);
  const frac = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(frac, 6)}`;
}

/** One min or max as the text DuckDB's COPY … RETURN_STATS gives it, which `buildStats` reads. */
function statText(type: FlatType, v: FlatValue): string | undefined {
  const dec = decimalParts(type);
  if (dec) return decimalText(v as bigint, dec.scale);
  switch (type) {
    case 'float':
      return float32Text(v as number);
    case 'date': {
      const d = new Date((v as number) * DAY_MS);
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    }
    case 'timestamp':
    case 'timestamp_ntz':
      return timestampText(v as bigint);
    case 'binary':
      return undefined;
    default:
      return String(v);
  }
}

/** A column's statistics in the form DuckDB's writer reports them (stats.ts `RawColumnStats`). */
export function flatRawStats(type: FlatType, s: FlatColumnStats): RawColumnStats {
  const min = s.min === undefined ? undefined : statText(type, s.min);
  const max = s.max === undefined ? undefined : statText(type, s.max);
  return { nullCount: s.nullCount, ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}
