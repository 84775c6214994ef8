/**
 * The race queue: pg-boss in the product's own database (schema `pgboss`). A race is one job; a
 * job is never retried by the queue, because re-running a half-run race would mix two sets of
 * outcomes: a race whose worker dies is marked FAILED with the reason instead (see worker/reaper.ts).
 *
 * pg-boss 10 is the newest line whose `engines` admit Node 20.19, the Node the product promises.
 */
import PgBoss from 'pg-boss';
import { retireNewerQueueSchema } from './queue-schema';

export type { PgBoss };

export const RACE_QUEUE = 'race';
/** One writer of a race whose writers run across workers (see the lab's runWriterJob). */
export const WRITER_QUEUE = 'race-writer';

/** A sweep: one job per sweep, never retried for the same reason as a race. */
export const SWEEP_QUEUE = 'sweep';

/** How often an idle worker asks for work: the queue has no push, and a user waits this long at most. */
export const POLLING_SECONDS = 0.5;

export interface SweepJob {
  sweepId: string;
}

export interface RaceJob {
  raceId: string;
}

/** `applicationName` names the queue's sessions in pg_stat_activity (pg-boss's own name, `pgboss`, otherwise). */
export async function startQueue(url: string, role: 'producer' | 'worker', applicationName?: string): Promise<PgBoss> {
  // A queue schema left by a newer pg-boss (an install that ran a newer build) is one this one would misread.
  const requeue = role === 'producer' ? await retireNewerQueueSchema(url) : { races: [], sweeps: [] };
  const boss = new PgBoss({
    connectionString: url,
    max: 4,
    ...(applicationName && { application_name: applicationName }),
    // One supervisor is enough; the API process does it, workers only fetch.
    supervise: role === 'producer',
    schedule: false,
  });
  boss.on('error', (e: Error) => console.error(`queue: ${e.message}`));
  await boss.start();
  await boss.createQueue(RACE_QUEUE, { name: RACE_QUEUE, retryLimit: 0, expireInSeconds: 12 * 3600 });
  // A writer is never run twice: its race's barrier expects exactly one of each.
  await boss.createQueue(WRITER_QUEUE, { name: WRITER_QUEUE, retryLimit: 0, expireInSeconds: 3600 });
  // A worker works this queue one job at a time (worker/main.ts): a sweep runs up to 64 writer processes, so a
  // worker running one takes no other.
  await boss.createQueue(SWEEP_QUEUE, { name: SWEEP_QUEUE, retryLimit: 0, expireInSeconds: 12 * 3600 });
  for (const raceId of requeue.races) await boss.send(RACE_QUEUE, { raceId } satisfies RaceJob);
  for (const sweepId of requeue.sweeps) await boss.send(SWEEP_QUEUE, { sweepId } satisfies SweepJob);
  return boss;
}

/** pg-boss's connection for one Prisma transaction: a job sent through it is stored only if the transaction commits. */
export function inTransaction(tx: {
  $queryRawUnsafe: (sql: string, ...values: unknown[]) => Promise<unknown>;
}): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({ rows: (await tx.$queryRawUnsafe(text, ...values)) as unknown[] }),
  };
}
