/**
 * Unpacking an uploaded archive (.zip or .tar.gz) for the code audit, bounded and confined. Bounded: at most
 * 50 MB in, 20,000 files and 500 MB unpacked, refused beyond with an ArchiveRefusedError naming the bound. A
 * size an archive claims is checked before anything is inflated, and never trusted alone: the bytes are
 * counted as they come and the unpacking stops at the bound, having written no more than it. Confined: every
 * file is written under a fresh folder made inside the scratch root, from entry names that cannot leave it:
 * an entry named with `..`, an absolute path or a NUL refuses the whole archive (that is an attack, not a
 * repository), while symbolic links, hard links, devices and FIFOs are never made: they are skipped and listed,
 * so no entry can point a later write elsewhere. On any refusal or failure the folder is removed.
 */
/// <reference path="./tar-stream.d.ts" />
import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Inflate } from 'fflate';
import * as tar from 'tar-stream';

export type ArchiveKind = 'zip' | 'tar.gz';

export interface ArchiveBounds {
  /** The archive's own size. */
  maxInputBytes: number;
  /** Files unpacked (folders and skipped entries are not files). */
  maxFiles: number;
  /** Bytes unpacked, all files together. */
  maxUnpackedBytes: number;
}

const MB = 1024 * 1024;
export const ARCHIVE_BOUNDS: Readonly<ArchiveBounds> = {
  maxInputBytes: 50 * MB,
  maxFiles: 20_000,
  maxUnpackedBytes: 500 * MB,
};

/** An entry that was not unpacked, and why: a symbolic link, a device, an encrypted zip entry, … */
export interface SkippedEntry {
  entry: string;
  reason: string;
}

export interface UnpackedArchive {
  /** The fresh folder holding the archive's files; the caller removes it when done. */
  dir: string;
  files: number;
  bytes: number;
  skipped: SkippedEntry[];
}

/** Which bound or rule refused an archive. */
export type ArchiveRefusal = 'input-size' | 'files' | 'unpacked-size' | 'entry-name' | 'format';

/** An archive refused: over a bound, an entry that would leave its folder, or not an archive of its kind. */
export class ArchiveRefusedError extends Error {
  override name = 'ArchiveRefusedError';
  constructor(
    message: string,
    readonly refusal: ArchiveRefusal,
    /** Bytes written to files before the refusal (never more than the unpacked bound). */
    readonly written = 0,
    /** Bytes inflated before the refusal, written or not. */
    readonly inflated = 0,
  ) {
    super(message);
  }
}

/** How much compressed input is inflated at a time: deflate expands at most ~1032 times, so ≤ ~4.2 MB a step. */
const INPUT_STEP = 4 * 1024;
/** Entries of any kind (folders, skipped ones) an archive may hold, beside the files bound. */
const entriesBound = (b: ArchiveBounds) => 2 * b.maxFiles;
/** A tar stream's own headers and padding, beyond the files' bytes, before it counts as a bomb. */
const tarOverhead = (b: ArchiveBounds) => entriesBound(b) * 1536 + MB;

