/**
 * Avro object container files, written and read by hand, for Iceberg manifests and manifest lists.
 * The writer puts the schema JSON into the header verbatim, so Iceberg's `field-id`, `element-id`,
 * `key-id`/`value-id` and `logicalType: "map"` survive (a library that regenerates the header
 * drops them, and then pyiceberg and Java refuse the file). Longs are BigInt: snapshot ids are
 * 63-bit and do not fit a JS number. Codecs: null and deflate.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export type AvroSchema =
  | string
  | AvroSchema[]
  | {
      type: 'record';
      name: string;
      fields: { name: string; type: AvroSchema; default?: unknown; [k: string]: unknown }[];
      [k: string]: unknown;
    }
  | { type: 'array'; items: AvroSchema; [k: string]: unknown }
  | { type: 'map'; values: AvroSchema; [k: string]: unknown }
  | { type: 'fixed'; name: string; size: number; [k: string]: unknown }
  | { type: 'enum'; name: string; symbols: string[]; [k: string]: unknown }
  | { type: string; [k: string]: unknown };

export class AvroError extends Error {
  override name = 'AvroError';
}

const MAGIC = Buffer.from([0x4f, 0x62, 0x6a, 0x01]);

type Named = Map<string, AvroSchema>;

function collectNames(s: AvroSchema, names: Named): void {
  if (Array.isArray(s)) {
    for (const b of s) collectNames(b, names);
    return;
  }
  if (typeof s !== 'object') return;
  const o = s as Record<string, unknown>;
  if ((o.type === 'record' || o.type === 'fixed' || o.type === 'enum') && typeof o.name === 'string')
    names.set(o.name, s);
  if (o.type === 'record') for (const f of o.fields as { type: AvroSchema }[]) collectNames(f.type, names);
  if (o.type === 'array') collectNames(o.items as AvroSchema, names);
  if (o.type === 'map') collectNames(o.values as AvroSchema, names);
}

class Writer {
  private chunks: Buffer[] = [];
  long(v: bigint | number): void {
    let n = BigInt.asUintN(64, (BigInt(v) << 1n) ^ (BigInt(v) >> 63n));
    const bytes: number[] = [];
    while (n >= 0x80n) {
      bytes.push(Number((n & 0x7fn) | 0x80n));
      n >>= 7n;
    }
    bytes.push(Number(n));
    this.chunks.push(Buffer.from(bytes));
  }
  raw(b: Buffer): void {
    this.chunks.push(b);
  }
  bytes(b: Buffer): void {
    this.long(b.length);
    this.raw(b);
  }
  done(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  long(): bigint {
    let shift = 0n;
    let n = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw new AvroError('truncated Avro data');
      const b = this.buf[this.pos++] as number;
      n |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) break;
      shift += 7n;
    }
    return (n >> 1n) ^ -(n & 1n);
  }
  int(): number {
    return Number(this.long());
  }
  take(n: number): Buffer {
    if (this.pos + n > this.buf.length) throw new AvroError('truncated Avro data');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  bytes(): Buffer {
    return this.take(this.int());
  }
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
}

function typeOf(s: AvroSchema, names: Named): AvroSchema {
  if (typeof s === 'string' && names.has(s)) return names.get(s) as AvroSchema;
  return s;
}

/** The union branch a value belongs to: null to "null", anything else to the first non-null branch that fits. */
function branch(union: AvroSchema[], v: unknown, names: Named): number {
  if (v === null || v === undefined) {
    const i = union.indexOf('null');
    if (i < 0) throw new AvroError('null for a union without a null branch');
    return i;
  }
  const i = union.findIndex((b) => b !== 'null' && fits(typeOf(b, names), v));
  if (i < 0)
    throw new AvroError(
      `no union branch fits ${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))}`,
    );
  return i;
}

function fits(s: AvroSchema, v: unknown): boolean {
  const t = typeof s === 'string' ? s : Array.isArray(s) ? 'union' : s.type;
  switch (t) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'int':
    case 'float':
    case 'double':
      return typeof v === 'number';
    case 'long':
      return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
    case 'string':
      return typeof v === 'string';
    case 'bytes':
    case 'fixed':
      return Buffer.isBuffer(v) || v instanceof Uint8Array;
    case 'array':
      return Array.isArray(v);
    default:
      return typeof v === 'object' && v !== null;
  }
}

function encode(s: AvroSchema, v: unknown, w: Writer, names: Named): void {
  const t = typeOf(s, names);
  if (Array.isArray(t)) {
    const i = branch(t, v, names);
    w.long(i);
    encode(t[i] as AvroSchema, v, w, names);
    return;
  }
  const type = typeof t === 'string' ? t : t.type;
  switch (type) {
    case 'null':
      return;
    case 'boolean':
      w.raw(Buffer.from([v ? 1 : 0]));
      return;
    case 'int':
    case 'long':
      w.long(v as number | bigint);
      return;
    case 'float': {
      const b = Buffer.alloc(4);
      b.writeFloatLE(v as number);
      w.raw(b);
      return;
    }
    case 'double': {
      const b = Buffer.alloc(8);
      b.writeDoubleLE(v as number);
      w.raw(b);
      return;
    }
    case 'string':
      w.bytes(Buffer.from(v as string, 'utf8'));
      return;
    case 'bytes':
      w.bytes(Buffer.from(v as Uint8Array));
      return;
    case 'fixed':
      w.raw(Buffer.from(v as Uint8Array));
      return;
    case 'enum':
      w.long((t as { symbols: string[] }).symbols.indexOf(v as string));
      return;
    case 'array': {
      const items = v as unknown[];
      if (items.length > 0) {
        w.long(items.length);
        for (const x of items) encode((t as { items: AvroSchema }).items, x, w, names);
      }
      w.long(0);
      return;
    }
    case 'map': {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length > 0) {
        w.long(entries.length);
        for (const [k, x] of entries) {
          w.bytes(Buffer.from(k, 'utf8'));
          encode((t as { values: AvroSchema }).values, x, w, names);
        }
      }
      w.long(0);
      return;
    }
    case 'record': {
      const rec = v as Record<string, unknown>;
      for (const f of (t as { fields: { name: string; type: AvroSchema }[] }).fields)
        encode(f.type, rec[f.name] ?? null, w, names);
      return;
    }
    default:
      throw new AvroError(`unsupported Avro type ${type}`);
  }
}

