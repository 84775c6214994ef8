/**
 * A Parquet file of a few rows, encoded in TypeScript: one row group, one PLAIN data page per column, every column
 * OPTIONAL with its definition levels, min/max/null-count statistics, each column's physical, converted and
 * logical types as DuckDB's COPY writes them (so DuckDB reads back the same column types), field ids when given.
 * The small-append path (small-rows.ts) uses it instead of a DuckDB COPY, whose fixed cost dominates a one-row
 * commit. Only flat primitive columns; nested types stay with DuckDB.
 *
 * Pages are in Snappy's format but not compressed (literal runs only): a file of a few rows has nothing to gain,
 * and the codec then matches the `.snappy.parquet` name every data file has.
 */
import { decimalParts, type PrimitiveTypeName } from '../../kernel/delta/protocol/schema';
import { ByteSink, bin, bool, encodeStruct, i32, i64, list, struct, type ThriftValue, TType } from './thrift-compact';

/** A primitive Delta type: a name or `decimal(p,s)`. */
export type FlatType = PrimitiveTypeName | `decimal(${number},${number})`;

/**
 * One column's values, in their Parquet-ready form, null for a missing value: boolean; number for byte, short,
 * integer, float, double and date (days since 1970-01-01); bigint for long, timestamps (microseconds since the
 * epoch) and decimals (the unscaled value); string for string; Uint8Array for binary.
 */
export type FlatValue = boolean | number | bigint | string | Uint8Array;

export interface FlatColumn {
  name: string;
  type: FlatType;
  values: (FlatValue | null)[];
  /** The Parquet field_id (column mapping). */
  fieldId?: number;
}

/** What the file holds per column: min, max (absent when every value is null) and the nulls, as values. */
export interface FlatColumnStats {
  min?: FlatValue;
  max?: FlatValue;
  nullCount: number;
}

// Parquet's enums (parquet.thrift).
const PHYSICAL = { BOOLEAN: 0, INT32: 1, INT64: 2, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6, FIXED_LEN_BYTE_ARRAY: 7 };
const CONVERTED = { UTF8: 0, DECIMAL: 5, DATE: 6, TIMESTAMP_MICROS: 10, INT_8: 15, INT_16: 16, INT_32: 17, INT_64: 18 };
const OPTIONAL = 1;
const PLAIN = 0;
const RLE = 3;
const SNAPPY = 1;
const DATA_PAGE = 0;
/** DuckDB's widest decimals are 16-byte integers; it writes them as a 16-byte FIXED_LEN_BYTE_ARRAY. */
const WIDE_DECIMAL_BYTES = 16;

interface Layout {
  physical: number;
  typeLength?: number;
  converted?: number;
  logical?: ThriftValue;
  precision?: number;
  scale?: number;
}

function layoutOf(type: FlatType): Layout {
  const dec = decimalParts(type);
  if (dec) {
    const physical =
      dec.precision <= 9 ? PHYSICAL.INT32 : dec.precision <= 18 ? PHYSICAL.INT64 : PHYSICAL.FIXED_LEN_BYTE_ARRAY;
    return {
      physical,
      ...(physical === PHYSICAL.FIXED_LEN_BYTE_ARRAY && { typeLength: WIDE_DECIMAL_BYTES }),
      converted: CONVERTED.DECIMAL,
      logical: struct({ 5: struct({ 1: i32(dec.scale), 2: i32(dec.precision) }) }),
      precision: dec.precision,
      scale: dec.scale,
    };
  }
  const micros = (utc: boolean) => ({
    physical: PHYSICAL.INT64,
    converted: CONVERTED.TIMESTAMP_MICROS,
    logical: struct({ 8: struct({ 1: bool(utc), 2: struct({ 2: struct({}) }) }) }),
  });
  switch (type as PrimitiveTypeName) {
    case 'boolean':
      return { physical: PHYSICAL.BOOLEAN };
    case 'byte':
      return { physical: PHYSICAL.INT32, converted: CONVERTED.INT_8 };
    case 'short':
      return { physical: PHYSICAL.INT32, converted: CONVERTED.INT_16 };
    case 'integer':
      return { physical: PHYSICAL.INT32, converted: CONVERTED.INT_32 };
    case 'long':
      return { physical: PHYSICAL.INT64, converted: CONVERTED.INT_64 };
    case 'float':
      return { physical: PHYSICAL.FLOAT };
    case 'double':
      return { physical: PHYSICAL.DOUBLE };
    case 'string':
      return { physical: PHYSICAL.BYTE_ARRAY, converted: CONVERTED.UTF8 };
    case 'binary':
      return { physical: PHYSICAL.BYTE_ARRAY };
    case 'date':
      return { physical: PHYSICAL.INT32, converted: CONVERTED.DATE };
    case 'timestamp':
      return micros(true);
    case 'timestamp_ntz':
      return micros(false);
  }
}

