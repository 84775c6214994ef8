/**
 * A real stack for the API tests: an embedded Postgres, the API and a race worker as separate OS
 * processes on 127.0.0.1, each stopped by its PID. Clients talk plain HTTP, as a user's script would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LAB_DATABASE } from '@racelab/lab';
import { findFreePort, type PostgresServer, startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';

const API_DIR = resolve(import.meta.dirname, '../..');

export interface Proc {
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
}

export interface Stack {
  dir: string;
  pg: PostgresServer;
  url: string;
  env: Record<string, string>;
  token: string;
  api: Proc;
  apiUrl: string;
  workers: Proc[];
  startApi(): Promise<void>;
  /** A worker with the stack's environment, and `extraEnv` over it. */
  startWorker(extraEnv?: Record<string, string>): Proc;
  sql<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** `entry` (relative to `cwd`, apps/api unless given) in its own node process, tsx as a loader: its PID is the code's. */
export function spawnTs(entry: string, env: Record<string, string>, cwd = API_DIR): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'pipe',
  });
  const output: string[] = [];
  child.stdout?.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr?.on('data', (b: Buffer) => output.push(b.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, output, exited };
}

/** Resolves once the process prints `line`; rejects with its output if it exits first. */
function printed(p: Proc, line: RegExp): Promise<void> {
  return new Promise((resolveP, reject) => {
    const check = () => line.test(p.output.join(''));
    if (check()) return resolveP();
    const onData = () => {
      if (!check()) return;
      cleanup();
      resolveP();
    };
    const onExit = () => {
      cleanup();
      reject(new Error(`process exited before printing ${line}:\n${p.output.join('')}`));
    };
    const cleanup = () => {
      p.child.stdout?.off('data', onData);
      p.child.off('exit', onExit);
    };
    p.child.stdout?.on('data', onData);
    p.child.once('exit', onExit);
  });
}

export async function stopProc(p: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

export async function startStack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  // Postgres runs as the `postgres` user when we are root: its folder's parents must be traversable.
  // Under the repository's var/, on the lab work folder's filesystem: a race on a table of one's own hard-links
  // the table's files into the work folder, and hard links cannot cross filesystems.
  const varTmp = resolve(API_DIR, '../../var/tmp');
  mkdirSync(varTmp, { recursive: true });
  const dir = mkdtempSync(join(varTmp, 'racelab-api-'));
  mkdirSync(join(dir, 'tables'), { mode: 0o755 });
  chmodSync(dir, 0o755);
  const server = await startPostgresServer({ dataDir: join(dir, 'pg') });
  // The product's database and the lab's, each reached as its own role, as `npm start` hands them out.
  const url = await server.ownerUrl('racelab_test');
  const labUrl = await server.ownerUrl(LAB_DATABASE);
  const token = 'rl_test_token_for_automation_0123456789';
  const port = await findFreePort();
  const env: Record<string, string> = {
    DATABASE_URL: url,
    LAB_POSTGRES_URL: labUrl,
    API_PORT: String(port),
    LAB_API_TOKEN: token,
    LAB_ROOTS: join(dir, 'tables'),
    // No jobs of one's own unless a test names where they may come from.
    LAB_JOB_ROOTS: '',
    LAB_WORK_DIR: process.env.API_TEST_WORK_DIR ?? resolve(API_DIR, '../../var/lab'),
    LAB_REAPER_MS: '200',
    NODE_ENV: 'test',
    ...extraEnv,
  };
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // An idle connection that the server ends while the stack stops (57P01, admin shutdown) is expected;
  // without a listener the pool would throw it as an unhandled error. Any other error still throws.
  pool.on('error', (e) => {
    if ((e as { code?: string }).code !== '57P01') throw e;
  });
  const stack: Stack = {
    dir,
    pg: server,
    url,
    env,
    token,
    api: undefined as unknown as Proc,
    apiUrl: `http://127.0.0.1:${port}/graphql`,
    workers: [],
    async startApi() {
      this.api = spawnTs('src/main.ts', env);
      await printed(this.api, /API on http/);
    },
    startWorker(extraEnv = {}) {
      const w = spawnTs('src/worker/main.ts', { ...env, ...extraEnv });
      this.workers.push(w);
      return w;
    },
    async sql<T extends pg.QueryResultRow>(text: string, values?: unknown[]) {
      return (await pool.query<T>(text, values)).rows;
    },
    async stop() {
      await Promise.all([this.api && stopProc(this.api), ...this.workers.map((w) => stopProc(w))]);
      await pool.end();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await stack.startApi();
    const w = stack.startWorker();
    await printed(w, /waiting for races/);
  } catch (e) {
    await stack.stop();
    throw e;
  }
  return stack;
}

export { printed };
