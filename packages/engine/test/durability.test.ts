/**
 * What a commit promises after a power loss (docs/durability.md): before a writer is told its commit
 * landed, every file the commit names, the log entry and `_last_checkpoint` (Iceberg: the data file,
 * manifests and metadata before the catalog's swap) have been fsynced, and so has the folder holding
 * each new name. A power loss cannot be produced by a test, so the order of the system calls of a real
 * writer process is read with strace instead (Debian's, which `npm test` installs when it is missing).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createIcebergTable } from '../src/ops/iceberg/append';
import { SqliteCatalog } from '../src/ops/iceberg/sqlite-catalog';
import { writeTripsParquet } from './helpers/iceberg';
import { lessonTable } from './helpers/lesson';
import { tempDir } from './helpers/tmp';

const root = tempDir('durability');
const helper = (name: string) => fileURLToPath(new URL(`./helpers/${name}`, import.meta.url));

interface Call {
  name: string;
  /** The paths it names: fds as strace -y resolves them, then quoted path arguments. */
  paths: string[];
  /** Whether it succeeded. */
  ok: boolean;
  text: string;
}

/** Calls in the order they returned, across the process's threads (libuv runs fsync on its pool). */
function parseTrace(text: string): Call[] {
  const pending = new Map<string, string>();
  const calls: Call[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+) +(.*)$/.exec(line);
    if (!m) continue;
    const [, pid, rest] = m as unknown as [string, string, string];
    if (rest.endsWith('<unfinished ...>')) {
      pending.set(pid, rest.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest);
    const full = resumed ? `${pending.get(pid) ?? ''}${resumed[1]}` : rest;
    const call = /^(\w+)\((.*)\) += (-?\d+)/.exec(full);
    if (!call) continue;
    const args = call[2] as string;
    const paths = [...args.matchAll(/\d+<([^>]*)>|"((?:[^"\\]|\\.)*)"/g)].map((p) => (p[1] ?? p[2]) as string);
    calls.push({ name: call[1] as string, paths, ok: Number(call[3]) >= 0, text: full });
  }
  return calls;
}

const SYSCALLS = 'trace=fsync,fdatasync,rename,renameat,renameat2,link,linkat,write';

