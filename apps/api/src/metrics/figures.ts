/**
 * What /metrics reports, read from the product's Postgres in one read-only transaction (one connection, one
 * consistent view): the figures are the whole product's, the same from whichever API process is scraped, whatever
 * worker processes run on whatever hosts. Each read is bounded: counts by status use the status index; durations
 * and writer outcomes read only the latest RECENT.races races (and sweeps) created in the last RECENT.hours,
 * through the createdAt index; the queue's live jobs and the workers' sessions are a few rows.
 */
import type { Db } from '../db/prisma';
import { RaceStatus } from '../db/prisma';
import { WORKER_SESSION_PREFIX, workerSessionName } from '../process/worker-name';
import { RACE_QUEUE, SWEEP_QUEUE, WRITER_QUEUE } from '../queue/boss';
import { errorClassLabel } from './error-classes';

/** The window of the figures computed from rows: at most `races` races (and sweeps), created in the last `hours`. */
export const RECENT = { hours: 24, races: 1000 } as const;

export const STATUSES = Object.values(RaceStatus);
export const QUEUES = [RACE_QUEUE, WRITER_QUEUE, SWEEP_QUEUE] as const;
/** The pg-boss states of a job not yet done: waiting, waiting to be tried again, taken by a worker. */
export const QUEUE_STATES = ['created', 'retry', 'active'] as const;
export const WRITER_OUTCOMES = ['committed', 'failed', 'nothing_to_commit'] as const;
export const JOB_KINDS = ['race', 'sweep'] as const;

type Status = (typeof STATUSES)[number];
type WriterOutcome = (typeof WRITER_OUTCOMES)[number];
type JobKind = (typeof JOB_KINDS)[number];

/** One race's or sweep's times, seconds: null until it started (queued) or ended (ran). */
export interface Durations {
  queued: number | null;
  ran: number | null;
}

export interface Worker {
  /** host:pid, as the worker stores it with the races and sweeps it takes. */
  worker: string;
  /** Whether a database session of it is open. */
  live: boolean;
  /** The races and sweeps it holds RUNNING. */
  running: Record<JobKind, number>;
}

export interface Figures {
  races: Record<Status, number>;
  sweeps: Record<Status, number>;
  raceDurations: Durations[];
  sweepDurations: Durations[];
  writers: Record<WriterOutcome, number>;
  /** Failed writers by error class label (error-classes.ts). */
  failures: Map<string, number>;
  /** Jobs by queue and state, every pair present. */
  queue: { queue: string; state: string; jobs: number }[];
  workers: Worker[];
}

type Tx = Pick<Db, '$queryRawUnsafe'>;

const rows = <T>(tx: Tx, sql: string, ...values: unknown[]) => tx.$queryRawUnsafe<T[]>(sql, ...values);

/** Created within the window; the columns are UTC timestamps without a zone, as Prisma writes them. */
const RECENT_ROWS = `"createdAt" > (now() AT TIME ZONE 'UTC') - make_interval(hours => ${RECENT.hours})
  ORDER BY "createdAt" DESC, id DESC LIMIT ${RECENT.races}`;

async function byStatus(tx: Tx, table: 'Race' | 'Sweep'): Promise<Record<Status, number>> {
  const counted = await rows<{ status: Status; n: number }>(
    tx,
    `SELECT status::text AS status, count(*)::int AS n FROM "${table}" GROUP BY status`,
  );
  const out = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const { status, n } of counted) out[status] = n;
  return out;
}

function durations(tx: Tx, table: 'Race' | 'Sweep'): Promise<Durations[]> {
  return rows<Durations>(
    tx,
    `SELECT extract(epoch FROM "startedAt" - "createdAt")::float8 AS queued,
            extract(epoch FROM "finishedAt" - "startedAt")::float8 AS ran
     FROM "${table}" WHERE ${RECENT_ROWS}`,
  );
}

