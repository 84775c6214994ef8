/**
 * `npm start`: the whole product on one machine, with one command. Postgres (DATABASE_URL's, or
 * the embedded server under var/db), migrations, API tokens, then the API, the race worker(s) and
 * the dashboard as separate processes; prints the URLs and the dashboard's sign-in link, made anew at
 * each start (and kept in var/dashboard-login, 0600, for scripts); Ctrl-C stops every process it started, by PID.
 * On a fresh database it queues a few presets so the dashboard has outcomes to show.
 *
 * What does not depend on each other runs at once, each step with a progress line: the database, the
 * compiled API and worker entries (plain JavaScript: no TypeScript compiler in the processes we start),
 * the dashboard build, and the data the first presets race on. The workers start once that data is
 * ready, so none of them builds it a second time; "racelab is up" waits only for the API and dashboard.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  createPrisma,
  createRace,
  type Database,
  firstAdminToken,
  loadConfig,
  newSignInLink,
  onStopSignal,
  openDatabase,
  REPO_ROOT,
  raceSpec,
  registerToken,
  startQueue,
} from '@racelab/api';
import {
  type CommandSpec,
  compiledEntry,
  locationConfigFromEnv,
  noArguments,
  ProgressBoard,
  type ProgressTask,
  prepareLabData,
} from '@racelab/lab';
import { Children, printedBy, ready } from './children';
import { buildDashboard } from './web-build';

const START_COMMAND: CommandSpec = {
  usage: ['npm start'],
  about:
    'The whole product on one machine: Postgres, migrations and tokens, then the API, the race worker(s) and the\n' +
    'dashboard; prints their URLs and the sign-in link. Settings come from the environment (docs/api.md:\n' +
    'API_PORT, WEB_PORT, DATABASE_URL, LAB_WORKERS, LAB_NO_WEB=1, LAB_FIRST_RACES=0, …). Ctrl-C stops it all.',
  options: {},
  examples: ['npm start', 'API_PORT=4100 WEB_PORT=3100 LAB_WORKERS=2 npm start'],
};
noArguments(process.argv.slice(2), START_COMMAND, 'npm start');

const API_DIR = join(REPO_ROOT, 'apps/api');
const WEB_DIR = join(REPO_ROOT, 'apps/web');
/** Presets queued on a fresh database: the lesson's headline races. */
const FIRST_RACES = ['A1', 'B1', 'I4', 'I5'];
/** The scale the first races run at, whose data is built while the rest starts. */
const FIRST_SCALE = 1;

const cfg = loadConfig();
const workers = Number(process.env.LAB_WORKERS ?? 1);
const withWeb = process.env.LAB_NO_WEB !== '1';
const firstRaces = process.env.LAB_FIRST_RACES !== '0';
const board = new ProgressBoard(process.stdout);
/** Aborted on stop: ends the dashboard build if it is still running. */
const shutdown = new AbortController();
let database: Database | null = null;
const children = new Children(board, {
  stopping: () => shutdown.abort(),
  stopped: async () => {
    await database?.stop();
  },
});
const start = children.start.bind(children);
const stop = children.stop.bind(children);
onStopSignal(() => void stop(0));

/** Runs `run` as a step with a progress line, which ends with `summary` of its value, or says why it failed. */
async function step<T>(label: string, run: (task: ProgressTask) => Promise<T>, summary?: (v: T) => string): Promise<T> {
  const task = board.task(label);
  try {
    const value = await run(task);
    task.finish(summary?.(value));
    return value;
  } catch (e) {
    task.fail(e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e));
    throw e;
  }
}

/**
 * Writes the sign-in link to `file` for scripts, readable by this user only: made anew (mode set at creation),
 * never left readable by others even for an instant.
 */
async function keepSignInLink(file: string, link: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await rm(file, { force: true });
  // 'wx' creates the file with its mode, or fails should another process have put one there meanwhile.
  await writeFile(file, `${link}\n`, { mode: 0o600, flag: 'wx' });
}