const sizeText = (bytes: number) => (bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes.toLocaleString('en-US')} bytes`);

/** An entry's name as a message may show it: control characters replaced, at most 200 characters. */
function shown(name: string): string {
  const clean = name.replace(/\p{Cc}/gu, '?');
  return `'${clean.length > 200 ? `${clean.slice(0, 200)}…` : clean}'`;
}

/**
 * The path segments an entry name stands for, or a refusal. Backslashes count as separators (zips made on
 * Windows); empty and `.` segments are dropped; an empty result is the archive's own top folder.
 */
export function entrySegments(name: string): string[] {
  if (name.includes('\0')) throw new ArchiveRefusedError(`entry ${shown(name)} has a NUL in its name`, 'entry-name');
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed))
    throw new ArchiveRefusedError(`entry ${shown(name)} is an absolute path`, 'entry-name');
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..'))
    throw new ArchiveRefusedError(`entry ${shown(name)} has a '..' segment, leading out of the archive`, 'entry-name');
  return segments;
}

/** One file being written: its bytes count against the bound before they are written. */
interface FileOut {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Where the entries go: the counts, the bounds, the one file open at a time. */
class Sink {
  files = 0;
  entries = 0;
  bytes = 0;
  inflated = 0;
  readonly skipped: SkippedEntry[] = [];
  private current: FileHandle | null = null;

  constructor(
    readonly dir: string,
    readonly bounds: ArchiveBounds,
  ) {}

  refuse(message: string, refusal: ArchiveRefusal): ArchiveRefusedError {
    return new ArchiveRefusedError(message, refusal, this.bytes, this.inflated);
  }

  private entry(name: string): void {
    if (++this.entries > entriesBound(this.bounds))
      throw this.refuse(
        `the archive holds more than ${entriesBound(this.bounds).toLocaleString('en-US')} entries (${shown(name)} is one too many)`,
        'files',
      );
  }

  skip(name: string, reason: string): void {
    this.entry(name);
    this.skipped.push({ entry: entrySegments(name).join('/') || name, reason });
  }

  async folder(name: string): Promise<void> {
    this.entry(name);
    const segments = entrySegments(name);
    if (segments.length > 0) await this.mkdir(name, join(this.dir, ...segments));
  }

  private async mkdir(name: string, path: string): Promise<void> {
    try {
      await mkdir(path, { recursive: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR')
        throw this.refuse(`entry ${shown(name)} lies under another entry that is a file`, 'entry-name');
      throw e;
    }
  }

  /** A file entry, its size as claimed (checked before anything is inflated), or undefined when none is. */
  async file(name: string, claimed: number | undefined): Promise<FileOut> {
    this.entry(name);
    const segments = entrySegments(name);
    if (segments.length === 0) throw this.refuse(`entry ${shown(name)} is a file with no name`, 'entry-name');
    if (++this.files > this.bounds.maxFiles)
      throw this.refuse(`the archive holds more than ${this.bounds.maxFiles.toLocaleString('en-US')} files`, 'files');
    if (claimed !== undefined && this.bytes + claimed > this.bounds.maxUnpackedBytes) throw this.overBytes();
    const path = join(this.dir, ...segments);
    await this.mkdir(name, dirname(path));
    try {
      // 'wx': never through something already there, so an entry named twice cannot overwrite the first.
      this.current = await open(path, 'wx', 0o600);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'EISDIR')
        throw this.refuse(`entry ${shown(name)} is in the archive twice`, 'entry-name');
      throw e;
    }
    const handle = this.current;
    return {
      write: async (chunk) => {
        this.inflated += chunk.byteLength;
        if (this.bytes + chunk.byteLength > this.bounds.maxUnpackedBytes) throw this.overBytes();
        this.bytes += chunk.byteLength;
        await handle.write(chunk);
      },
      close: async () => {
        this.current = null;
        await handle.close();
      },
    };
  }

  overBytes(): ArchiveRefusedError {
    return this.refuse(`the archive unpacks to more than ${sizeText(this.bounds.maxUnpackedBytes)}`, 'unpacked-size');
  }

  /** Closes the file left open by a refusal, so its folder can be removed. */
  async abandon(): Promise<void> {
    const handle = this.current;
    this.current = null;
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Unpacks `input` (the archive's bytes, or a file holding them) into a fresh folder made inside `scratchRoot`.
 * Throws ArchiveRefusedError for an archive over a bound, with an entry that would leave the folder, or not
 * of its kind; the folder is removed then. `bounds` defaults to ARCHIVE_BOUNDS.
 */
export async function unpackArchive(
  input: Uint8Array | string,
  kind: ArchiveKind,
  scratchRoot: string,
  bounds: ArchiveBounds = ARCHIVE_BOUNDS,
): Promise<UnpackedArchive> {
  const size = typeof input === 'string' ? (await stat(input)).size : input.byteLength;
  if (size > bounds.maxInputBytes)
    throw new ArchiveRefusedError(
      `the archive is ${sizeText(size)}; at most ${sizeText(bounds.maxInputBytes)}`,
      'input-size',
    );
  await mkdir(scratchRoot, { recursive: true });
  const sink = new Sink(await mkdtemp(join(scratchRoot, 'archive-')), bounds);
  try {
    if (kind === 'zip') await unzipInto(typeof input === 'string' ? await readFile(input) : input, sink);
    else await untarInto(input, sink);
    return { dir: sink.dir, files: sink.files, bytes: sink.bytes, skipped: sink.skipped };
  } catch (e) {
    await sink.abandon();
    await rm(sink.dir, { recursive: true, force: true });
    throw e;
  }
}

// ---- zip: the central directory says what is there, each entry inflated step by step ----

interface ZipEntry {
  name: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  size: number;
  localOffset: number;
  /** The Unix file type bits, when the archive was made on Unix; 0 otherwise. */
  unixType: number;
  dosFolder: boolean;
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const UNIX_TYPES = new Map<number, string>([
  [0o120000, 'a symbolic link'],
  [0o020000, 'a character device'],
  [0o060000, 'a block device'],
  [0o010000, 'a FIFO'],
  [0o140000, 'a socket'],
]);

function notZip(sink: Sink, why: string): ArchiveRefusedError {
  return sink.refuse(`the archive is not a readable .zip: ${why}`, 'format');
}

/** The entries the central directory lists, with the counts checked before any is inflated. */
function zipEntries(buf: Uint8Array, sink: Sink): ZipEntry[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let eocd = -1;
  for (let at = buf.byteLength - 22; at >= Math.max(0, buf.byteLength - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw notZip(sink, 'no end of central directory');
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff)
    throw notZip(sink, 'ZIP64 archives are not read (no archive within the bounds needs one)');
  if (count > entriesBound(sink.bounds))
    throw sink.refuse(
      `the archive holds ${count.toLocaleString('en-US')} entries; at most ${sink.bounds.maxFiles.toLocaleString('en-US')} files`,
      'files',
    );
  const entries: ZipEntry[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.byteLength || view.getUint32(at, true) !== 0x02014b50)
      throw notZip(sink, 'a central directory entry is cut short');
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const madeOnUnix = view.getUint16(at + 4, true) >> 8 === 3;
    const nameBytes = buf.subarray(at + 46, at + 46 + nameLength);
    entries.push({
      name: new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes),
      method: view.getUint16(at + 10, true),
      encrypted: (flags & 1) === 1,
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      unixType: madeOnUnix ? (external >>> 16) & S_IFMT : 0,
      dosFolder: (external & 0x10) !== 0,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  const files = entries.filter((e) => !isZipFolder(e) && zipSkipReason(e) === null);
  if (files.length > sink.bounds.maxFiles)
    throw sink.refuse(
      `the archive holds ${files.length.toLocaleString('en-US')} files; at most ${sink.bounds.maxFiles.toLocaleString('en-US')}`,
      'files',
    );
  const claimed = files.reduce((n, e) => n + e.size, 0);
  if (claimed > sink.bounds.maxUnpackedBytes)
    throw sink.refuse(
      `the archive says it unpacks to ${sizeText(claimed)}; at most ${sizeText(sink.bounds.maxUnpackedBytes)}`,
      'unpacked-size',
    );
  return entries;
}

const isZipFolder = (e: ZipEntry) =>
  e.name.endsWith('/') || e.unixType === S_IFDIR || (e.unixType === 0 && e.dosFolder);

function zipSkipReason(e: ZipEntry): string | null {
  if (e.unixType !== 0 && e.unixType !== S_IFREG && e.unixType !== S_IFDIR)
    return `${UNIX_TYPES.get(e.unixType) ?? 'not a regular file'}: not unpacked`;
  if (e.encrypted) return 'encrypted: not unpacked';
  if (e.method !== 0 && e.method !== 8) return `compression method ${e.method} is not read (only stored and deflate)`;
  return null;
}

async function unzipInto(buf: Uint8Array, sink: Sink): Promise<void> {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (const entry of zipEntries(buf, sink)) {
    // Names are checked for every entry, skipped ones too: a `..` anywhere refuses the archive.
    entrySegments(entry.name);
    if (isZipFolder(entry)) {
      await sink.folder(entry.name);
      continue;
    }
    const skip = zipSkipReason(entry);
    if (skip !== null) {
      sink.skip(entry.name, skip);
      continue;
    }
    const local = entry.localOffset;
    if (local + 30 > buf.byteLength || view.getUint32(local, true) !== 0x04034b50)
      throw notZip(sink, `entry ${shown(entry.name)} has no local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const end = start + entry.compressedSize;
    if (end > buf.byteLength) throw notZip(sink, `entry ${shown(entry.name)} runs past the end of the archive`);
    const out = await sink.file(entry.name, entry.size);
    if (entry.method === 0) {
      for (let at = start; at < end; at += INPUT_STEP)
        await out.write(buf.subarray(at, Math.min(end, at + INPUT_STEP)));
    } else {
      const pending: Uint8Array[] = [];
      const inflate = new Inflate((chunk) => {
        pending.push(chunk);
      });
      for (let at = start; at < end; at += INPUT_STEP) {
        try {
          inflate.push(buf.subarray(at, Math.min(end, at + INPUT_STEP)), at + INPUT_STEP >= end);
        } catch (e) {
          throw notZip(sink, `entry ${shown(entry.name)} does not inflate (${(e as Error).message})`);
        }
        for (const chunk of pending.splice(0)) await out.write(chunk);
      }
    }
    await out.close();
  }
}

