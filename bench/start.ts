/**
 * bench/start: `npm start` as a new user meets it. Runs `npm start` in a repository (a fresh clone after
 * `npm ci`, say), on its own ports, database folder and lab work folder, and measures: the time to
 * "racelab is up", the time from then to the first preset race (A1) DONE, and a restart's time to "up".
 * Beside them, from the same run, each step's own time as its progress line reports it: the work "up"
 * waits for. Stops the stack as Ctrl-C does (SIGINT to its process group) and checks that every process
 * it had started, embedded Postgres included, is gone.
 *
 *   npm run bench:start [-- --repo /tmp/fresh] [--no-web] [--no-restart]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { answerAndExit } from '@racelab/lab';
import { findFreePort } from '@racelab/pg-server';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:start [-- --repo DIR] [--no-web] [--no-restart]'],
  about:
    '`npm start` as a new user meets it, in the repository DIR (a fresh clone after `npm ci`): time to "racelab is up",\n' +
    "to the first race DONE, and a restart's; then it stops the stack and checks every process is gone.",
  options: {
    '--repo DIR': 'the repository to start (default this one)',
    '--no-web': 'without the dashboard',
    '--no-restart': 'skip the restart',
  },
  examples: ['npm run bench:start -- --repo /tmp/fresh'],
});

const { values: flags } = parseArgs({
  options: {
    repo: { type: 'string', default: resolve(fileURLToPath(new URL('.', import.meta.url)), '..') },
    'no-web': { type: 'boolean', default: false },
    'no-restart': { type: 'boolean', default: false },
  },
});
const REPO = resolve(flags.repo as string);
const TOKEN = 'rl_bench_start_token_0123456789abcdef';
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Started {
  child: ChildProcess;
  t0: number;
  lines: { at: number; text: string }[];
  exited: Promise<void>;
}

function npmStart(env: Record<string, string>): Started {
  // Its own process group, so a SIGINT reaches npm, the supervisor and its children as Ctrl-C would.
  const child = spawn('npm', ['start'], { cwd: REPO, env: { ...process.env, ...env }, detached: true, stdio: 'pipe' });
  const s: Started = {
    child,
    t0: performance.now(),
    lines: [],
    exited: new Promise((r) => child.once('exit', () => r())),
  };
  let pending = '';
  const onData = (b: Buffer) => {
    pending += b.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const text of parts) {
      const at = performance.now() - s.t0;
      s.lines.push({ at, text });
      // The stack's own output, timed, as it comes: where the seconds go.
      console.log(`${(at / 1000).toFixed(1).padStart(6)}  ${text}`);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return s;
}

/** Milliseconds from the start to the first line matching `re`; rejects with the output if the stack exits first. */
function lineAt(s: Started, re: RegExp): Promise<number> {
  return new Promise((res, rej) => {
    const check = () => {
      const hit = s.lines.find((l) => re.test(l.text));
      if (hit) {
        cleanup();
        res(hit.at);
      }
    };
    const onExit = () => {
      cleanup();
      rej(new Error(`npm start exited before ${re}:\n${s.lines.map((l) => l.text).join('\n')}`));
    };
    const cleanup = () => {
      s.child.stdout?.off('data', check);
      s.child.off('exit', onExit);
    };
    s.child.stdout?.on('data', check);
    s.child.once('exit', onExit);
    check();
  });
}

/** Every process under `root` (by /proc's parent links), root included. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone since the listing.
    }
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const [pid, ppid] of parent) if (ppid === found[i]) found.push(pid);
  }
  return found;
}

/** Running, or stopping: neither gone nor a zombie waiting for its parent to read its status. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** How long the processes took to end after Ctrl-C, and those still alive after 30 s. */
async function stopLikeCtrlC(s: Started, dbDir: string): Promise<{ ms: number; left: number[] }> {
  const pids = descendants(s.child.pid as number);
  const postmaster = Number(readFileSync(join(dbDir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
  pids.push(postmaster, ...descendants(postmaster));
  const t0 = performance.now();
  process.kill(-(s.child.pid as number), 'SIGINT');
  await s.exited;
  // npm exits once the launcher has stopped everything; sampled until every recorded process is gone as well.
  while (pids.some(alive) && performance.now() - t0 < 30_000) await new Promise((res) => setTimeout(res, 50));
  return { ms: performance.now() - t0, left: pids.filter(alive) };
}

/** Each step's own time, from the progress lines' endings: `✓ label: summary (12.3 s)`. */
function steps(s: Started): { label: string; seconds: number }[] {
  return s.lines
    .map((l) => /^✓ (.+) \((\d+\.\d) s\)$/.exec(l.text))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ label: m[1] as string, seconds: Number(m[2]) }));
}

