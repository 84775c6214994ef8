/**
 * The disk cache of parsed checkpoints: a fresh process loads a checkpoint it has seen before without DuckDB, and
 * never gets a state other than the checkpoint's own: a checkpoint rewritten under the same version, a corrupt,
 * unreadable or forged entry, or a cache folder inside a table all fall back to reading the checkpoint.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { buildCommitInfo, commit, LocalObjectStore, loadState, writeCheckpoint } from '../src/index';
import { sqlString, withConnection } from '../src/ops/parquet/duck';
import { createLogOnlyTable } from './helpers/log';
import { TAXI } from './helpers/taxi';
import { tempDir } from './helpers/tmp';

const root = tempDir('checkpoint-cache');
const WORKER = fileURLToPath(new URL('./helpers/load-worker.ts', import.meta.url));
const CP3 = join('_delta_log', `${String(3).padStart(20, '0')}.checkpoint.parquet`);
const FILES = ['f1.parquet', 'f2.parquet', 'f3.parquet', 'f4.parquet'];

interface Seen {
  version: number;
  checkpointVersion: number | null;
  files: string[];
  duckdb: boolean;
}

/** Loads the table's latest state in a new node process. */
async function loadInFreshProcess(table: string, cacheDir: string | null): Promise<Seen> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', WORKER, table, cacheDir ?? '-']);
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Seen;
}

const add = (path: string) => ({ add: { path, partitionValues: {}, size: 1, modificationTime: 1, dataChange: true } });

/** Versions 1..4 each add one file; a checkpoint at version 3. */
async function makeTable(name: string): Promise<string> {
  const dir = join(root, name);
  const store = await createLogOnlyTable(dir, TAXI);
  const info = { commitInfo: buildCommitInfo({ operation: 'WRITE', operationParameters: {} }) };
  for (let v = 1; v <= 4; v++) {
    await commit({ store, readVersion: v - 1, actions: [info, add(`f${v}.parquet`)] });
    if (v === 3) await writeCheckpoint(store, await loadState(store, 3, { cacheDir: null }));
  }
  return dir;
}

const entries = (cacheDir: string) =>
  existsSync(join(cacheDir, 'checkpoints')) ? readdirSync(join(cacheDir, 'checkpoints')) : [];

/** The only entry in the cache, by path. */
function onlyEntry(cacheDir: string): string {
  const names = entries(cacheDir);
  expect(names).toHaveLength(1);
  return join(cacheDir, 'checkpoints', names[0] as string);
}

/** Re-encodes an entry's body with a valid checksum, as a well-formed entry of the documented layout. */
function rewriteEntry(path: string, edit: (entry: { key: string; actions: unknown[] }) => void): void {
  const bytes = readFileSync(path);
  const firstNl = bytes.indexOf(0x0a);
  const body = bytes.subarray(firstNl + 42);
  const entry = JSON.parse(body.toString('utf8'));
  edit(entry);
  const next = Buffer.from(JSON.stringify(entry));
  const sha = createHash('sha1').update(next).digest('hex');
  writeFileSync(path, Buffer.concat([bytes.subarray(0, firstNl + 1), Buffer.from(`${sha}\n`), next]));
}

describe('a fresh process', () => {
  it('parses the checkpoint once, stores it 0600 in a 0700 folder, and the next process loads it without DuckDB', async () => {
    const table = await makeTable('fresh');
    const cache = join(root, 'cache-fresh');
    const first = await loadInFreshProcess(table, cache);
    expect(first).toEqual({ version: 4, checkpointVersion: 3, files: FILES, duckdb: true });
    const entry = onlyEntry(cache);
    expect(entry.endsWith('.json')).toBe(true); // no temporary file left beside it
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    expect(statSync(join(cache, 'checkpoints')).mode & 0o777).toBe(0o700);
    expect(readFileSync(entry, 'utf8').startsWith('racelab-checkpoint-cache/1\n')).toBe(true);
    expect(
      readdirSync(join(table, '_delta_log')).filter((n) => !/^\d{20}\.(json|checkpoint\.parquet)$/.test(n)),
    ).toEqual(['_last_checkpoint']);
    const second = await loadInFreshProcess(table, cache);
    expect(second).toEqual({ ...first, duckdb: false });
  });

  it('with no cache folder, writes nothing and parses the checkpoint every time', async () => {
    const table = await makeTable('off');
    const before = readdirSync(root).sort();
    const seen = await loadInFreshProcess(table, null);
    expect(seen).toEqual({ version: 4, checkpointVersion: 3, files: FILES, duckdb: true });
    expect(readdirSync(root).sort()).toEqual(before);
  });
});

