/**
 * A race worker: its own OS process, on this host or any other that reaches the database. Takes
 * one race at a time from the queue, and sweeps for races whose worker died. SIGTERM/SIGINT stop
 * it: the race in hand is failed with that reason and its writer processes are killed.
 */
import { hostname } from 'node:os';
import { loadConfig } from '../config';
import { applyMigrations } from '../db/migrate';
import { createPrisma } from '../db/prisma';
import { RACE_QUEUE, type RaceJob, startQueue } from '../queue/boss';
import { startReaper } from '../races/reaper';
import { onStopSignal } from '../signals';
import { runRaceJob } from './run-race';

const cfg = loadConfig();
if (cfg.databaseUrl === null) {
  console.error('worker: DATABASE_URL is not set; start the stack with `npm start`, or point it at the API database');
  process.exit(2);
}
const url = cfg.databaseUrl;
await applyMigrations(url);
const db = createPrisma(url, 4);
const boss = await startQueue(url, 'worker');
const worker = `${hostname()}:${process.pid}`;
const shutdown = new AbortController();
const stopReaper = startReaper(db, url, cfg.reaperIntervalMs);

await boss.work<RaceJob>(RACE_QUEUE, { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: 2 }, async (jobs) => {
  for (const job of jobs) await runRaceJob({ db, url, cfg, worker, shutdown: shutdown.signal }, job.data.raceId);
});
console.log(`worker ${worker} waiting for races`);

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
onStopSignal((signal) => void stop(signal));