// ---- tar.gz: gunzip and tar-stream, every byte of the stream counted ----

const TAR_SKIPPED: Record<string, string> = {
  symlink: 'a symbolic link',
  link: 'a hard link',
  'character-device': 'a character device',
  'block-device': 'a block device',
  fifo: 'a FIFO',
};

async function untarInto(input: Uint8Array | string, sink: Sink): Promise<void> {
  const source = typeof input === 'string' ? createReadStream(input) : Readable.from([Buffer.from(input)]);
  const bound = sink.bounds.maxUnpackedBytes + tarOverhead(sink.bounds);
  let streamed = 0;
  let refused: ArchiveRefusedError | null = null;
  // The whole decompressed stream is bounded too: headers alone (folders, skipped entries) cannot run forever.
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      streamed += chunk.byteLength;
      if (streamed > bound) {
        refused = sink.overBytes();
        done(refused);
      } else done(null, chunk);
    },
  });
  const extract = tar.extract();
  const piped = pipeline(source, createGunzip(), meter, extract);
  piped.catch(() => undefined);
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      entrySegments(name);
      if (type === 'directory') {
        await sink.folder(name);
        entry.resume();
      } else if (type === 'file' || type === 'contiguous-file' || type == null) {
        const out = await sink.file(name, size);
        for await (const chunk of entry) await out.write(chunk as Uint8Array);
        await out.close();
      } else {
        sink.skip(name, `${TAR_SKIPPED[type] ?? `a '${type}' entry`}: not unpacked`);
        entry.resume();
      }
    }
    await piped;
  } catch (e) {
    source.destroy();
    if (refused) throw refused;
    if (e instanceof ArchiveRefusedError) throw e;
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_') || /tar|header|unexpected end/i.test((e as Error).message))
      throw sink.refuse(`the archive is not a readable .tar.gz: ${(e as Error).message}`, 'format');
    throw e;
  }
}
