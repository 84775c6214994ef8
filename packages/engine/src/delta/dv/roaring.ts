/**
 * A decoder for the RoaringBitmap "portable" serialization with 64-bit keys (RoaringFormatSpec, "Extension for
 * 64-bit implementations"), the bitmap inside every Delta deletion vector: a count of buckets, then per bucket
 * the high 32 bits of its values and a portable 32-bit RoaringBitmap of the low 32 bits. Hand-written rather
 * than taken from npm: measured against roaring-wasm it is as fast on deletion vectors (bench/RESULTS.md), needs
 * no WebAssembly start-up and no 64-bit wrapper, and runs in Node and browsers alike. Pure: no I/O.
 */
import { DeletionVectorError } from './errors';

/** Cookies of the 32-bit format: with run containers (count in the high 16 bits), or without (count follows). */
const SERIAL_COOKIE = 12347;
const SERIAL_COOKIE_NO_RUNCONTAINER = 12346;
/** With run containers, container offsets are written only from this many containers on. */
const NO_OFFSET_THRESHOLD = 4;
/** Array containers hold at most this many values; more are a 2^16-bit bitset. */
const MAX_ARRAY_CARDINALITY = 4096;
const BITSET_BYTES = 8192;
/** Positions are JS numbers: exact below 2^53, so high keys stop at 2^21. */
const MAX_HIGH_KEY = 2 ** 21;

class Reader {
  private readonly view: DataView;
  constructor(
    private readonly bytes: Uint8Array,
    public at = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number, what: string): void {
    if (this.at + n > this.bytes.length) {
      throw new DeletionVectorError(
        `the bitmap ends inside ${what} (needs byte ${this.at + n}, has ${this.bytes.length})`,
      );
    }
  }
  u8(what: string): number {
    this.need(1, what);
    return this.view.getUint8(this.at++);
  }
  u16(what: string): number {
    this.need(2, what);
    const v = this.view.getUint16(this.at, true);
    this.at += 2;
    return v;
  }
  u32(what: string): number {
    this.need(4, what);
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  u64(what: string): number {
    const lo = this.u32(what);
    const hi = this.u32(what);
    if (hi >= MAX_HIGH_KEY) throw new DeletionVectorError(`${what} ${hi} * 2^32 + ${lo} is out of range`);
    return hi * 2 ** 32 + lo;
  }
  word(offset: number): number {
    return this.view.getUint32(offset, true);
  }
}

/** The row positions the bitmap holds, ascending. */
export function decodeRoaringTreemap(bytes: Uint8Array): Float64Array {
  const r = new Reader(bytes);
  const buckets = r.u64('the bucket count');
  const parts: { high: number; lows: Uint32Array }[] = [];
  let total = 0;
  let previous = -1;
  for (let b = 0; b < buckets; b++) {
    const high = r.u32('a bucket key');
    if (high <= previous) throw new DeletionVectorError(`bucket keys are not ascending (${high} after ${previous})`);
    if (high >= MAX_HIGH_KEY) throw new DeletionVectorError(`bucket key ${high} puts row positions beyond 2^53`);
    previous = high;
    const lows = decodeRoaring32(r);
    parts.push({ high, lows });
    total += lows.length;
  }
  const out = new Float64Array(total);
  let i = 0;
  for (const { high, lows } of parts) {
    const base = high * 2 ** 32;
    for (const low of lows) out[i++] = base + low;
  }
  return out;
}

/** One portable 32-bit RoaringBitmap at the reader's position; leaves the reader after it. */
function decodeRoaring32(r: Reader): Uint32Array {
  const cookie = r.u32('a bitmap cookie');
  let count: number;
  let runs: Uint8Array | null = null;
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    count = (cookie >>> 16) + 1;
    const size = Math.ceil(count / 8);
    runs = new Uint8Array(size);
    for (let i = 0; i < size; i++) runs[i] = r.u8('the run-container flags');
  } else if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) {
    count = r.u32('the container count');
  } else {
    throw new DeletionVectorError(`unknown RoaringBitmap cookie ${cookie}`);
  }
  const keys = new Uint16Array(count);
  const cardinalities = new Uint32Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    keys[i] = r.u16('a container key');
    const c = r.u16('a container cardinality') + 1;
    cardinalities[i] = c;
    total += c;
  }
  // The offsets only repeat where each container starts, which reading in order already knows.
  if (runs === null || count >= NO_OFFSET_THRESHOLD) {
    r.need(4 * count, 'the container offsets');
    r.at += 4 * count;
  }
  const out = new Uint32Array(total);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const base = (keys[i] ?? 0) * 65536;
    const card = cardinalities[i] ?? 0;
    const isRun = runs !== null && ((runs[i >>> 3] ?? 0) & (1 << (i & 7))) !== 0;
    const start = n;
    if (isRun) {
      const pairs = r.u16('a run count');
      r.need(4 * pairs, 'the runs');
      for (let p = 0; p < pairs; p++) {
        const from = r.u16('a run start');
        const length = r.u16('a run length');
        if (n + length + 1 > out.length || from + length > 0xffff) {
          throw new DeletionVectorError(`run container ${i} holds more than ${card} values`);
        }
        for (let v = from; v <= from + length; v++) out[n++] = base + v;
      }
    } else if (card > MAX_ARRAY_CARDINALITY) {
      r.need(BITSET_BYTES, 'a bitset container');
      for (let w = 0; w < BITSET_BYTES / 4; w++) {
        let word = r.word(r.at + 4 * w);
        while (word !== 0) {
          if (n === out.length) throw new DeletionVectorError(`bitset container ${i} holds more than ${card} values`);
          const bit = 31 - Math.clz32(word & -word);
          out[n++] = base + w * 32 + bit;
          word &= word - 1;
        }
      }
      r.at += BITSET_BYTES;
    } else {
      r.need(2 * card, 'an array container');
      for (let v = 0; v < card; v++) out[n++] = base + r.u16('an array value');
    }
    if (n - start !== card) {
      throw new DeletionVectorError(`container ${i} holds ${n - start} values but its header says ${card}`);
    }
  }
  return out;
}
