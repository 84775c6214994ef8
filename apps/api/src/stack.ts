/**
 * `npm start`: the whole product on one machine, with one command. Postgres (DATABASE_URL's, or
 * the embedded server under var/db), migrations, API tokens, then the API, the race worker(s) and
 * the dashboard as separate processes; prints the URLs; Ctrl-C stops every process it started, by PID.
 * On a fresh database it queues a few presets so the dashboard has outcomes to show.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { locationConfigFromEnv } from '@racelab/lab';
import { firstAdminToken, issueToken, registerToken } from './auth/tokens';
import { loadConfig, REPO_ROOT } from './config';
import { type Database, openDatabase } from './db/database';
import { createPrisma } from './db/prisma';
import { startQueue } from './queue/boss';
import { raceSpec } from './races/spec';
import { createRace } from './races/store';
import { onStopSignal } from './signals';

const API_DIR = join(REPO_ROOT, 'apps/api');
const WEB_DIR = join(REPO_ROOT, 'apps/web');
/** Presets queued on a fresh database: the lesson's headline races. */
const FIRST_RACES = ['A1', 'B1', 'I4', 'I5'];

const cfg = loadConfig();
const workers = Number(process.env.LAB_WORKERS ?? 1);
const withWeb = process.env.LAB_NO_WEB !== '1';
const children = new Map<string, ChildProcess>();
let stopping = false;
let database: Database | null = null;

function start(name: string, cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (b: Buffer) =>
    b
      .toString()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => `[${name}] ${l}\n`)
      .join('');
  child.stdout?.on('data', (b: Buffer) => process.stdout.write(prefix(b)));
  child.stderr?.on('data', (b: Buffer) => process.stderr.write(prefix(b)));
  children.set(name, child);
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); stopping everything`);
    void stop(1);
  });
  return child;
}

/** Resolves when `url` answers 2xx; rejects if `child` exits first. */
async function ready(url: string, child: ChildProcess, what: string): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', () => reject(new Error(`${what} exited while starting`))),
  );
  exited.catch(() => {});
  for (;;) {
    const ok = await Promise.race([
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ok) return;
    await Promise.race([new Promise((r) => setTimeout(r, 250)), exited]);
  }
}

async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  const waits = [...children.values()].map(
    (c) =>
      new Promise<void>((resolve) =>
        c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve()),
      ),
  );
  for (const c of children.values()) c.kill('SIGTERM');
  await Promise.all(waits);
  await database?.stop();
  process.exit(code);
}
onStopSignal(() => void stop(0));

console.log(cfg.databaseUrl ? 'Postgres: DATABASE_URL' : `Postgres: embedded, cluster in ${cfg.embeddedDir}`);
database = await openDatabase(cfg);
if (database.applied.length > 0) console.log(`migrations applied: ${database.applied.join(', ')}`);
const db = createPrisma(database.url, 2);
const admin = await firstAdminToken(db);
if (process.env.LAB_API_TOKEN) await registerToken(db, process.env.LAB_API_TOKEN, 'LAB_API_TOKEN');
// The dashboard's server adds this token to its mutations; browsers never see it.
const webToken = process.env.LAB_API_TOKEN || (await issueToken(db, 'dashboard (npm start)'));
if ((await db.race.count()) === 0 && process.env.LAB_FIRST_RACES !== '0') {
  const boss = await startQueue(database.url, 'producer');
  for (const id of FIRST_RACES) {
    await createRace(db, boss, await raceSpec({ caseId: id, runs: 2, scale: 1 }, locationConfigFromEnv(REPO_ROOT)), id);
  }
  await boss.stop({ graceful: false });
  console.log(`fresh database: queued ${FIRST_RACES.join(', ')} (2 runs each, full scale)`);
}
await db.$disconnect();

// `npm start` runs the product: production unless a developer sets NODE_ENV (an empty one counts as
// unset), since libraries take their defaults from it, yoga's error details among them.
const env = {
  DATABASE_URL: database.url,
  NODE_ENV: process.env.NODE_ENV || 'production',
  // Parsed checkpoints kept outside every table, so a fresh writer process opens a big table quickly (the
  // engine's checkpoint-cache.ts); the API, the workers and the writers they fork inherit it.
  RACELAB_CACHE_DIR: process.env.RACELAB_CACHE_DIR || join(REPO_ROOT, 'var/cache'),
};
// tsx as a loader in the process itself (not its CLI, which runs the code in a child): the PID we
// hold is the process that runs the code, so stopping or killing it really stops that code.
const tsx = ['--import', 'tsx'];
// GraphiQL is bundled (no CDN) and the API answers only on loopback names, so the one-machine
// product keeps it on; a deployment that runs the API itself gets production's default (off).
const graphiql = process.env.API_GRAPHIQL ?? '1';
const api = start('api', process.execPath, [...tsx, 'src/main.ts'], API_DIR, {
  ...env,
  API_PORT: String(cfg.apiPort),
  API_GRAPHIQL: graphiql,
});
// Only workers run the lab's Postgres cases: they alone get the lab database's role.
const workerEnv = { ...env, ...(database.labUrl && { LAB_POSTGRES_URL: database.labUrl }) };
for (let i = 1; i <= workers; i++) {
  start(`worker${i}`, process.execPath, [...tsx, 'src/worker/main.ts'], API_DIR, workerEnv);
}
const apiUrl = `http://${cfg.apiHost}:${cfg.apiPort}`;
await ready(`${apiUrl}/health`, api, 'the API');

if (withWeb) {
  const next = join(REPO_ROOT, 'node_modules/next/dist/bin/next');
  // Turbo rebuilds the dashboard only when its sources changed since the last build (~1 s otherwise).
  console.log('building the dashboard if it changed (turbo run build)…');
  const turbo = join(REPO_ROOT, 'node_modules/.bin/turbo');
  const build = spawn(turbo, ['run', 'build', '--filter=@racelab/web', '--output-logs=errors-only'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', NEXT_TELEMETRY_DISABLED: '1' },
  });
  const code = await new Promise<number | null>((r) => build.on('exit', r));
  if (code !== 0) throw new Error('building the dashboard failed');
  const web = start('web', process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', String(cfg.webPort)], WEB_DIR, {
    API_URL: `${apiUrl}/graphql`,
    LAB_API_TOKEN: webToken,
  });
  await ready(`http://127.0.0.1:${cfg.webPort}/`, web, 'the dashboard');
}

console.log(`
racelab is up
  API       ${apiUrl}/graphql  ${graphiql === '0' ? '(GraphiQL off: API_GRAPHIQL=0)' : '(GraphiQL in a browser)'}
  dashboard ${withWeb ? `http://127.0.0.1:${cfg.webPort}/` : 'not started (LAB_NO_WEB=1)'}
  workers   ${workers}
  database  ${cfg.databaseUrl ? 'DATABASE_URL' : `embedded, ${cfg.embeddedDir}`}
${
  admin
    ? `\n  API token (shown once; store it, send it as Authorization: Bearer <token>):\n  ${admin}\n`
    : '\n  API token: run `npm run token -- create` for a new one (list, revoke: `npm run token -- help`)\n'
}
Ctrl-C stops everything.`);
