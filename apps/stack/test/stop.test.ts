/**
 * Stopping `npm start` as a process manager or a script does: one signal to the PID of `npm start` (npm itself),
 * never to its process group. Everything it started stops (the dashboard, the API, the worker, Postgres and its
 * backends), the shutdown's expected messages are not printed as errors, and the last line says so. The same
 * holds when the launcher under npm is killed outright: the supervisor sees it go and stops everything.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findFreePort } from '@racelab/pg-server';
import { afterAll, afterEach, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'racelab-stop-'));
// Postgres runs as the `postgres` user when we are root: its folder's parents must be traversable.
chmodSync(dir, 0o755);
const DB_DIR = join(dir, 'db');

/** A process as it was seen: its PID and start time, so a PID used again later is not taken for it. */
interface Seen {
  pid: number;
  ppid: number;
  start: string;
  name: string;
}

/** Every process now, from /proc. */
function processes(): Seen[] {
  const seen: Seen[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // a zombie has ended
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      seen.push({ pid: Number(name), ppid: Number(fields[1]), start: fields[19] ?? '', name: comm });
    } catch {
      // gone since the listing
    }
  }
  return seen;
}

/** `root` and every process below it. */
function tree(root: number): Seen[] {
  const all = processes();
  const found = all.filter((p) => p.pid === root);
  for (let i = 0; i < found.length; i++) found.push(...all.filter((p) => p.ppid === found[i]?.pid));
  return found;
}

/** Those of `seen` still running (same PID, same start time). */
const stillRunning = (seen: Seen[]) => {
  const now = processes();
  return seen.filter((s) => now.some((p) => p.pid === s.pid && p.start === s.start));
};

/** Processes whose environment names this test's database folder: whatever `npm start` started, at any depth. */
function startedHere(): Seen[] {
  return processes().filter((p) => {
    try {
      return readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(`LAB_DB_DIR=${DB_DIR}`);
    } catch {
      return false;
    }
  });
}

interface NpmStart {
  npm: ChildProcess;
  stdout: string[];
  stderr: string[];
  /** Resolves once npm has exited and every process that held its output has closed it. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm start` in the repository, as a user runs it, on ports of its own. */
function npmStart(env: Record<string, string>): NpmStart {
  const npm = spawn('npm', ['start'], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  npm.stdout?.on('data', (b: Buffer) => stdout.push(b.toString()));
  npm.stderr?.on('data', (b: Buffer) => stderr.push(b.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    npm.once('close', (code, signal) => r({ code, signal })),
  );
  return { npm, stdout, stderr, closed };
}

/** Resolves once `run` prints `line` on stdout; rejects with its output if it ends first. */
function printed(run: NpmStart, line: RegExp): Promise<void> {
  return new Promise((resolveP, reject) => {
    const check = () => {
      if (!line.test(run.stdout.join(''))) return;
      run.npm.stdout?.off('data', check);
      resolveP();
    };
    run.npm.stdout?.on('data', check);
    run.closed.then(() =>
      reject(new Error(`npm start ended before printing ${line}:\n${run.stdout.join('')}${run.stderr.join('')}`)),
    );
    check();
  });
}

/** What a failed test leaves is killed here by PID (Postgres by its postmaster's, as a fast shutdown). */
let left: Seen[] = [];
afterEach(async () => {
  const running = stillRunning(left);
  left = [];
  const postmaster = running.find((p) => p.name === 'postgres' && !running.some((q) => q.pid === p.ppid));
  for (const p of running) process.kill(p.pid, p === postmaster ? 'SIGINT' : 'SIGKILL');
  // Cleanup only: the test has failed already; Postgres is given the time it needs to end its backends.
  while (postmaster && stillRunning([postmaster]).length > 0) await new Promise((r) => setTimeout(r, 100));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The messages a shutdown in the wrong order prints: Postgres gone while the apps still ran. */
const SHUTDOWN_NOISE = [/terminating connection due to administrator command/, /reconnecting/, /exited \(/];

it.each([
  { signal: 'SIGINT', to: 'npm' },
  { signal: 'SIGTERM', to: 'npm' },
  { signal: 'SIGKILL', to: 'the launcher under npm' },
] as const)('stops everything it started on $signal to $to alone, Postgres last', async ({ signal, to }) => {
  const [apiPort, webPort] = [await findFreePort(), await findFreePort()];
  const run = npmStart({
    LAB_DB_DIR: DB_DIR,
    API_PORT: String(apiPort),
    WEB_PORT: String(webPort),
    LAB_WORK_DIR: join(REPO, 'var/lab'),
    LAB_FIRST_RACES: '0',
    LAB_DASHBOARD_LOGIN: join(dir, 'dashboard-login'),
    DATABASE_URL: '',
    LAB_API_TOKEN: '',
    NODE_ENV: '',
  });
  await printed(run, /^racelab is up$/m);
  const npmPid = run.npm.pid as number;
  const started = tree(npmPid);
  left = started;
  const postmaster = Number(readFileSync(join(DB_DIR, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
  // npm, the launcher, the supervisor, API, worker, dashboard, Postgres and its backends.
  expect(started.map((p) => p.pid)).toContain(postmaster);
  expect(started.filter((p) => p.name === 'postgres').length).toBeGreaterThan(3);
  expect(started.filter((p) => p.name === 'node').length).toBeGreaterThanOrEqual(5);
  expect(startedHere().length).toBeGreaterThanOrEqual(6);

  const launcher = started.find((p) => p.ppid === npmPid)?.pid as number;
  process.kill(to === 'npm' ? npmPid : launcher, signal);
  const exit = await run.closed;

  expect(stillRunning(started)).toEqual([]);
  expect(startedHere()).toEqual([]);
  // A clean shutdown removes the file; one killed leaves it behind.
  expect(existsSync(join(DB_DIR, 'pgdata', 'postmaster.pid'))).toBe(false);
  const out = run.stdout.join('');
  expect(out.trimEnd().split('\n').at(-1)).toBe('racelab stopped');
  const err = run.stderr.join('');
  for (const noise of SHUTDOWN_NOISE) {
    expect(out).not.toMatch(noise);
    expect(err).not.toMatch(noise);
  }
  if (to === 'npm') {
    expect(out).toContain(`${signal}: stopping web, api, worker1, then the database`);
    // A stop asked for is a success; nothing of it is printed as an error.
    expect(exit).toEqual({ code: 0, signal: null });
    expect(err).toBe('');
  }
});
