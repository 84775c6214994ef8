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
  readonly view: DataView;
  at = 0;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  /** Checks that `n` more bytes are there before they are read unchecked. */
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
}

/** The row positions the bitmap holds, ascending. */
export function decodeRoaringTreemap(bytes: Uint8Array): Float64Array {
  const r = new Reader(bytes);
  const buckets = r.u32('the bucket count');
  if (r.u32('the bucket count') !== 0) throw new DeletionVectorError('the bucket count is beyond 2^32');
  const parts: Float64Array[] = [];
  let previous = -1;
  for (let b = 0; b < buckets; b++) {
    const high = r.u32('a bucket key');
    if (high <= previous) throw new DeletionVectorError(`bucket keys are not ascending (${high} after ${previous})`);
    if (high >= MAX_HIGH_KEY) throw new DeletionVectorError(`bucket key ${high} puts row positions beyond 2^53`);
    previous = high;
    parts.push(decodeRoaring32(r, high * 2 ** 32));
  }
  if (parts.length === 1) return parts[0] as Float64Array;
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One portable 32-bit RoaringBitmap at the reader's position, plus `base`; leaves the reader after it. */
function decodeRoaring32(r: Reader, base: number): Float64Array {
  const cookie = r.u32('a bitmap cookie');
  let count: number;
  let runs: Uint8Array | null = null;
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    count = (cookie >>> 16) + 1;
    runs = new Uint8Array(Math.ceil(count / 8));
    for (let i = 0; i < runs.length; i++) runs[i] = r.u8('the run-container flags');
  } else if (cookie === SERIAL_COOKIE_NO_RUNCONTAINER) {
    count = r.u32('the container count');
  } else {
    throw new DeletionVectorError(`unknown RoaringBitmap cookie ${cookie}`);
  }
  r.need(4 * count, 'the container headers');
  const header = r.at;
  let total = 0;
  for (let i = 0; i < count; i++) total += r.view.getUint16(header + 4 * i + 2, true) + 1;
  r.at += 4 * count;
  // The offsets only repeat where each container starts, which reading in order already knows.
  if (runs === null || count >= NO_OFFSET_THRESHOLD) {
    r.need(4 * count, 'the container offsets');
    r.at += 4 * count;
  }
  const out = new Float64Array(total);
  const { view } = r;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const high = base + view.getUint16(header + 4 * i, true) * 65536;
    const card = view.getUint16(header + 4 * i + 2, true) + 1;
    const end = n + card;
    if (runs !== null && ((runs[i >>> 3] ?? 0) & (1 << (i & 7))) !== 0) {
      const pairs = r.u16('a run count');
      r.need(4 * pairs, 'the runs');
      for (let p = 0; p < pairs; p++) {
        const from = view.getUint16(r.at + 4 * p, true);
        const last = from + view.getUint16(r.at + 4 * p + 2, true);
        if (n + last - from + 1 > end || last > 0xffff) {
          throw new DeletionVectorError(`run container ${i} holds more than its ${card} values`);
        }
        for (let v = from; v <= last; v++) out[n++] = high + v;
      }
      r.at += 4 * pairs;
    } else if (card > MAX_ARRAY_CARDINALITY) {
      r.need(BITSET_BYTES, 'a bitset container');
      for (let w = 0; w < BITSET_BYTES / 4; w++) {
        let word = view.getUint32(r.at + 4 * w, true);
        while (word !== 0) {
          if (n === end) throw new DeletionVectorError(`bitset container ${i} holds more than its ${card} values`);
          // The lowest set bit, then clear it.
          out[n++] = high + w * 32 + 31 - Math.clz32(word & -word);
          word &= word - 1;
        }
      }
      r.at += BITSET_BYTES;
    } else {
      r.need(2 * card, 'an array container');
      for (let v = 0; v < card; v++) out[n++] = high + view.getUint16(r.at + 2 * v, true);
      r.at += 2 * card;
    }
    if (n !== end)
      throw new DeletionVectorError(`container ${i} holds ${card - (end - n)} values, its header says ${card}`);
  }
  return out;
}