describe('never a wrong state', () => {
  it('reads a checkpoint rewritten under the same version, same size and same mtime, from its new bytes', async () => {
    const table = await makeTable('rewritten');
    const cache = join(root, 'cache-rewritten');
    // Checkpoints of version 3 written by the engine in a copy of the table: first the same state (put in place of
    // the table's own, so both come from the same writer), then with f2 renamed, trying names until one gives a
    // file of the same size (so only the inode's change time tells the two apart).
    const other = join(root, 'rewritten-other');
    cpSync(table, other, { recursive: true });
    const checkpointOf = async (rename: (path: string) => string) => {
      const state = await loadState(new LocalObjectStore(table), 3, { cacheDir: null });
      for (const [k, a] of state.files) state.files.set(k, { ...a, path: rename(a.path) });
      await writeCheckpoint(new LocalObjectStore(other), state);
      return readFileSync(join(other, CP3));
    };
    writeFileSync(join(table, CP3), await checkpointOf((p) => p));
    const mtime = 1_700_000_000; // whole seconds, so that setting it again gives the same nanoseconds
    utimesSync(join(table, CP3), mtime, mtime);
    expect((await loadInFreshProcess(table, cache)).files).toEqual(FILES);
    const was = statSync(join(table, CP3));
    let bytes = Buffer.alloc(0);
    let renamed = '';
    for (const name of ['f0.parquet', 'f5.parquet', 'e2.parquet', 'g2.parquet', 'f2.parquex', 'f2.parquey']) {
      renamed = name;
      bytes = await checkpointOf((p) => (p === 'f2.parquet' ? renamed : p));
      if (bytes.length === was.size) break;
    }
    expect(bytes.length).toBe(was.size);
    expect(bytes.equals(readFileSync(join(table, CP3)))).toBe(false);
    writeFileSync(join(table, CP3), bytes); // in place: same inode
    utimesSync(join(table, CP3), mtime, mtime);
    const now = statSync(join(table, CP3), { bigint: true });
    expect([now.ino, now.size, now.mtimeNs]).toEqual([BigInt(was.ino), BigInt(was.size), BigInt(mtime) * 10n ** 9n]);
    const seen = await loadInFreshProcess(table, cache);
    expect(seen.files).toEqual(['f1.parquet', 'f3.parquet', 'f4.parquet', renamed].sort());
    expect(seen.duckdb).toBe(true);
    // One entry per table: the new checkpoint's replaced the old one's.
    expect(readFileSync(onlyEntry(cache), 'utf8')).toContain(renamed);
  });

  it('ignores a corrupt entry (a flipped byte, a truncated file) and writes a good one again', async () => {
    const table = await makeTable('corrupt');
    const cache = join(root, 'cache-corrupt');
    await loadInFreshProcess(table, cache);
    const entry = onlyEntry(cache);
    const good = readFileSync(entry);
    const flipped = Buffer.from(good);
    const i = flipped.indexOf('f2.parquet');
    flipped[i + 1] = '9'.charCodeAt(0); // still valid JSON, a different file: only the checksum tells
    for (const bad of [flipped, good.subarray(0, good.length - 100), Buffer.alloc(0)]) {
      writeFileSync(entry, bad);
      expect(await loadInFreshProcess(table, cache)).toEqual({
        version: 4,
        checkpointVersion: 3,
        files: FILES,
        duckdb: true,
      });
      expect(readFileSync(entry).equals(good)).toBe(true);
    }
  });

  it('ignores an unreadable entry', async () => {
    const table = await makeTable('unreadable');
    const cache = join(root, 'cache-unreadable');
    await loadInFreshProcess(table, cache);
    const entry = onlyEntry(cache);
    rmSync(entry);
    mkdirSync(entry); // a folder where the entry should be: reading it fails, as would a file it may not read
    expect(await loadInFreshProcess(table, cache)).toEqual({
      version: 4,
      checkpointVersion: 3,
      files: FILES,
      duckdb: true,
    });
  });

  it('ignores a well-formed entry whose key names another checkpoint, and serves one whose key matches', async () => {
    const table = await makeTable('forged');
    const cache = join(root, 'cache-forged');
    await loadInFreshProcess(table, cache);
    const entry = onlyEntry(cache);
    const drop = (e: { actions: unknown[] }) => {
      e.actions = e.actions.filter((a) => JSON.stringify(a).indexOf('f1.parquet') < 0);
    };
    rewriteEntry(entry, (e) => {
      drop(e);
      e.key = e.key.replace(',3,', ',2,');
    });
    expect((await loadInFreshProcess(table, cache)).files).toEqual(FILES);
    // The control: the same edit under the right key is served, so it is the key that refused the entry above.
    rewriteEntry(entry, drop);
    expect(await loadInFreshProcess(table, cache)).toEqual({
      version: 4,
      checkpointVersion: 3,
      files: ['f2.parquet', 'f3.parquet', 'f4.parquet'],
      duckdb: false,
    });
  });

  it('checks the sidecars of a v2 checkpoint: one rewritten in place is read again', async () => {
    // Delta Spark's v2 checkpoint (a JSON top-level file naming Parquet sidecars) without the commits.
    const table = join(root, 'v2');
    cpSync(fixture('delta-spark-golden', 'v2-checkpoint-json', 'delta'), table, { recursive: true });
    for (const f of readdirSync(join(table, '_delta_log')))
      if (/^\d{20}\.json$/.test(f)) rmSync(join(table, '_delta_log', f));
    const cache = join(root, 'cache-v2');
    const first = await loadInFreshProcess(table, cache);
    expect(first).toMatchObject({ version: 2, checkpointVersion: 2, duckdb: true });
    expect(await loadInFreshProcess(table, cache)).toEqual({ ...first, duckdb: false });
    const dir = join(table, '_delta_log', '_sidecars');
    const sidecar = join(dir, readdirSync(dir).filter((f) => f.endsWith('.parquet'))[0] as string);
    const dropped = join(root, 'v2-sidecar.parquet');
    const path = await withConnection(async (c) => {
      const r = await c.runAndReadAll(
        `SELECT add.path FROM read_parquet(${sqlString(sidecar)}) WHERE add IS NOT NULL LIMIT 1`,
      );
      const p = r.getColumns()[0]?.[0] as string;
      await c.run(
        `COPY (SELECT * FROM read_parquet(${sqlString(sidecar)}) WHERE add.path IS DISTINCT FROM ${sqlString(p)}) TO ${sqlString(dropped)} (FORMAT parquet)`,
      );
      return p;
    });
    writeFileSync(sidecar, readFileSync(dropped)); // in place: the top-level checkpoint file is untouched
    const seen = await loadInFreshProcess(table, cache);
    expect(seen.files).toEqual(first.files.filter((f) => f !== path));
    expect(seen.files).toHaveLength(first.files.length - 1);
  });

  it('never keeps the cache inside a table', async () => {
    const table = await makeTable('inside');
    const cache = join(table, 'cache');
    expect(await loadInFreshProcess(table, cache)).toEqual({
      version: 4,
      checkpointVersion: 3,
      files: FILES,
      duckdb: true,
    });
    expect(existsSync(cache)).toBe(false);
  });
});

describe('in one process', () => {
  it('keeps parsed checkpoints by identity: a checkpoint rewritten under the same version is read again', async () => {
    const table = await makeTable('memory');
    const store = new LocalObjectStore(table);
    expect((await loadState(store, undefined, { cacheDir: null })).files.size).toBe(4);
    const other = join(root, 'memory-other');
    cpSync(table, other, { recursive: true });
    const state = await loadState(new LocalObjectStore(other), 3, { cacheDir: null });
    state.files.delete([...state.files.keys()][0] as string);
    await writeCheckpoint(new LocalObjectStore(other), state);
    writeFileSync(join(table, CP3), readFileSync(join(other, CP3)));
    expect((await loadState(store, undefined, { cacheDir: null })).files.size).toBe(3);
  });
});