const utf8 = new TextEncoder();
const asBytes = (v: FlatValue): Uint8Array => (typeof v === 'string' ? utf8.encode(v) : (v as Uint8Array));

/** UTF-8 byte order, which is code point order: JS's `<` compares UTF-16 units, which differs past U+FFFF. */
function compareText(a: string, b: string): number {
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(j) as number;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return Buffer.byteLength(a) - Buffer.byteLength(b);
}

/** Orders two non-null values of one column as Parquet's type-defined order does (signed; bytes unsigned). */
function compare(a: FlatValue, b: FlatValue): number {
  if (typeof a === 'string') return compareText(a, b as string);
  if (a instanceof Uint8Array) return Buffer.compare(a, b as Uint8Array);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  const [x, y] = [a as number | bigint, b as number | bigint];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The PLAIN encoding of one non-null value (booleans are bit-packed by the caller). */
function plain(out: ByteSink, layout: Layout, v: FlatValue): void {
  const view = (n: number) => {
    const b = new Uint8Array(n);
    return { b, dv: new DataView(b.buffer) };
  };
  switch (layout.physical) {
    case PHYSICAL.INT32: {
      const { b, dv } = view(4);
      dv.setInt32(0, Number(v), true);
      out.bytes(b);
      return;
    }
    case PHYSICAL.INT64: {
      const { b, dv } = view(8);
      dv.setBigInt64(0, BigInt(v as number | bigint), true);
      out.bytes(b);
      return;
    }
    case PHYSICAL.FLOAT: {
      const { b, dv } = view(4);
      dv.setFloat32(0, v as number, true);
      out.bytes(b);
      return;
    }
    case PHYSICAL.DOUBLE: {
      const { b, dv } = view(8);
      dv.setFloat64(0, v as number, true);
      out.bytes(b);
      return;
    }
    case PHYSICAL.BYTE_ARRAY: {
      const b = asBytes(v);
      out.u32le(b.length);
      out.bytes(b);
      return;
    }
    case PHYSICAL.FIXED_LEN_BYTE_ARRAY: {
      // Big-endian two's complement, as Parquet stores decimals.
      let x = BigInt.asUintN(WIDE_DECIMAL_BYTES * 8, v as bigint);
      const b = new Uint8Array(WIDE_DECIMAL_BYTES);
      for (let i = WIDE_DECIMAL_BYTES - 1; i >= 0; i--) {
        b[i] = Number(x & 0xffn);
        x >>= 8n;
      }
      out.bytes(b);
      return;
    }
  }
}

/** A value alone in PLAIN form: what Parquet's statistics hold (a boolean is one byte). */
function statBytes(layout: Layout, v: FlatValue): Uint8Array {
  if (layout.physical === PHYSICAL.BOOLEAN) return new Uint8Array([v ? 1 : 0]);
  const out = new ByteSink();
  if (layout.physical === PHYSICAL.BYTE_ARRAY) out.bytes(asBytes(v));
  else plain(out, layout, v);
  return out.result();
}

/** Bits LSB first, eight to a byte: booleans in PLAIN, levels in a bit-packed run. */
function bitPack(bits: readonly boolean[]): Uint8Array {
  const b = new Uint8Array(Math.ceil(bits.length / 8));
  bits.forEach((on, i) => {
    if (on) b[i >> 3] = (b[i >> 3] as number) | (1 << (i & 7));
  });
  return b;
}

/** A Snappy block of literals only: the length, then the bytes in runs a literal tag can carry. */
function snappyLiterals(data: Uint8Array): Uint8Array {
  const out = new ByteSink();
  out.varint(data.length);
  const MAX_RUN = 65_536;
  for (let at = 0; at < data.length; at += MAX_RUN) {
    const run = data.subarray(at, at + MAX_RUN);
    const n = run.length - 1;
    if (n < 60) out.byte(n << 2);
    else if (n < 256) {
      out.byte(60 << 2);
      out.byte(n);
    } else {
      out.byte(61 << 2);
      out.byte(n & 0xff);
      out.byte(n >> 8);
    }
    out.bytes(run);
  }
  return out.result();
}

/** The page's bytes before compression: definition levels (a bit-packed hybrid run, length first), then values. */
function pageBody(layout: Layout, values: readonly (FlatValue | null)[]): Uint8Array {
  const out = new ByteSink();
  const defined = values.map((v) => v !== null);
  const levels = new ByteSink();
  levels.varint((Math.ceil(values.length / 8) << 1) | 1);
  levels.bytes(bitPack(defined));
  out.u32le(levels.length);
  out.bytes(levels.result());
  const present = values.filter((v): v is FlatValue => v !== null);
  if (layout.physical === PHYSICAL.BOOLEAN) out.bytes(bitPack(present.map(Boolean)));
  else for (const v of present) plain(out, layout, v);
  return out.result();
}

export function columnStats(column: FlatColumn): FlatColumnStats {
  const stats: FlatColumnStats = { nullCount: 0 };
  for (const v of column.values) {
    if (v === null) stats.nullCount++;
    else {
      if (stats.min === undefined || compare(v, stats.min) < 0) stats.min = v;
      if (stats.max === undefined || compare(v, stats.max) > 0) stats.max = v;
    }
  }
  return stats;
}

export interface EncodedFile {
  bytes: Uint8Array;
  /** Per column, in order. */
  stats: FlatColumnStats[];
}

const MAGIC = utf8.encode('PAR1');

/** The file: every column has as many values as there are rows. */
export function encodeParquet(columns: readonly FlatColumn[], rows: number): EncodedFile {
  const out = new ByteSink();
  out.bytes(MAGIC);
  const chunks: ThriftValue[] = [];
  const stats: FlatColumnStats[] = [];
  let uncompressedTotal = 0;
  let compressedTotal = 0;
  for (const column of columns) {
    if (column.values.length !== rows) throw new Error(`column ${column.name}: ${column.values.length} values`);
    const layout = layoutOf(column.type);
    const body = pageBody(layout, column.values);
    const compressed = snappyLiterals(body);
    const header = encodeStruct(
      struct({
        1: i32(DATA_PAGE),
        2: i32(body.length),
        3: i32(compressed.length),
        5: struct({ 1: i32(rows), 2: i32(PLAIN), 3: i32(RLE), 4: i32(RLE) }),
      }),
    );
    const offset = out.length;
    out.bytes(header);
    out.bytes(compressed);
    const s = columnStats(column);
    stats.push(s);
    const size = { uncompressed: header.length + body.length, compressed: header.length + compressed.length };
    uncompressedTotal += size.uncompressed;
    compressedTotal += size.compressed;
    chunks.push(
      struct({
        2: i64(offset),
        3: struct({
          1: i32(layout.physical),
          2: list(TType.I32, [i32(PLAIN), i32(RLE)]),
          3: list(TType.Binary, [bin(column.name)]),
          4: i32(SNAPPY),
          5: i64(rows),
          6: i64(size.uncompressed),
          7: i64(size.compressed),
          9: i64(offset),
          12: struct({
            3: i64(s.nullCount),
            ...(s.max !== undefined && { 5: bin(statBytes(layout, s.max)) }),
            ...(s.min !== undefined && { 6: bin(statBytes(layout, s.min)) }),
          }),
        }),
      }),
    );
  }
  const leaves = columns.map((c) => {
    const l = layoutOf(c.type);
    return struct({
      1: i32(l.physical),
      2: l.typeLength === undefined ? undefined : i32(l.typeLength),
      3: i32(OPTIONAL),
      4: bin(c.name),
      6: l.converted === undefined ? undefined : i32(l.converted),
      7: l.scale === undefined ? undefined : i32(l.scale),
      8: l.precision === undefined ? undefined : i32(l.precision),
      9: c.fieldId === undefined ? undefined : i32(c.fieldId),
      10: l.logical,
    });
  });
  const footer = encodeStruct(
    struct({
      1: i32(1),
      2: list(TType.Struct, [struct({ 4: bin('schema'), 5: i32(columns.length) }), ...leaves]),
      3: i64(rows),
      4: list(TType.Struct, [
        struct({
          1: list(TType.Struct, chunks),
          2: i64(uncompressedTotal),
          3: i64(rows),
          5: i64(MAGIC.length),
          6: i64(compressedTotal),
          7: { t: TType.I16, v: 0 },
        }),
      ]),
      6: bin('racelab small-rows writer'),
      // TypeDefinedOrder for every column: the min/max above follow each type's own order.
      7: list(
        TType.Struct,
        columns.map(() => struct({ 1: struct({}) })),
      ),
    }),
  );
  out.bytes(footer);
  out.u32le(footer.length);
  out.bytes(MAGIC);
  return { bytes: out.result(), stats };
}