/** The product's database, migrated, with its tokens and a new sign-in link; on a fresh one, the first races queued. */
async function setUpDatabase(): Promise<{ database: Database; link: string; admin: string | null }> {
  const opened = await step(
    cfg.databaseUrl ? 'Postgres (DATABASE_URL): migrating' : 'Postgres (embedded): starting and migrating',
    async (task) => {
      task.update(0, cfg.databaseUrl ? '' : cfg.embeddedDir);
      return openDatabase(cfg);
    },
    (d) => `${d.applied.length} migration(s) applied`,
  );
  database = opened;
  if (opened.applied.length > 0) board.log(`migrations applied: ${opened.applied.join(', ')}`);
  const db = createPrisma(opened.url, 2);
  try {
    const admin = await firstAdminToken(db);
    if (process.env.LAB_API_TOKEN) await registerToken(db, process.env.LAB_API_TOKEN, 'LAB_API_TOKEN');
    const link = await newSignInLink(db, `http://127.0.0.1:${cfg.webPort}`);
    await keepSignInLink(cfg.dashboardLoginFile, link);
    if ((await db.race.count()) === 0 && firstRaces) {
      const boss = await startQueue(opened.url, 'producer');
      const locations = locationConfigFromEnv(REPO_ROOT);
      for (const id of FIRST_RACES) {
        const spec = await raceSpec({ caseId: id, runs: 2, scale: FIRST_SCALE }, locations);
        await createRace(db, boss, spec, id, { kind: 'launcher', label: 'npm start (the first races)' });
      }
      await boss.stop({ graceful: false });
      board.log(`fresh database: queued ${FIRST_RACES.join(', ')} (2 runs each, full scale)`);
    }
    return { database: opened, link, admin };
  } finally {
    await db.$disconnect();
  }
}

/** The API and worker entries as plain JavaScript (built on the first start and when a source changed). */
function compileEntries(): Promise<{ api: string; worker: string }> {
  return step(
    'compiling the API and worker',
    async (task) => {
      let done = 0;
      const compiled = (source: string) =>
        compiledEntry(join(API_DIR, source)).then((path) => {
          task.update(++done, source, 2);
          return path;
        });
      task.update(0, '', 2);
      const [api, worker] = await Promise.all([compiled('src/main.ts'), compiled('src/worker/main.ts')]);
      return { api, worker };
    },
    () => '2/2 entries',
  );
}

/**
 * The data set and base tables the first races read, built here while the rest starts rather than in a
 * worker's first job. A step line appears only for what is built now; a failure is left to the races,
 * which build what they need themselves and say what went wrong.
 */
async function prepareFirstRacesData(): Promise<void> {
  const tasks = new Map<string, ProgressTask>();
  const units: Record<string, string> = { 'data set': 'rows', 'base tables': 'tables' };
  try {
    await prepareLabData({
      workDir: cfg.labWorkDir,
      scale: FIRST_SCALE,
      ...(cfg.labDataDir && { dataDir: cfg.labDataDir }),
      onProgress: (name, p) => {
        let task = tasks.get(name);
        if (!task) {
          for (const other of tasks.values()) other.finish();
          task = board.task(`${name} (scale ${FIRST_SCALE})`, p.total, units[name]);
          tasks.set(name, task);
        }
        task.update(p.done, p.detail, p.total);
      },
    });
    for (const t of tasks.values()) t.finish();
  } catch (e) {
    for (const t of tasks.values()) t.fail('failed');
    const message = e instanceof Error ? e.message : String(e);
    board.log(`preparing the first races' data failed (${message}); each race will try again`, process.stderr);
  }
}

// Everything that waits on nothing else starts now, at once.
const entries = compileEntries();
const dashboard = withWeb
  ? step(
      'building the dashboard',
      (task) => buildDashboard(REPO_ROOT, task, shutdown.signal),
      (done) => done,
    )
  : null;
