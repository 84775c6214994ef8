/**
 * What writers killed at work leave beside a table: staging folders under
 * `_staging/` and log entries under their temporary names in `_delta_log`. Vacuum reclaims them once
 * older than the retention, never a live process's; the next process on the host that stages sweeps a
 * dead writer's folder (empty folders too); the S3 store's local staging in the temp folder likewise.
 * The writers are real processes, killed with SIGKILL; ages are set with utimes, never waited for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DeltaTable, vacuum, writeDeltaTable } from '../src/index';
import { february, JAN_ROWS, lessonTable } from './helpers/lesson';
import { tempDir } from './helpers/tmp';

const root = tempDir('leftovers');
const WORKER = fileURLToPath(new URL('./helpers/staging-worker.ts', import.meta.url));

interface Stager {
  child: ChildProcess;
  /** The staging folder it made. */
  folder: string;
}

/** Starts a staging worker and waits until it has staged (it prints its folder). */
async function stage(kind: 'delta' | 's3', location: string): Promise<Stager> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, kind, location], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const folder = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve),
  );
  return { child, folder };
}

async function kill(w: Stager): Promise<void> {
  const exited = new Promise((resolve) => w.child.on('exit', (_code, signal) => resolve(signal)));
  w.child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

/** Lets a live worker finish: it removes its own staging, as a writer does. */
async function finish(w: Stager): Promise<void> {
  const exited = new Promise((resolve) => w.child.on('exit', resolve));
  w.child.stdin?.end('go\n');
  expect(await exited).toBe(0);
}

/** Two writers at work on `location`, the first of them then killed. */
async function deadAndLive(kind: 'delta' | 's3', location: string): Promise<{ dead: Stager; live: Stager }> {
  const dead = await stage(kind, location);
  const live = await stage(kind, location);
  await kill(dead);
  return { dead, live };
}

const HOURS = 3_600_000;
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe('vacuum', () => {
  it("reclaims a killed writer's staging and temporary log entry once older than the retention, never a live writer's", async () => {
    const dir = await lessonTable(root, 'vacuum');
    const { dead, live } = await deadAndLive('delta', dir);
    const deadName = basename(dead.folder);
    const liveName = basename(live.folder);

    // Left by the code before owner tags (`#<uuid>`, `.<uuid>.tmp`) and by a writer on another host: only
    // age can tell.
    const legacy = [
      `_delta_log/00000000000000000001.json#${randomUUID()}`,
      `_delta_log/_last_checkpoint.${randomUUID()}.tmp`,
    ];
    for (const f of legacy) {
      writeFileSync(join(dir, f), '{}');
      age(join(dir, f), 2 * HOURS);
    }
    const otherHost = (n: number) => `_staging/000000000000-${n}-${randomUUID()}`;
    const [oldForeign, freshForeign] = [otherHost(1), otherHost(2)];
    for (const f of [oldForeign, freshForeign]) {
      mkdirSync(join(dir, f));
      writeFileSync(join(dir, f, 'part.parquet'), 'partial');
    }
    // A folder goes by its newest file: one old file beside a fresh one keeps it.
    writeFileSync(join(dir, freshForeign, 'old.json'), '[]');
    age(join(dir, freshForeign, 'old.json'), 2 * HOURS);
    age(join(dir, oldForeign, 'part.parquet'), 2 * HOURS);

    // The dead writer's: the file in its staging folder, and its log entry under a temporary name.
    const deadOwner = `#${deadName.split('-').slice(0, 2).join('-')}-`;
    const deadKeys = [
      `_staging/${deadName}/f0.parquet`,
      ...readdirSync(join(dir, '_delta_log'))
        .filter((f) => f.includes(deadOwner))
        .map((f) => `_delta_log/${f}`),
    ];
    expect(deadKeys).toHaveLength(2);

    const t = await DeltaTable.open(dir);
    const hourOld = await vacuum(t, { retentionHours: 1, enforceRetentionDuration: false });
    expect(hourOld.files).toEqual([]);
    expect(hourOld.leftovers).toEqual([...legacy, `${oldForeign}/part.parquet`].sort());

    const now = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    expect(now.files).toEqual([]);
    expect(now.leftovers).toEqual(
      [
        ...deadKeys,
        ...legacy,
        `${oldForeign}/part.parquet`,
        `${freshForeign}/part.parquet`,
        `${freshForeign}/old.json`,
      ].sort(),
    );
    expect(now.leftoverBytes).toBeGreaterThan(0);
    // The dead writer's folder is gone whole, empty sub-folder included; the live one's is untouched.
    expect(readdirSync(join(dir, '_staging')).sort()).toEqual([liveName]);
    expect(readdirSync(live.folder)).toHaveLength(2);
    expect(readdirSync(join(dir, '_delta_log')).filter((f) => f.includes('#') || f.endsWith('.tmp'))).toHaveLength(1);
    // The table is as it was: leftovers are not table files, so no VACUUM commits either.
    const after = await DeltaTable.open(dir);
    expect(after.version).toBe(t.version);
    expect(await after.count()).toBe(JAN_ROWS);

    await finish(live);
    expect(readdirSync(join(dir, '_staging'))).toEqual([]);
    expect(readdirSync(join(dir, '_delta_log')).filter((f) => f.includes('#'))).toEqual([]);
  });
});

describe('the next write on this host', () => {
  it("sweeps a killed writer's staging folder, empty folders included, and leaves a live writer's", async () => {
    const dir = await lessonTable(root, 'sweep');
    const { dead, live } = await deadAndLive('delta', dir);
    await writeDeltaTable(dir, february('2025-02-01', 5, 0), { mode: 'append' });
    expect(existsSync(dead.folder)).toBe(false);
    expect(readdirSync(live.folder)).toHaveLength(2);
    await finish(live);
  });

  it("sweeps the S3 store's local staging of a killed process from the temp folder, and leaves a live one's", async () => {
    const location = 's3://racelab-test/leftovers';
    const { dead, live } = await deadAndLive('s3', location);
    expect(existsSync(dead.folder)).toBe(true);
    // Another process staging for S3 on this host (no S3 request is made to stage).
    const next = await stage('s3', location);
    expect(existsSync(dead.folder)).toBe(false);
    expect(readdirSync(live.folder)).toHaveLength(2);
    await finish(next);
    await finish(live);
    expect(existsSync(live.folder)).toBe(false);
  });
});
