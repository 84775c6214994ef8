/**
 * Unpacking uploaded archives for the code audit, over real archives built here (zips with fflate, tar.gz
 * with tar-stream and zlib): what is unpacked, and that nothing lands outside the fresh folder, whatever the
 * entries' names, types and claimed sizes say; a refusal names its bound and leaves no folder behind.
 */
/// <reference path="../src/audit/code/tar-stream.d.ts" />
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Zippable, zipSync } from 'fflate';
import * as tar from 'tar-stream';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ARCHIVE_BOUNDS, ArchiveRefusedError, unpackArchive } from '../src/audit/code/archive';

const work = mkdtempSync(join(tmpdir(), 'racelab-code-archive-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let scratch = '';
let n = 0;
beforeEach(() => {
  scratch = join(work, `scratch-${++n}`);
});

const text = (s: string) => new TextEncoder().encode(s);
const MB = 1024 * 1024;

async function targz(entries: { header: tar.Headers; body?: string | Uint8Array }[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => pack.on('end', resolve));
  for (const { header, body } of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry(header, body ?? '', (err) => (err ? reject(err) : resolve())),
    );
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** Rewrites the uncompressed size a zip claims for its first entry, in both its headers. */
function claimSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  view.setUint32(22, size, true);
  for (let at = out.byteLength - 22; at >= 0; at--) {
    if (view.getUint32(at, true) === 0x02014b50) {
      view.setUint32(at + 24, size, true);
      return out;
    }
  }
  throw new Error('no central directory');
}

async function refusal(p: Promise<unknown>): Promise<ArchiveRefusedError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ArchiveRefusedError);
  return e as ArchiveRefusedError;
}

/** The scratch root holds no folder: a refused archive's was removed. */
const leftBehind = () => (existsSync(scratch) ? readdirSync(scratch) : []);

describe('zip', () => {
  it('unpacks files and folders into a fresh folder inside the scratch root', async () => {
    const sql = "ALTER TABLE t SET TBLPROPERTIES ('delta.isolationLevel' = 'Serializable')\n";
    const zip = zipSync({
      'jobs/': {},
      'jobs/daily.sql': text(sql),
      'notebooks/a.py': [text('print(1)\n'), { level: 0 }],
    } as Zippable);
    const out = await unpackArchive(zip, 'zip', scratch);
    expect(out.dir.startsWith(join(scratch, 'archive-'))).toBe(true);
    expect(out.files).toBe(2);
    expect(out.bytes).toBe(sql.length + 9);
    expect(readFileSync(join(out.dir, 'jobs/daily.sql'), 'utf8')).toContain('delta.isolationLevel');
    expect(readFileSync(join(out.dir, 'notebooks/a.py'), 'utf8')).toBe('print(1)\n');
    expect(out.skipped).toEqual([]);
  });

  it('refuses an entry with a .. segment and writes nothing outside', async () => {
    const zip = zipSync({ 'ok.sql': text('x'), '../evil.sql': text('boom') });
    const e = await refusal(unpackArchive(zip, 'zip', join(scratch, 'inner')));
    expect(e.refusal).toBe('entry-name');
    expect(e.message).toContain("'../evil.sql'");
    expect(existsSync(join(scratch, 'evil.sql'))).toBe(false);
    expect(readdirSync(join(scratch, 'inner'))).toEqual([]);
  });

  it('refuses an absolute entry, Unix or Windows', async () => {
    for (const name of ['/tmp/evil.sql', 'C:\\evil.sql']) {
      const e = await refusal(unpackArchive(zipSync({ [name]: text('boom') }), 'zip', scratch));
      expect(e.message).toContain('absolute path');
    }
    expect(existsSync('/tmp/evil.sql')).toBe(false);
    expect(leftBehind()).toEqual([]);
  });

  it('skips and lists a symbolic link entry, and never makes one', async () => {
    const zip = zipSync({
      'real.sql': text('select 1'),
      'link.sql': [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
      pipe: [text(''), { os: 3, attrs: (0o010644 << 16) >>> 0 }],
    } as Zippable);
    const out = await unpackArchive(zip, 'zip', scratch);
    expect(out.files).toBe(1);
    expect(out.skipped).toEqual([
      { entry: 'link.sql', reason: 'a symbolic link: not unpacked' },
      { entry: 'pipe', reason: 'a FIFO: not unpacked' },
    ]);
    expect(existsSync(join(out.dir, 'link.sql'))).toBe(false);
    expect(lstatSync(join(out.dir, 'real.sql')).isFile()).toBe(true);
  });

  it('refuses a claimed 600 MB entry before inflating anything', async () => {
    const zip = claimSize(zipSync({ 'zeros.bin': new Uint8Array(MB) }, { level: 9 }), 600 * MB);
    const e = await refusal(unpackArchive(zip, 'zip', scratch));
    expect(e.refusal).toBe('unpacked-size');
    expect(e.message).toBe('the archive says it unpacks to 600 MB; at most 500 MB');
    expect(e.inflated).toBe(0);
    expect(leftBehind()).toEqual([]);
  });

  it('counts what a lying entry inflates to and stops at the bound, having written no more than it', async () => {
    const bounds = { ...ARCHIVE_BOUNDS, maxUnpackedBytes: 8 * MB };
    // 40 MB of zeros compress to ~40 KB; the archive claims 1,000 bytes.
    const zip = claimSize(zipSync({ 'bomb.bin': new Uint8Array(40 * MB) }, { level: 9 }), 1000);
    expect(zip.byteLength).toBeLessThan(100_000);
    const e = await refusal(unpackArchive(zip, 'zip', scratch, bounds));
    expect(e.refusal).toBe('unpacked-size');
    expect(e.message).toBe('the archive unpacks to more than 8 MB');
    expect(e.written).toBeLessThanOrEqual(8 * MB);
    // Inflated a step at a time (4 KiB of input, ~4.2 MB of output at the most), written up to the bound.
    expect(e.written).toBeGreaterThan(8 * MB - 4.2 * MB);
    expect(e.inflated).toBeLessThanOrEqual(8 * MB + 4.2 * MB);
    expect(leftBehind()).toEqual([]);
  });

  it('refuses too many files, and an archive over the input bound before reading it', async () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 11; i++) many[`f${i}.sql`] = text('x');
    const e = await refusal(unpackArchive(zipSync(many), 'zip', scratch, { ...ARCHIVE_BOUNDS, maxFiles: 10 }));
    expect(e.refusal).toBe('files');
    expect(e.message).toBe('the archive holds 11 files; at most 10');
    const big = join(work, 'big.zip');
    writeFileSync(big, new Uint8Array(50 * MB + 1));
    const tooBig = await refusal(unpackArchive(big, 'zip', scratch));
    expect(tooBig.refusal).toBe('input-size');
    expect(tooBig.message).toBe('the archive is 52,428,801 bytes; at most 50 MB');
    expect(leftBehind()).toEqual([]);
  });

  it('refuses what is not a zip', async () => {
    const e = await refusal(unpackArchive(text('just text, no archive'), 'zip', scratch));
    expect(e.refusal).toBe('format');
  });
});