/** Runs a TypeScript worker under strace; `input` is written to its stdin once it prints its first line. */
async function traced(name: string, args: string[], input?: string): Promise<{ calls: Call[]; out: string[] }> {
  const file = join(root, `${name}.${Date.now()}.strace`);
  const child = spawn(
    'strace',
    [
      '-f',
      '-qq',
      '-y',
      '-s',
      '64',
      '-o',
      file,
      '-e',
      SYSCALLS,
      process.execPath,
      '--import',
      'tsx',
      helper(name),
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const out: string[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
    out.push(l);
    if (out.length === 1 && input !== undefined) child.stdin?.end(input);
  });
  if (input === undefined) child.stdin?.end();
  expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
  return { calls: parseTrace(readFileSync(file, 'utf8')), out };
}

/** Index of the first call after `from` that matches, or -1. */
function find(calls: Call[], test: (c: Call) => boolean, from = -1): number {
  for (let i = from + 1; i < calls.length; i++) if (calls[i]?.ok && test(calls[i] as Call)) return i;
  return -1;
}
const isSync = (c: Call) => c.name === 'fsync' || c.name === 'fdatasync';
const synced = (path: string) => (c: Call) => isSync(c) && c.paths[0] === path;
const renamedOnto = (test: (to: string) => boolean) => (c: Call) =>
  c.name.startsWith('rename') && test(c.paths.at(-1) as string);

/**
 * Asserts a file renamed into place had its bytes synced (before the rename when it replaces a file, which a
 * power loss must not leave half-written; else before or after) and then its folder: returns when the folder was.
 */
function expectRenamedDurably(calls: Call[], test: (to: string) => boolean, what: string, replaces = false): number {
  const renamed = find(calls, renamedOnto(test));
  expect(renamed, `${what} renamed into place`).toBeGreaterThan(-1);
  const [from, to] = [calls[renamed]?.paths.at(-2) as string, calls[renamed]?.paths.at(-1) as string];
  const before = find(calls, synced(from));
  const bytes = before > -1 && before < renamed ? before : replaces ? -1 : find(calls, synced(to), renamed);
  expect(bytes, `${what}: its bytes synced${replaces ? ' before the rename' : ''}`).toBeGreaterThan(-1);
  const name = find(calls, synced(dirname(to)), Math.max(renamed, bytes));
  expect(name, `${what}: its folder synced after the rename`).toBeGreaterThan(-1);
  return name;
}

/**
 * Asserts a new file claimed with link() (the store's put-if-absent) had its staged bytes synced before the link and
 * its folder synced after it: returns when the folder was.
 */
function expectLinkedDurably(calls: Call[], test: (to: string) => boolean, what: string): number {
  const linked = find(calls, (c) => c.name.startsWith('link') && test(c.paths.at(-1) as string));
  expect(linked, `${what} claimed with link()`).toBeGreaterThan(-1);
  const [staged, to] = [calls[linked]?.paths.at(-2) as string, calls[linked]?.paths.at(-1) as string];
  expect(staged.startsWith(`${to}#`), `${what} staged beside its name`).toBe(true);
  const bytes = find(calls, synced(staged));
  expect(bytes, `${what}: its bytes synced before link()`).toBeGreaterThan(-1);
  expect(bytes).toBeLessThan(linked);
  const name = find(calls, synced(dirname(to)), linked);
  expect(name, `${what}: its folder synced after link()`).toBeGreaterThan(-1);
  return name;
}

describe('durability, read from a real writer with strace', () => {
  it('a Delta append syncs its data file, log entry, checkpoint and _last_checkpoint, with their folders, before it answers', async () => {
    const dir = await lessonTable(root, 'delta', { configuration: { 'delta.checkpointInterval': '2' } });
    const { calls, out } = await traced('durable-append-worker.ts', [dir]);
    expect(out).toEqual(['acknowledged']);
    const ack = find(calls, (c) => c.name === 'write' && c.text.includes('"acknowledged'));
    expect(ack).toBeGreaterThan(-1);

    const data = expectRenamedDurably(calls, (to) => dirname(to) === dir && to.endsWith('.parquet'), 'data file');
    const entry = join(dir, '_delta_log', '00000000000000000001.json');
    const linked = find(calls, (c) => c.name.startsWith('link') && c.paths.at(-1) === entry);
    expect(linked, 'log entry claimed with link()').toBeGreaterThan(data);
    const staged = calls[linked]?.paths.at(-2) as string;
    expect(staged.startsWith(`${entry}#`)).toBe(true);
    const stagedSync = find(calls, synced(staged));
    expect(stagedSync, 'log entry synced before link()').toBeGreaterThan(-1);
    expect(stagedSync).toBeLessThan(linked);
    const logDir = find(calls, synced(join(dir, '_delta_log')), linked);
    expect(logDir, 'log folder synced after link()').toBeGreaterThan(linked);

    const checkpoint = expectRenamedDurably(calls, (to) => to.endsWith('.checkpoint.parquet'), 'checkpoint');
    const last = expectRenamedDurably(calls, (to) => to === join(dir, '_delta_log', '_last_checkpoint'), 'hint', true);
    expect(
      find(
        calls,
        renamedOnto((to) => to.endsWith('_last_checkpoint')),
      ),
    ).toBeGreaterThan(checkpoint);
    expect(Math.max(logDir, last)).toBeLessThan(ack);
  });

  it('an Iceberg append syncs its data file, manifest, manifest list and metadata before the catalog swap', async () => {
    const dir = join(root, 'iceberg');
    mkdirSync(dir);
    const db = join(dir, 'catalog.db');
    const source = await writeTripsParquet(join(root, 'trips.parquet'), 1, 10);
    const catalog = await SqliteCatalog.open({ path: db, warehouse: join(dir, 'wh') });
    await createIcebergTable(catalog, 'lab.durable', { schemaFrom: source });
    await catalog.close();
    const { calls, out } = await traced('iceberg-append-worker.ts', [db, 'lab.durable', source], 'go\n');
    expect(out[0]).toBe('ready');
    expect(JSON.parse(out[1] as string).error).toBeUndefined();
    const swap = calls.findLastIndex((c) => c.ok && isSync(c) && (c.paths[0] ?? '').startsWith(db));
    expect(swap, 'the catalog commit').toBeGreaterThan(-1);
    const data = expectRenamedDurably(calls, (to) => to.includes('/data/') && to.endsWith('.parquet'), 'data file');
    expect(data, 'data file durable before the swap').toBeLessThan(swap);
    for (const [what, test] of [
      ['manifest', (p: string) => p.endsWith('-m0.avro')],
      ['manifest list', (p: string) => /\/snap-[^/]+\.avro$/.test(p)],
      ['metadata', (p: string) => /\/00001-[^/]+\.metadata\.json$/.test(p)],
    ] as const) {
      expect(expectLinkedDurably(calls, test, what), `${what} durable before the swap`).toBeLessThan(swap);
    }
  });
});
