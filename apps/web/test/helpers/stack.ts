/**
 * The product as `npm start` runs it, for the dashboard's end-to-end tests: the supervisor
 * (embedded Postgres, migrations, API, one worker, the sign-in link) in a temporary folder, then the
 * dashboard's server (`server.mjs`) on the built dashboard with the API's URL, as the supervisor would pass
 * it. A test signs in as a person does: it opens the link the supervisor kept in its file. Every process is
 * stopped by its PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const WEB_DIR = resolve(import.meta.dirname, '../..');
const REPO = resolve(WEB_DIR, '../..');
const TOKEN = 'rl_e2e_token_0123456789abcdefghij';

interface Proc {
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
}

function start(cmd: string, args: string[], cwd: string, env: Record<string, string>): Proc {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe' });
  const output: string[] = [];
  child.stdout?.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr?.on('data', (b: Buffer) => output.push(b.toString()));
  return { child, output, exited: new Promise((r) => child.once('exit', () => r())) };
}

function printed(p: Proc, line: RegExp): Promise<void> {
  return new Promise((res, rej) => {
    const check = () => {
      if (!line.test(p.output.join(''))) return;
      p.child.stdout?.off('data', check);
      res();
    };
    p.child.stdout?.on('data', check);
    p.child.once('exit', () => rej(new Error(`exited before printing ${line}:\n${p.output.join('')}`)));
    check();
  });
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => res(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

export interface E2eStack {
  dir: string;
  roots: string;
  apiUrl: string;
  webUrl: string;
  /** The dashboard's server process, whose memory the proxy's tests read from /proc. */
  webPid: number;
  token: string;
  /** The sign-in link the supervisor made, read from its file as a script would. */
  loginLink: string;
  /** Where the supervisor kept the link. */
  loginFile: string;
  stop(): Promise<void>;
}

/**
 * `webEnv` adds settings to the dashboard's environment (e.g. WEB_ALLOWED_HOSTS), `apiEnv` to the
 * API's (e.g. LAB_S3_BUCKETS and an S3 endpoint for the Store page).
 */
export async function startE2eStack(
  webEnv: Record<string, string> = {},
  apiEnv: Record<string, string> = {},
): Promise<E2eStack> {
  if (!existsSync(join(WEB_DIR, '.next/BUILD_ID'))) {
    throw new Error('the dashboard is not built: run `npm run build -w @racelab/web` (turbo does it before test)');
  }
  // Under the repository's var/, on the lab work folder's filesystem: a race on a table of one's own hard-links
  // the table's files into the work folder, and hard links cannot cross filesystems.
  mkdirSync(join(REPO, 'var/tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO, 'var/tmp', 'racelab-e2e-'));
  chmodSync(dir, 0o755);
  const roots = join(dir, 'tables');
  mkdirSync(roots);
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const procs: Proc[] = [];
  const stop = async () => {
    for (const p of [...procs].reverse()) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      await p.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const supervisor = start(process.execPath, ['--import', 'tsx', 'src/index.ts'], join(REPO, 'apps/stack'), {
      DATABASE_URL: '',
      LAB_DB_DIR: join(dir, 'db'),
      API_PORT: String(apiPort),
      WEB_PORT: String(webPort),
      LAB_DASHBOARD_LOGIN: join(dir, 'dashboard-login'),
      LAB_API_TOKEN: TOKEN,
      LAB_NO_WEB: '1',
      LAB_FIRST_RACES: '0',
      LAB_ROOTS: roots,
      LAB_WORK_DIR: join(REPO, 'var/lab'),
      ...apiEnv,
    });
    procs.push(supervisor);
    await printed(supervisor, /Ctrl-C stops everything/);
    const apiUrl = `http://127.0.0.1:${apiPort}/graphql`;
    const web = start(process.execPath, ['server.mjs', '-H', '127.0.0.1', '-p', String(webPort)], WEB_DIR, {
      API_URL: apiUrl,
      NEXT_TELEMETRY_DISABLED: '1',
      ...webEnv,
    });
    procs.push(web);
    await printed(web, /Ready in/);
    const webPid = web.child.pid as number;
    const loginFile = join(dir, 'dashboard-login');
    if ((statSync(loginFile).mode & 0o777) !== 0o600) throw new Error(`${loginFile} is not 0600`);
    const loginLink = readFileSync(loginFile, 'utf8').trim();
    const webUrl = `http://127.0.0.1:${webPort}`;
    return { dir, roots, apiUrl, webUrl, webPid, token: TOKEN, loginLink, loginFile, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * A session cookie (`racelab_session=…`) as a browser gets it: by opening the sign-in link, whose answer
 * sets it and sends the browser on. For tests that speak HTTP themselves rather than through Chromium.
 */
export async function signInCookie(stack: E2eStack): Promise<string> {
  const res = await fetch(stack.loginLink, { redirect: 'manual' });
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 303 || !cookie?.startsWith('racelab_session=')) {
    throw new Error(`the sign-in link answered ${res.status} without a session cookie`);
  }
  return cookie;
}