const labData = firstRaces ? prepareFirstRacesData() : Promise.resolve();
// Awaited later; marked handled now so an early failure waits for that await instead of ending the process.
dashboard?.catch(() => {});
// A failed step stops everything: the processes started so far, the dashboard build, the database.
const failed = (e: unknown) => {
  board.log(`npm start failed: ${e instanceof Error ? e.message : String(e)}`, process.stderr);
  void stop(1);
  return new Promise<never>(() => {});
};
const [{ database: opened, link, admin }, compiled] = await Promise.all([setUpDatabase(), entries]).catch(failed);

// `npm start` runs the product: production unless a developer sets NODE_ENV (an empty one counts as
// unset), since libraries take their defaults from it, yoga's error details among them.
const env = {
  DATABASE_URL: opened.url,
  NODE_ENV: process.env.NODE_ENV || 'production',
  // Parsed checkpoints kept outside every table, so a fresh writer process opens a big table quickly (the
  // engine's checkpoint-cache.ts); the API, the workers and the writers they fork inherit it.
  RACELAB_CACHE_DIR: process.env.RACELAB_CACHE_DIR || join(REPO_ROOT, 'var/cache'),
};
// GraphiQL is bundled (no CDN) and the API answers only on loopback names, so the one-machine
// product keeps it on; a deployment that runs the API itself gets production's default (off).
const graphiql = process.env.API_GRAPHIQL ?? '1';
const api = start('api', [compiled.api], API_DIR, { ...env, API_PORT: String(cfg.apiPort), API_GRAPHIQL: graphiql });
// Only workers run the lab's Postgres cases: they alone get the lab database's role.
const workerEnv = { ...env, ...(opened.labUrl && { LAB_POSTGRES_URL: opened.labUrl }) };
/** Resolves when every worker says it waits for races. */
const startWorkers = () =>
  Promise.all(
    Array.from({ length: workers }, (_, i) => {
      const w = start(`worker${i + 1}`, [compiled.worker], API_DIR, workerEnv);
      return printedBy(w, /waiting for races/, `worker${i + 1}`);
    }),
  );
// Workers wait for the first races' data (building it is the first race's work anyway); "up" does not.
let dataPending = true;
const workersReady = labData.then(() => {
  dataPending = false;
  return startWorkers();
});
workersReady.catch(() => {});
const apiUrl = `http://${cfg.apiHost}:${cfg.apiPort}`;
/** The dashboard's server, started as soon as it is built: it needs the API's address, not the API itself. */
async function startDashboard(build: Promise<unknown>): Promise<void> {
  await build;
  const web = start('web', [join(WEB_DIR, 'server.mjs'), '-H', '127.0.0.1', '-p', String(cfg.webPort)], WEB_DIR, {
    API_URL: `${apiUrl}/graphql`,
  });
  await ready(`http://127.0.0.1:${cfg.webPort}/`, web, 'the dashboard');
}
await Promise.all([ready(`${apiUrl}/health`, api, 'the API'), dashboard && startDashboard(dashboard)]).catch(failed);
if (!dataPending) await workersReady.catch(failed);

board.log(`
racelab is up
  API       ${apiUrl}/graphql  ${graphiql === '0' ? '(GraphiQL off: API_GRAPHIQL=0)' : '(GraphiQL in a browser)'}
  dashboard ${withWeb ? `http://127.0.0.1:${cfg.webPort}/: sign in by opening this link (also in ${cfg.dashboardLoginFile}):\n${link}` : 'not started (LAB_NO_WEB=1)'}
  workers   ${workers}${dataPending ? " (they start when the first races' data is ready)" : ''}
  database  ${cfg.databaseUrl ? 'DATABASE_URL' : `embedded, ${cfg.embeddedDir}`}
${
  admin
    ? `\n  API token (shown once; store it, send it as Authorization: Bearer <token>):\n  ${admin}\n`
    : '\n  API token: run `npm run token -- create` for a new one (list, revoke: `npm run token -- help`)\n'
}
Ctrl-C stops everything.`);
