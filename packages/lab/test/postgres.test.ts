/**
 * The Postgres contrast (P1–P3) on a real embedded Postgres 18, with a small January file made here.
 * The expected outcomes live in this file only: the code under test just runs the writers.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConnection } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectionFromEnv,
  findFreePort,
  type LabPostgres,
  type PostgresCaseResult,
  postgresServerVersion,
  postgresTableCheck,
  preparePostgresLab,
  processAlive,
  resetPostgresLab,
  runPostgresCase,
  startLabPostgres,
  withLabPostgres,
} from '../src/postgres/index';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverModule = path.join(here, '../src/postgres/server.ts');

// mkdtemp gives 0700; the server runs as OS user postgres and must traverse the parent.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'racelab-pgtest-'));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, 'main');
const january = path.join(root, 'january.parquet');

// 3,000 trips: per 30 trips 7 of VendorID 1, 20 of 2, 1 of 6, 2 of 7.
const VENDOR_TRIPS: Record<string, number> = { '1': 700, '2': 2000, '6': 100, '7': 200 };
const TRIPS = 3000;
const SERIALIZATION = 'could not serialize access due to concurrent update';

let server: LabPostgres | null = null;
const started: LabPostgres[] = [];

async function writeJanuary(file: string): Promise<void> {
  await withConnection(async (c) => {
    await c.run(`COPY (
      SELECT i::BIGINT AS trip_id,
             (CASE WHEN i % 30 < 7 THEN 1 WHEN i % 30 < 27 THEN 2 WHEN i % 30 = 27 THEN 6 ELSE 7 END)::INTEGER AS "VendorID",
             round(((i * 37) % 1000) / 100.0 + 0.01, 2)::DOUBLE AS tip_amount
        FROM range(${TRIPS}) t(i)
    ) TO '${file}' (FORMAT parquet)`);
  });
}

function zeroDeltas(): Record<string, number> {
  return Object.fromEntries(Object.keys(VENDOR_TRIPS).map((v) => [v, 0]));
}

function mainServer(): LabPostgres {
  if (server === null) throw new Error('the server did not start');
  return server;
}

/** Starts the server in a separate Node process, reads its PID and port, then SIGKILLs that process. */
async function orphanServer(dir: string): Promise<{ pid: number; port: number }> {
  const script = `
    import { startLabPostgres } from ${JSON.stringify(serverModule)};
    const pg = await startLabPostgres({ dataDir: ${JSON.stringify(dir)} });
    console.log(JSON.stringify({ pid: pg.pid, port: pg.port }));
    setInterval(() => {}, 1000);
  `;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.join(here, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const info = await new Promise<{ pid: number; port: number }>((resolve, reject) => {
    child.stdout?.on('data', (d) => {
      out += String(d);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { pid: number; port: number });
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before starting Postgres: ${err}`)));
  });
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  return info;
}

function expectBaseWriters(r: PostgresCaseResult): void {
  expect(r.writers.map((w) => w.name)).toEqual(['A', 'B']);
  for (const w of r.writers) {
    expect(w).toMatchObject({
      operation: 'postgres-update',
      version: null,
      attempts: 1,
      commitRetries: null,
      attemptErrors: [],
      warnings: [],
    });
  }
  expect(r.writers[0]).toMatchObject({ committed: true, errorClass: null, errorMessage: null, waitedOnLock: null });
  expect(r.table).toMatchObject({
    version: null,
    rows: TRIPS,
    distinctTripIds: TRIPS,
    tripsOnDay: {},
    tripsByVendor: VENDOR_TRIPS,
    dataFilesOnDisk: null,
    dataFilesInLog: null,
  });
}

describe('embedded Postgres and the P cases', () => {
  beforeAll(async () => {
    await writeJanuary(january);
  });

  afterAll(async () => {
    for (const s of started) await s.stop();
    for (const s of started) expect(processAlive(s.pid)).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('stops the orphan of a SIGKILLed run by PID, then starts on the same cluster', async () => {
    const orphan = await orphanServer(dataDir);
    expect(processAlive(orphan.pid)).toBe(true); // the Node process is gone, its Postgres is not
    const t0 = performance.now();
    server = await startLabPostgres({ dataDir });
    started.push(server);
    const startMs = performance.now() - t0;
    expect(processAlive(orphan.pid)).toBe(false);
    expect(server.initialised).toBe(false);
    expect(server.pid).not.toBe(orphan.pid);
    expect(server.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    console.info(`start (reused cluster, orphan stopped first): ${startMs.toFixed(0)} ms`);
  });

  it('loads January once with COPY; a second prepare skips the load', async () => {
    const url = mainServer().url;
    const first = await preparePostgresLab(url, january);
    expect(first).toMatchObject({ loaded: true, rows: TRIPS });
    expect(first.url).toMatch(/\/racelab_lab$/);
    expect(first.serverVersion).toMatch(/^18\./);
    console.info(`load of ${TRIPS} rows: ${first.loadMs} ms`);
    const second = await preparePostgresLab(url, january);
    expect(second).toMatchObject({ loaded: false, rows: TRIPS, fingerprint: first.fingerprint, loadMs: 0 });
    const check = await postgresTableCheck(url);
    expect(check.tipDeltaByVendor).toEqual(zeroDeltas());
    expect(check.tripsByVendor).toEqual(VENDOR_TRIPS);
  });

  it.each([1, 2])('P1 (run %i): different rows, read committed: B never waits, both commit', async () => {
    const t0 = performance.now();
    const r = await runPostgresCase(mainServer().url, { isolation: 'read committed', vendorA: 1, vendorB: 2 });
    console.info(`P1 run: ${(performance.now() - t0).toFixed(0)} ms, ${r.watchPolls} polls`);
    expectBaseWriters(r);
    expect(r.writers[1]).toMatchObject({ committed: true, waitedOnLock: false, errorClass: null, sqlState: null });
    expect(r.writers[0]?.observed).toEqual({ rowsUpdated: VENDOR_TRIPS['1'] });
    expect(r.writers[1]?.observed).toEqual({ rowsUpdated: VENDOR_TRIPS['2'] });
    expect(r.table.tipDeltaByVendor).toEqual({ ...zeroDeltas(), '1': 700, '2': 2000 });
    expect(r.table.tipChangedByVendor).toEqual({ '1': 700, '2': 2000, '6': 0, '7': 0 });
    expect(r.table.tipDeltaValues).toEqual([1]);
  });

  it.each([1, 2])('P2 (run %i): same rows, read committed: B waits, then both land (+2 per trip)', async () => {
    const t0 = performance.now();
    const r = await runPostgresCase(mainServer().url, { isolation: 'read committed', vendorA: 2, vendorB: 2 });
    console.info(`P2 run: ${(performance.now() - t0).toFixed(0)} ms, ${r.watchPolls} polls`);
    expectBaseWriters(r);
    expect(r.writers[1]).toMatchObject({ committed: true, waitedOnLock: true, errorClass: null, sqlState: null });
    expect(r.writers[1]?.observed).toEqual({ rowsUpdated: VENDOR_TRIPS['2'] });
    // 2 × the vendor-2 trips, not 4×: the run started from reset tips.
    expect(r.table.tipDeltaByVendor).toEqual({ ...zeroDeltas(), '2': 2 * 2000 });
    expect(r.table.tipChangedByVendor).toEqual({ '1': 0, '2': 2000, '6': 0, '7': 0 });
    expect(r.table.tipDeltaValues).toEqual([2]);
  });

  it.each([1, 2])('P3 (run %i): same rows, repeatable read: B waits, then fails to serialize', async () => {
    const r = await runPostgresCase(mainServer().url, { isolation: 'repeatable read', vendorA: 2, vendorB: 2 });
    expectBaseWriters(r);
    expect(r.writers[1]).toMatchObject({
      committed: false,
      waitedOnLock: true,
      errorClass: 'SerializationFailure',
      sqlState: '40001',
      errorMessage: SERIALIZATION,
    });
    expect(r.table.tipDeltaByVendor).toEqual({ ...zeroDeltas(), '2': 2000 });
    expect(r.table.tipDeltaValues).toEqual([1]);
  });

  it('reset puts every tip back', async () => {
    const url = mainServer().url;
    await runPostgresCase(url, { isolation: 'read committed', vendorA: 2, vendorB: 2 });
    expect((await postgresTableCheck(url)).tipDeltaByVendor['2']).toBe(4000);
    expect(await resetPostgresLab(url)).toBe(2000);
    const after = await postgresTableCheck(url);
    expect(after.tipDeltaByVendor).toEqual(zeroDeltas());
    expect(after.tipDeltaValues).toEqual([]);
    expect(await resetPostgresLab(url)).toBe(0);
  });

  it('a port already taken on 127.0.0.1: a clear error with the server log; a dead stale postmaster.pid is removed', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const addr = taken.address();
    const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
    const otherDir = path.join(root, 'other');
    try {
      const err = await startLabPostgres({ dataDir: otherDir, port }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toContain(`port ${port} is in use`);
      expect(message).toMatch(/Address already in use/);
      expect(message).not.toContain('undefined');
    } finally {
      await new Promise((r) => taken.close(r));
    }
    // A postmaster.pid naming a dead process (as after a crash and a reboot) is stale: removed, then start.
    const dead = spawnSync('true').pid;
    expect(dead).toBeTypeOf('number');
    fs.writeFileSync(path.join(otherDir, 'pgdata', 'postmaster.pid'), `${dead}\n${path.join(otherDir, 'pgdata')}\n`);
    const other = await startLabPostgres({ dataDir: otherDir });
    started.push(other);
    expect(other.initialised).toBe(false);
    await other.stop();
    expect(processAlive(other.pid)).toBe(false);
  });

  it('runPostgresCase where nothing listens: ECONNREFUSED, quickly', async () => {
    const port = await findFreePort();
    const t0 = performance.now();
    await expect(
      runPostgresCase(`postgresql://postgres:x@127.0.0.1:${port}/postgres`, {
        isolation: 'read committed',
        vendorA: 1,
        vendorB: 2,
      }),
    ).rejects.toThrow(/cannot connect to Postgres at 127\.0\.0\.1:\d+\/racelab_lab .*ECONNREFUSED/);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('withLabPostgres uses DATABASE_URL when set and starts nothing', async () => {
    const url = mainServer().url;
    const before = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url;
    try {
      expect(connectionFromEnv()).toBe(url);
      const version = await withLabPostgres(path.join(root, 'never-created'), (u) => postgresServerVersion(u));
      expect(version).toMatch(/^18\./);
      expect(fs.existsSync(path.join(root, 'never-created'))).toBe(false);
    } finally {
      if (before === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = before;
    }
  });

  it('stop() ends the server by PID', async () => {
    const s = mainServer();
    await s.stop();
    expect(processAlive(s.pid)).toBe(false);
    expect(fs.existsSync(path.join(s.databaseDir, 'postmaster.pid'))).toBe(false);
    await s.stop(); // idempotent
  });
});
