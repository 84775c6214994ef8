/**
 * Writes deletion vectors the way Delta Spark does, for tests and bench/dv-read.ts: a portable 64-bit
 * RoaringBitmap (array, bitset or run containers, as the RoaringFormatSpec says), behind the Delta magic number,
 * inline in Z85 or framed in a shared file (version byte; per vector its size, bytes and CRC-32), and a commit that
 * puts vectors on a table's files (protocol 3/7 with `deletionVectors`, then a remove and an add with the vector
 * for each file). An encoder of our own, so the engine's decoder is checked against bytes it did not write.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import {
  type Action,
  commit,
  type DeletionVectorDescriptor,
  DeltaTable,
  fromLogPath,
  type Protocol,
  removeFor,
} from '../../src/index';

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const PORTABLE_MAGIC = 1681511377;

/** Z85 of `bytes`, zero-padded to whole 4-byte groups. */
export function z85Encode(bytes: Uint8Array): string {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let out = '';
  for (let i = 0; i < padded.length; i += 4) {
    let word = view.getUint32(i);
    const group: string[] = [];
    for (let j = 0; j < 5; j++) {
      group.unshift(Z85[word % 85] as string);
      word = Math.floor(word / 85);
    }
    out += group.join('');
  }
  return out;
}

class Writer {
  private parts: number[] = [];
  u8(v: number) {
    this.parts.push(v & 0xff);
  }
  u16(v: number) {
    this.u8(v);
    this.u8(v >>> 8);
  }
  u32(v: number) {
    this.u16(v & 0xffff);
    this.u16(v >>> 16);
  }
  get length() {
    return this.parts.length;
  }
  bytes() {
    return Uint8Array.from(this.parts);
  }
}

type Container = { key: number; values: number[]; kind: 'array' | 'bitset' | 'run' };

function runsOf(values: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const v of values) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] + 1 === v) last[1]++;
    else runs.push([v, 0]);
  }
  return runs;
}