describe('tar.gz', () => {
  it('unpacks files and folders, skipping and listing links and devices', async () => {
    const archive = await targz([
      { header: { name: 'repo/', type: 'directory' } },
      { header: { name: 'repo/jobs/daily.py' }, body: 'spark.conf.set("spark.databricks.delta.x", "1")\n' },
      { header: { name: './repo/README.md' }, body: 'hello\n' },
      { header: { name: 'repo/link', type: 'symlink', linkname: '/etc/passwd' } },
      { header: { name: 'repo/hard', type: 'link', linkname: 'repo/README.md' } },
      { header: { name: 'repo/dev', type: 'character-device' } },
    ]);
    const file = join(work, 'ok.tar.gz');
    writeFileSync(file, archive);
    const out = await unpackArchive(file, 'tar.gz', scratch);
    expect(out.files).toBe(2);
    expect(out.bytes).toBe(48 + 6);
    expect(readFileSync(join(out.dir, 'repo/README.md'), 'utf8')).toBe('hello\n');
    expect(out.skipped.map((s) => s.entry)).toEqual(['repo/link', 'repo/hard', 'repo/dev']);
    expect(out.skipped[0]?.reason).toBe('a symbolic link: not unpacked');
    expect(readdirSync(join(out.dir, 'repo')).sort()).toEqual(['README.md', 'jobs']);
  });

  it('refuses .. and absolute entries, leaving no folder', async () => {
    for (const name of ['repo/../../evil.sh', '/etc/cron.d/evil']) {
      const archive = await targz([
        { header: { name: 'a.sql' }, body: 'x' },
        { header: { name }, body: 'boom' },
      ]);
      const e = await refusal(unpackArchive(archive, 'tar.gz', scratch));
      expect(e.refusal).toBe('entry-name');
    }
    expect(leftBehind()).toEqual([]);
    expect(existsSync(join(work, 'evil.sh'))).toBe(false);
  });

  it('refuses a file over the unpacked bound before reading it, and too many files', async () => {
    const bounds = { ...ARCHIVE_BOUNDS, maxUnpackedBytes: 4 * MB, maxFiles: 3 };
    const bomb = await targz([{ header: { name: 'zeros.bin' }, body: new Uint8Array(20 * MB) }]);
    expect(bomb.byteLength).toBeLessThan(100_000);
    const e = await refusal(unpackArchive(bomb, 'tar.gz', scratch, bounds));
    expect(e.refusal).toBe('unpacked-size');
    expect(e.message).toBe('the archive unpacks to more than 4 MB');
    expect(e.written).toBe(0);
    const many = await targz([1, 2, 3, 4].map((i) => ({ header: { name: `f${i}.sql` }, body: 'x' })));
    const tooMany = await refusal(unpackArchive(many, 'tar.gz', scratch, bounds));
    expect(tooMany.message).toBe('the archive holds more than 3 files');
    expect(leftBehind()).toEqual([]);
  });

  it('refuses what is not gzip', async () => {
    const e = await refusal(unpackArchive(text('not gzip at all'), 'tar.gz', scratch));
    expect(e.refusal).toBe('format');
    expect(leftBehind()).toEqual([]);
  });
});