async function writerOutcomes(tx: Tx): Promise<Pick<Figures, 'writers' | 'failures'>> {
  const counted = await rows<{ committed: boolean; errorClass: string | null; n: number }>(
    tx,
    `WITH recent AS (SELECT id FROM "Race" WHERE ${RECENT_ROWS})
     SELECT w.committed, w."errorClass" AS "errorClass", count(*)::int AS n
     FROM recent r JOIN "Run" u ON u."raceId" = r.id JOIN "WriterOutcome" w ON w."runId" = u.id
     GROUP BY w.committed, w."errorClass"`,
  );
  const writers: Record<WriterOutcome, number> = { committed: 0, failed: 0, nothing_to_commit: 0 };
  const failures = new Map<string, number>();
  for (const { committed, errorClass, n } of counted) {
    if (committed) writers.committed += n;
    else if (errorClass === null) writers.nothing_to_commit += n;
    else {
      writers.failed += n;
      const label = errorClassLabel(errorClass);
      failures.set(label, (failures.get(label) ?? 0) + n);
    }
  }
  return { writers, failures };
}

async function queueDepth(tx: Tx): Promise<Figures['queue']> {
  const counted = await rows<{ queue: string; state: string; n: number }>(
    tx,
    `SELECT name AS queue, state::text AS state, count(*)::int AS n FROM pgboss.job
     WHERE name IN ($1, $2, $3) AND state IN ('created', 'retry', 'active') GROUP BY name, state`,
    ...QUEUES,
  );
  return QUEUES.flatMap((queue) =>
    QUEUE_STATES.map((state) => ({
      queue,
      state,
      jobs: counted.find((c) => c.queue === queue && c.state === state)?.n ?? 0,
    })),
  );
}

/**
 * The workers with a session open (named by process/worker-name.ts) and those that hold a RUNNING race or sweep,
 * live or not (a dead worker's stays RUNNING until the reaper fails it).
 */
async function workers(tx: Tx): Promise<Worker[]> {
  const sessions = await rows<{ name: string }>(
    tx,
    `SELECT DISTINCT application_name AS name FROM pg_stat_activity
     WHERE datname = current_database() AND left(application_name, $1) = $2`,
    WORKER_SESSION_PREFIX.length,
    WORKER_SESSION_PREFIX,
  );
  const held = await rows<{ kind: JobKind; worker: string; n: number }>(
    tx,
    `SELECT 'race' AS kind, worker, count(*)::int AS n FROM "Race" WHERE status = 'RUNNING' AND worker IS NOT NULL
       GROUP BY worker
     UNION ALL
     SELECT 'sweep' AS kind, worker, count(*)::int AS n FROM "Sweep" WHERE status = 'RUNNING' AND worker IS NOT NULL
       GROUP BY worker`,
  );
  const live = new Set(sessions.map((s) => s.name));
  const byWorker = new Map<string, Worker>();
  const entry = (worker: string) => {
    let w = byWorker.get(worker);
    if (!w) {
      w = { worker, live: live.has(workerSessionName(worker)), running: { race: 0, sweep: 0 } };
      byWorker.set(worker, w);
    }
    return w;
  };
  for (const h of held) entry(h.worker).running[h.kind] += h.n;
  // A live worker that holds nothing is known by its session's name (host:pid, unless Postgres cut it).
  const named = new Set([...byWorker.keys()].map(workerSessionName));
  for (const name of live) if (!named.has(name)) entry(name.slice(WORKER_SESSION_PREFIX.length));
  return [...byWorker.values()].sort((a, b) => a.worker.localeCompare(b.worker));
}

export function readFigures(db: Db): Promise<Figures> {
  return db.$transaction(
    async (tx) => ({
      races: await byStatus(tx, 'Race'),
      sweeps: await byStatus(tx, 'Sweep'),
      raceDurations: await durations(tx, 'Race'),
      sweepDurations: await durations(tx, 'Sweep'),
      ...(await writerOutcomes(tx)),
      queue: await queueDepth(tx),
      workers: await workers(tx),
    }),
    { isolationLevel: 'RepeatableRead' },
  );
}
