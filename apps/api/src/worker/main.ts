/**
 * A race worker: its own OS process, on this host or any other that reaches the database. Takes
 * one race and one sweep at a time from the queue, runs writers of races that span workers (up to 8 at once,
 * each in its own process), and looks for races and sweeps whose worker died. LAB_WORKER_ROLE=races or
 * writers limits it to one of the two. SIGTERM/SIGINT stop it: the race in hand is failed with
 * that reason and its writer processes are killed. The Postgres cases (P1–P3) run in the lab's own
 * database: LAB_POSTGRES_URL (its own role, as `npm start` sets it), else on DATABASE_URL's server.
 */
import { hostname } from 'node:os';
import { locationConfigFromEnv, type RemoteWriterJob, runWriterJob } from '@racelab/lab';
import { applyMigrations } from '../db/migrate';
import { createPrisma } from '../db/prisma';
import { loadConfig, REPO_ROOT } from '../process/config';
import { onStopSignal } from '../process/signals';
import { workerSessionName } from '../process/worker-name';
import {
  POLLING_SECONDS,
  RACE_QUEUE,
  type RaceJob,
  SWEEP_QUEUE,
  type SweepJob,
  startQueue,
  WRITER_QUEUE,
} from '../queue/boss';

import { startReaper } from './reaper';
import { runRaceJob } from './run-race';
import { runSweepJob } from './run-sweep';

/** How many writers of remote races one worker runs at once. */
const WRITERS_AT_ONCE = 8;

const cfg = loadConfig();
if (cfg.databaseUrl === null) {
  console.error('worker: DATABASE_URL is not set; start the stack with `npm start`, or point it at the API database');
  process.exit(2);
}
const url = cfg.databaseUrl;
await applyMigrations(url);
const worker = `${hostname()}:${process.pid}`;
// Every session of this worker is named for it, so the API's /metrics sees it live in pg_stat_activity.
const db = createPrisma(url, 4, workerSessionName(worker));
const boss = await startQueue(url, 'worker', workerSessionName(worker));
const { roots } = locationConfigFromEnv(REPO_ROOT);
const shutdown = new AbortController();
const stopReaper = startReaper(db, cfg.reaperIntervalMs);

const role = process.env.LAB_WORKER_ROLE ?? 'all';
if (!['all', 'races', 'writers'].includes(role)) {
  console.error(`worker: LAB_WORKER_ROLE must be all, races or writers, got '${role}'`);
  process.exit(2);
}
const dispatch = async (jobs: RemoteWriterJob[]) => {
  for (const job of jobs) await boss.send(WRITER_QUEUE, job);
};
if (role !== 'writers') {
  await boss.work<RaceJob>(RACE_QUEUE, { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS }, async (jobs) => {
    for (const job of jobs) {
      await runRaceJob({ db, url, cfg, roots, worker, dispatch, shutdown: shutdown.signal }, job.data.raceId);
    }
  });
  // One sweep at a time: a worker running a sweep (up to 64 writer processes) fetches no other.
  await boss.work<SweepJob>(SWEEP_QUEUE, { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS }, async (jobs) => {
    for (const job of jobs) {
      await runSweepJob({ db, url, cfg, roots, worker, shutdown: shutdown.signal }, job.data.sweepId);
    }
  });
}
if (role !== 'races') {
  const host = { workDir: cfg.labWorkDir, ...(cfg.labDataDir && { dataDir: cfg.labDataDir }) };
  // A pg-boss worker runs one batch at a time: eight of them let eight writers of a race run here at once.
  for (let i = 0; i < WRITERS_AT_ONCE; i++) {
    await boss.work<RemoteWriterJob>(
      WRITER_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: POLLING_SECONDS },
      async ([job]) => {
        if (job) await runWriterJob(job.data, host);
      },
    );
  }
}
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`worker ${worker}: ${signal}, stopping`);
  shutdown.abort();
  stopReaper();
  await boss.stop({ graceful: true, timeout: 10_000 });
  await db.$disconnect();
  process.exit(0);
}
// Before the line that says we are ready: a SIGTERM that arrives while onStopSignal swaps the
// listeners is dropped by libuv (it was meant for the listener just removed), and the worker would
// never stop. Whoever waits for the ready line may stop us at once.
onStopSignal((signal) => void stop(signal));
console.log(`worker ${worker} waiting for races (role: ${role})`);