/** One portable 32-bit RoaringBitmap of `values` (ascending, below 2^32). */
function roaring32(values: readonly number[], useRuns: boolean): Uint8Array {
  const containers: Container[] = [];
  for (const v of values) {
    const key = Math.floor(v / 65536);
    const last = containers[containers.length - 1];
    if (last?.key === key) last.values.push(v % 65536);
    else containers.push({ key, values: [v % 65536], kind: 'array' });
  }
  for (const c of containers) {
    const runBytes = 2 + 4 * runsOf(c.values).length;
    const plainBytes = c.values.length > 4096 ? 8192 : 2 * c.values.length;
    c.kind = useRuns && runBytes < plainBytes ? 'run' : c.values.length > 4096 ? 'bitset' : 'array';
  }
  const w = new Writer();
  const hasRuns = containers.some((c) => c.kind === 'run');
  if (hasRuns) {
    w.u32(12347 + ((containers.length - 1) << 16));
    for (let i = 0; i < containers.length; i += 8) {
      let flags = 0;
      for (let j = i; j < Math.min(i + 8, containers.length); j++)
        if (containers[j]?.kind === 'run') flags |= 1 << (j - i);
      w.u8(flags);
    }
  } else {
    w.u32(12346);
    w.u32(containers.length);
  }
  for (const c of containers) {
    w.u16(c.key);
    w.u16(c.values.length - 1);
  }
  const body = new Writer();
  const offsets: number[] = [];
  for (const c of containers) {
    offsets.push(body.length);
    if (c.kind === 'run') {
      const runs = runsOf(c.values);
      body.u16(runs.length);
      for (const [start, length] of runs) {
        body.u16(start);
        body.u16(length);
      }
    } else if (c.kind === 'bitset') {
      const words = new Uint32Array(2048);
      for (const v of c.values) words[v >>> 5] = (words[v >>> 5] ?? 0) | (1 << (v & 31));
      for (const word of words) body.u32(word);
    } else for (const v of c.values) body.u16(v);
  }
  if (!hasRuns || containers.length >= 4) {
    const headerEnd = w.length + 4 * containers.length;
    for (const o of offsets) w.u32(headerEnd + o);
  }
  const head = w.bytes();
  const tail = body.bytes();
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/** The bitmap of a deletion vector: the Delta magic number, then the 64-bit portable RoaringBitmap of `positions`. */
export function dvBitmap(positions: readonly number[], options: { runs?: boolean } = {}): Uint8Array {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const buckets = new Map<number, number[]>();
  for (const p of sorted) {
    const high = Math.floor(p / 2 ** 32);
    const lows = buckets.get(high) ?? [];
    lows.push(p % 2 ** 32);
    buckets.set(high, lows);
  }
  const head = new Writer();
  head.u32(PORTABLE_MAGIC);
  head.u32(buckets.size);
  head.u32(0);
  const parts: Uint8Array[] = [head.bytes()];
  for (const [high, lows] of buckets) {
    const key = new Writer();
    key.u32(high);
    parts.push(key.bytes(), roaring32(lows, options.runs ?? false));
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A deletion vector file holding `bitmaps`, and where each starts (the descriptors' offsets). */
export function dvFile(bitmaps: readonly Uint8Array[]): { bytes: Uint8Array; offsets: number[] } {
  const size = 1 + bitmaps.reduce((n, b) => n + 8 + b.length, 0);
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes[0] = 1;
  let at = 1;
  const offsets: number[] = [];
  for (const b of bitmaps) {
    offsets.push(at);
    view.setUint32(at, b.length);
    bytes.set(b, at + 4);
    view.setUint32(at + 4 + b.length, crc32(b));
    at += 8 + b.length;
  }
  return { bytes, offsets };
}

/** `<prefix><Z85 of the UUID>`, as a `u` descriptor stores it, and the file name it stands for. */
export function relativeDvName(prefix = ''): { encoded: string; key: string } {
  const uuid = randomUUID();
  const bytes = Uint8Array.from(uuid.replaceAll('-', '').match(/../g) ?? [], (h) => Number.parseInt(h, 16));
  const name = `deletion_vector_${uuid}.bin`;
  return { encoded: `${prefix}${z85Encode(bytes)}`, key: prefix === '' ? name : `${prefix}/${name}` };
}

export type DvStorage =
  | { type: 'i' }
  /** One shared file in the table's folder, under an optional random prefix. */
  | { type: 'u'; prefix?: string }
  /** One shared file in `folder` (inside the table or not), named by absolute `file:` URI. */
  | { type: 'p'; folder: string };

/**
 * Commits deletion vectors on a local table's files, keyed by `add.path`: the protocol gains `deletionVectors`
 * (reader 3, writer 7), and each file is removed and added again with its vector, as Delta Spark's DELETE does.
 */
export async function putDeletionVectors(
  dir: string,
  deleted: ReadonlyMap<string, readonly number[]>,
  storage: DvStorage,
  options: { runs?: boolean } = {},
): Promise<DeltaTable> {
  const table = await DeltaTable.open(dir);
  const files = table.activeFiles().filter((f) => deleted.has(f.path));
  const bitmaps = files.map((f) => dvBitmap(deleted.get(f.path) ?? [], options));
  const descriptors: DeletionVectorDescriptor[] = [];
  if (storage.type === 'i') {
    for (const b of bitmaps)
      descriptors.push({ storageType: 'i', pathOrInlineDv: z85Encode(b), sizeInBytes: b.length, cardinality: 0 });
  } else {
    const { bytes, offsets } = dvFile(bitmaps);
    const name = relativeDvName(storage.type === 'u' ? storage.prefix : '');
    const path = storage.type === 'u' ? join(dir, ...name.key.split('/')) : join(storage.folder, name.key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    const pathOrInlineDv = storage.type === 'u' ? name.encoded : pathToFileURL(path).href;
    bitmaps.forEach((b, i) => {
      descriptors.push({
        storageType: storage.type,
        pathOrInlineDv,
        offset: offsets[i],
        sizeInBytes: b.length,
        cardinality: 0,
      });
    });
  }
  files.forEach((f, i) => {
    const d = descriptors[i] as DeletionVectorDescriptor;
    d.cardinality = new Set(deleted.get(f.path)).size;
  });
  const features = (list: string[] | undefined) => [...new Set([...(list ?? []), 'deletionVectors'])];
  const protocol: Protocol = {
    minReaderVersion: 3,
    minWriterVersion: 7,
    readerFeatures: features(table.protocol.readerFeatures),
    writerFeatures: features(table.protocol.writerFeatures),
  };
  const now = Date.now();
  const actions: Action[] = [
    { commitInfo: { timestamp: now, operation: 'DELETE' } },
    { protocol },
    ...files.flatMap((f, i): Action[] => [
      { remove: removeFor(f, now) },
      { add: { ...f, modificationTime: now, deletionVector: descriptors[i] } },
    ]),
  ];
  await commit({ store: table.store, readVersion: table.version, actions });
  return DeltaTable.open(dir, { roots: storage.type === 'p' ? [storage.folder] : [] });
}

/** The local path of a table's data file. */
export const dataFilePath = (dir: string, logPath: string) => join(dir, ...fromLogPath(logPath).split('/'));