function decode(s: AvroSchema, r: Reader, names: Named): unknown {
  const t = typeOf(s, names);
  if (Array.isArray(t)) {
    const i = r.int();
    const b = t[i];
    if (b === undefined) throw new AvroError(`union branch ${i} out of range`);
    return decode(b, r, names);
  }
  const type = typeof t === 'string' ? t : t.type;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return r.take(1)[0] === 1;
    case 'int':
      return r.int();
    case 'long':
      return r.long();
    case 'float':
      return r.take(4).readFloatLE(0);
    case 'double':
      return r.take(8).readDoubleLE(0);
    case 'string':
      return r.bytes().toString('utf8');
    case 'bytes':
      return Buffer.from(r.bytes());
    case 'fixed':
      return Buffer.from(r.take((t as { size: number }).size));
    case 'enum':
      return (t as { symbols: string[] }).symbols[r.int()];
    case 'array': {
      const out: unknown[] = [];
      for (let n = r.long(); n !== 0n; n = r.long()) {
        // A negative count is followed by the block's size in bytes, which we do not need.
        if (n < 0n) {
          n = -n;
          r.long();
        }
        for (let i = 0n; i < n; i++) out.push(decode((t as { items: AvroSchema }).items, r, names));
      }
      return out;
    }
    case 'map': {
      const out: Record<string, unknown> = {};
      for (let n = r.long(); n !== 0n; n = r.long()) {
        if (n < 0n) {
          n = -n;
          r.long();
        }
        for (let i = 0n; i < n; i++) {
          const k = r.bytes().toString('utf8');
          out[k] = decode((t as { values: AvroSchema }).values, r, names);
        }
      }
      return out;
    }
    case 'record': {
      const out: Record<string, unknown> = {};
      for (const f of (t as { fields: { name: string; type: AvroSchema }[] }).fields)
        out[f.name] = decode(f.type, r, names);
      return out;
    }
    default:
      throw new AvroError(`unsupported Avro type ${type}`);
  }
}

export interface AvroContainer {
  schema: AvroSchema;
  /** Header metadata other than avro.schema and avro.codec, as text. */
  metadata: Record<string, string>;
  codec: 'null' | 'deflate';
  records: Record<string, unknown>[];
}

const META_SCHEMA: AvroSchema = { type: 'map', values: 'bytes' };

/** One container file: header, one data block, sync marker. */
export function writeContainer(c: AvroContainer): Buffer {
  const names: Named = new Map();
  collectNames(c.schema, names);
  const header = new Writer();
  header.raw(MAGIC);
  const meta: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(c.metadata)) meta[k] = Buffer.from(v, 'utf8');
  meta['avro.schema'] = Buffer.from(JSON.stringify(c.schema), 'utf8');
  meta['avro.codec'] = Buffer.from(c.codec, 'utf8');
  encode(META_SCHEMA, meta, header, names);
  const sync = randomBytes(16);
  header.raw(sync);
  const body = new Writer();
  for (const rec of c.records) encode(c.schema, rec, body, names);
  const data = c.codec === 'deflate' ? deflateRawSync(body.done()) : body.done();
  const block = new Writer();
  if (c.records.length > 0) {
    block.long(c.records.length);
    block.bytes(data);
    block.raw(sync);
  }
  return Buffer.concat([header.done(), block.done()]);
}

export function readContainer(buf: Buffer, where = 'Avro file'): AvroContainer {
  if (buf.length < 4 || !buf.subarray(0, 4).equals(MAGIC)) throw new AvroError(`${where}: not an Avro container file`);
  const r = new Reader(buf);
  r.take(4);
  const rawMeta = decode(META_SCHEMA, r, new Map()) as Record<string, Buffer>;
  const schemaText = rawMeta['avro.schema']?.toString('utf8');
  if (!schemaText) throw new AvroError(`${where}: no avro.schema in the header`);
  const schema = JSON.parse(schemaText) as AvroSchema;
  const codec = (rawMeta['avro.codec']?.toString('utf8') ?? 'null') as 'null' | 'deflate';
  if (codec !== 'null' && codec !== 'deflate') throw new AvroError(`${where}: unsupported codec ${codec}`);
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(rawMeta))
    if (k !== 'avro.schema' && k !== 'avro.codec') metadata[k] = v.toString('utf8');
  const sync = r.take(16);
  const names: Named = new Map();
  collectNames(schema, names);
  const records: Record<string, unknown>[] = [];
  while (!r.done) {
    const count = r.long();
    const block = r.bytes();
    const marker = r.take(16);
    if (!marker.equals(sync)) throw new AvroError(`${where}: sync marker mismatch`);
    // pyiceberg's deflate blocks carry a few stray trailing bytes, which inflateRaw ignores.
    const data = codec === 'deflate' ? inflateRawSync(block) : block;
    const br = new Reader(data);
    for (let i = 0n; i < count; i++) records.push(decode(schema, br, names) as Record<string, unknown>);
  }
  return { schema, metadata, codec, records };
}