/**
 * "Up" over the longest step it waits for, measured in the same run: the work no ordering of the start can
 * avoid (the data set and base tables are left out: "up" does not wait for them).
 */
function waitedFor(s: Started, upMs: number): string {
  const waited = steps(s).filter((st) => !/^(data set|base tables)/.test(st.label));
  const longest = waited.reduce((a, b) => (b.seconds > a.seconds ? b : a), { label: 'none', seconds: 0 });
  return `${(upMs / 1000 / longest.seconds).toFixed(2)}× (${longest.label}, ${longest.seconds.toFixed(1)} s)`;
}

async function firstRaceDone(apiUrl: string): Promise<string> {
  const query = '{ races(caseId: "A1", first: 1) { edges { node { status } } } }';
  for (;;) {
    const r = await fetch(apiUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    }).then((x) => x.json() as Promise<{ data?: { races: { edges: { node: { status: string } }[] } } }>);
    const status = r.data?.races.edges[0]?.node.status;
    if (status === 'DONE' || status === 'FAILED' || status === 'CANCELLED') return status;
    // A measurement's sampling interval, not a synchronisation: the race's end is read from the API.
    await new Promise((res) => setTimeout(res, 250));
  }
}

const varTmp = join(REPO, 'var/tmp');
mkdirSync(varTmp, { recursive: true });
const dir = mkdtempSync(join(varTmp, 'bench-start-'));
chmodSync(dir, 0o755);
const apiPort = await findFreePort();
const webPort = await findFreePort();
const env: Record<string, string> = {
  LAB_DB_DIR: join(dir, 'db'),
  LAB_WORK_DIR: join(dir, 'lab'),
  API_PORT: String(apiPort),
  WEB_PORT: String(webPort),
  DATABASE_URL: '',
  LAB_API_TOKEN: TOKEN,
  NODE_ENV: '',
  ...(flags['no-web'] && { LAB_NO_WEB: '1' }),
};
const report: string[] = [];
try {
  console.log(`npm start in ${REPO} (API :${apiPort}, web :${webPort}); load ${load()}`);
  const first = npmStart(env);
  const up = await lineAt(first, /^racelab is up$/);
  const loadUp = load();
  const status = await firstRaceDone(`http://127.0.0.1:${apiPort}/graphql`);
  const done = performance.now() - first.t0;
  const loadDone = load();
  const stopped = await stopLikeCtrlC(first, env.LAB_DB_DIR as string);
  report.push(
    `first start: up ${(up / 1000).toFixed(1)} s (load ${loadUp}); A1 ${status} ${((done - up) / 1000).toFixed(1)} s after up (load ${loadDone}); all processes gone ${(stopped.ms / 1000).toFixed(1)} s after Ctrl-C, left: ${stopped.left.length}`,
  );
  for (const st of steps(first)) report.push(`  step ${st.label}: ${st.seconds.toFixed(1)} s`);
  report.push(`  up / the longest step it waits for: ${waitedFor(first, up)}`);
  if (!flags['no-restart']) {
    const second = npmStart(env);
    const upAgain = await lineAt(second, /^racelab is up$/);
    const loadAgain = load();
    const stoppedAgain = await stopLikeCtrlC(second, env.LAB_DB_DIR as string);
    report.push(
      `restart: up ${(upAgain / 1000).toFixed(1)} s (load ${loadAgain}); all processes gone ${(stoppedAgain.ms / 1000).toFixed(1)} s after Ctrl-C, left: ${stoppedAgain.left.length}`,
    );
    for (const st of steps(second)) report.push(`  step ${st.label}: ${st.seconds.toFixed(1)} s`);
    report.push(`  up / the longest step it waits for: ${waitedFor(second, upAgain)}`);
  }
  console.log(report.join('\n'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
