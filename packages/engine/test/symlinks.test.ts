/**
 * Nothing inside a table folder is followed through a symlink: a log entry, a data file, the log
 * folder or a partition folder linking outside the table is refused when the table is opened, read,
 * listed or written, with the key (never an absolute path) in the message. A table reached through a
 * symlinked root (the location resolver's business) and the lab's hard-linked copies still work.
 */
import { cpSync, linkSync, mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DeltaTable,
  field,
  LocalObjectStore,
  StorageError,
  type StructType,
  storeFor,
  vacuum,
  writeDeltaTable,
} from '../src/index';
import { tempDir } from './helpers/tmp';

const root = tempDir('symlinks');
const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long'), field('part', 'string')] };
const rows = (from: number, n: number, part = 'a') => Array.from({ length: n }, (_, i) => ({ id: from + i, part }));

/** A two-version table, plus an "outside" table whose files an attacker links to. */
async function tables(name: string, partitionBy: string[] = []) {
  const dir = join(root, name);
  const outside = join(root, `${name}-outside`);
  await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rows(0, 3) }, { partitionBy });
  await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rows(3, 3) }, { mode: 'append' });
  await writeDeltaTable(outside, { kind: 'rows', schema: SCHEMA, rows: rows(100, 50, 'secret') }, { partitionBy });
  await writeDeltaTable(outside, { kind: 'rows', schema: SCHEMA, rows: rows(150, 50, 'secret') }, { mode: 'append' });
  return { dir, outside };
}

const dataFiles = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort();

/** Replaces `path` with a symlink to `target`. */
function swapForSymlink(path: string, target: string): void {
  renameSync(path, `${path}.gone`);
  symlinkSync(target, path);
}

/** `key` is the refused key, or the start of it (`part=a/` when any file of that folder may be met first). */
async function expectRefused(p: Promise<unknown>, key: string): Promise<void> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StorageError);
  const message = (e as Error).message;
  expect(message).toMatch(/^refusing '[^']+': it is or passes through a symlink inside the table/);
  expect(message).toContain(`refusing '${key}`);
  // The message names the key only: no absolute path tells a client where the tables live.
  expect(message).not.toContain(root);
}

describe('symlinks inside a table', () => {
  it('refuses a log entry that links outside: open fails naming the entry, instead of reading it', async () => {
    const { dir, outside } = await tables('log-entry');
    const entry = '_delta_log/00000000000000000001.json';
    swapForSymlink(join(dir, entry), join(outside, entry));
    await expectRefused(DeltaTable.open(dir), entry);
    await expectRefused(storeFor(dir).get(entry), entry);
    await expectRefused(storeFor(dir).head(entry), entry);
  });

  it('refuses a data file that links to a Parquet file outside: reading and auditing fail naming the file', async () => {
    const { dir, outside } = await tables('data-file');
    const [mine] = dataFiles(dir) as [string];
    swapForSymlink(join(dir, mine), join(outside, dataFiles(outside)[0] as string));
    // Opening reads only the log, which is the table's own; every read of the data is refused.
    const t = await DeltaTable.open(dir);
    await expectRefused(t.count(), mine);
    await expectRefused(
      t.query((rel) => `SELECT max(id) FROM (${rel})`),
      mine,
    );
    await expectRefused(storeFor(dir).localPath(mine), mine);
    await expectRefused(vacuum(t, { retentionHours: 0, enforceRetentionDuration: false }), mine);
  });

  it('refuses a log folder or a partition folder that links outside', async () => {
    const log = await tables('log-folder');
    swapForSymlink(join(log.dir, '_delta_log'), join(log.outside, '_delta_log'));
    await expectRefused(DeltaTable.open(log.dir), '_delta_log');
    // A writer would otherwise claim its version in the other table's log.
    await expectRefused(
      storeFor(log.dir).putIfAbsent('_delta_log/00000000000000000002.json', new Uint8Array()),
      '_delta_log/00000000000000000002.json',
    );

    const parts = await tables('partition-folder', ['part']);
    swapForSymlink(join(parts.dir, 'part=a'), join(parts.outside, 'part=secret'));
    const t = await DeltaTable.open(parts.dir);
    await expectRefused(t.count(), 'part=a/');
    await expectRefused(storeFor(parts.dir).list('', { recursive: true }), 'part=a');
  });

  it('refuses to stage or write through a symlinked folder, writing nothing outside', async () => {
    const { dir, outside } = await tables('staging');
    const elsewhere = join(outside, 'elsewhere');
    mkdirSync(elsewhere);
    // A write of a few rows stages nothing (ops/parquet/small-rows.ts), so the folder may not exist yet.
    mkdirSync(join(dir, '_staging'), { recursive: true });
    swapForSymlink(join(dir, '_staging'), elsewhere);
    await expectRefused(
      writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rows(9, 1) }, { mode: 'append' }),
      '_staging/',
    );
    symlinkSync(elsewhere, join(dir, 'linked'));
    await expectRefused(storeFor(dir).put('linked/x.parquet', new Uint8Array([1])), 'linked/x.parquet');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('still reads a normal table, one reached through a symlinked root, and a hard-linked copy', async () => {
    const { dir } = await tables('normal');
    expect(await (await DeltaTable.open(dir)).count()).toBe(6);
    const alias = join(root, 'alias');
    symlinkSync(dir, alias);
    const t = await DeltaTable.open(alias);
    expect(await t.count()).toBe(6);
    // The lab's run copies: hard links of the data files (not symlinks), a log of their own.
    const copy = join(root, 'hard-linked');
    mkdirSync(copy);
    for (const f of dataFiles(dir)) linkSync(join(dir, f), join(copy, f));
    cpSync(join(dir, '_delta_log'), join(copy, '_delta_log'), { recursive: true });
    expect(await (await DeltaTable.open(copy)).count()).toBe(6);
    const store = new LocalObjectStore(join(root, 'copied-in'));
    for (const f of dataFiles(dir)) await store.copyIn(storeFor(dir), f);
    expect(readdirSync(join(root, 'copied-in')).sort()).toEqual(dataFiles(dir));
  });
});
