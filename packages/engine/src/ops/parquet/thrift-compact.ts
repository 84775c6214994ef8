/**
 * The Thrift compact protocol, write side only, as Parquet uses it for its page headers and footer. A struct is
 * written field by field in increasing id order; this is all a Parquet writer needs (no maps, no sets, no reads).
 */

/** Compact-protocol type nibbles. */
export const TType = {
  True: 1,
  False: 2,
  Byte: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  Binary: 8,
  List: 9,
  Struct: 12,
} as const;
type TType = typeof TType;
export type TypeCode = TType[keyof TType];

/** A field value: its type, and how to write its payload (nothing for booleans, whose value is in the type). */
export type ThriftValue =
  | { t: TType['I32'] | TType['I64'] | TType['I16'] | TType['Byte']; v: number | bigint }
  | { t: TType['Binary']; v: Uint8Array | string }
  | { t: TType['True'] | TType['False'] }
  | { t: TType['Struct']; v: ThriftStruct }
  | { t: TType['List']; elem: TypeCode; v: ThriftValue[] };

/** Field id → value; absent (undefined) fields are left out, as optional fields are. */
export type ThriftStruct = (ThriftValue | undefined)[];

export const i32 = (v: number): ThriftValue => ({ t: TType.I32, v });
export const i64 = (v: number | bigint): ThriftValue => ({ t: TType.I64, v });
export const byte = (v: number): ThriftValue => ({ t: TType.Byte, v });
export const bin = (v: Uint8Array | string): ThriftValue => ({ t: TType.Binary, v });
export const bool = (v: boolean): ThriftValue => ({ t: v ? TType.True : TType.False });
export const struct = (fields: Record<number, ThriftValue | undefined>): ThriftValue => {
  const s: ThriftStruct = [];
  for (const [id, v] of Object.entries(fields)) s[Number(id)] = v;
  return { t: TType.Struct, v: s };
};
export const list = (elem: TypeCode, v: ThriftValue[]): ThriftValue => ({ t: TType.List, elem, v });

/** A growable byte buffer. */
export class ByteSink {
  private buf = new Uint8Array(64);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.length++] = b & 0xff;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  /** Unsigned LEB128. */
  varint(v: bigint | number): void {
    if (typeof v === 'number' && v >= 0 && v < 2 ** 31) {
      // Nearly every value in a footer: sizes, offsets, counts. Number arithmetic, no BigInt.
      let n = v;
      while (n >= 0x80) {
        this.byte((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      this.byte(n);
      return;
    }
    let x = BigInt(v);
    while (x >= 0x80n) {
      this.byte(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.byte(Number(x));
  }

  u32le(v: number): void {
    this.room(4);
    new DataView(this.buf.buffer).setUint32(this.length, v, true);
    this.length += 4;
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

const zigzag = (v: number | bigint): bigint | number => {
  if (typeof v === 'number' && Math.abs(v) < 2 ** 29) return v >= 0 ? v * 2 : -v * 2 - 1;
  const x = BigInt(v);
  return x >= 0n ? x << 1n : (-x << 1n) - 1n;
};

const utf8 = new TextEncoder();

function writeValue(out: ByteSink, value: ThriftValue): void {
  switch (value.t) {
    case TType.Byte:
      out.byte(Number(value.v));
      return;
    case TType.I16:
    case TType.I32:
    case TType.I64:
      out.varint(zigzag(value.v));
      return;
    case TType.Binary: {
      const b = typeof value.v === 'string' ? utf8.encode(value.v) : value.v;
      out.varint(b.length);
      out.bytes(b);
      return;
    }
    case TType.Struct:
      writeStruct(out, value.v);
      return;
    case TType.List:
      if (value.v.length < 15) out.byte((value.v.length << 4) | value.elem);
      else {
        out.byte(0xf0 | value.elem);
        out.varint(value.v.length);
      }
      // A boolean element is a byte of its own (1 true, 2 false); Parquet has no boolean lists, so none is written.
      for (const e of value.v) writeValue(out, e);
      return;
    case TType.True:
    case TType.False:
      return;
  }
}

/** Writes a struct: each present field as a (delta, type) header and its payload, then the stop byte. */
export function writeStruct(out: ByteSink, fields: ThriftStruct): void {
  let last = 0;
  for (const [id, value] of fields.entries()) {
    if (value === undefined) continue;
    const delta = id - last;
    if (delta > 0 && delta <= 15) out.byte((delta << 4) | value.t);
    else {
      out.byte(value.t);
      out.varint(zigzag(id));
    }
    last = id;
    writeValue(out, value);
  }
  out.byte(0);
}

/** A struct's bytes on their own. */
export function encodeStruct(value: ThriftValue): Uint8Array {
  if (value.t !== TType.Struct) throw new Error('encodeStruct: not a struct');
  const out = new ByteSink();
  writeStruct(out, value.v);
  return out.result();
}
