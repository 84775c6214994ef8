/**
 * The race queue: pg-boss in the product's own database (schema `pgboss`). A race is one job; a
 * job is never retried by the queue, because re-running a half-run race would mix two sets of
 * outcomes: a race whose worker dies is marked FAILED with the reason instead (see worker/reaper.ts).
 */
import { PgBoss } from 'pg-boss';

export const RACE_QUEUE = 'race';
/** One writer of a race whose writers run across workers (see the lab's runWriterJob). */
export const WRITER_QUEUE = 'race-writer';

/** A sweep: one job per sweep, never retried for the same reason as a race. */
export const SWEEP_QUEUE = 'sweep';

export interface SweepJob {
  sweepId: string;
}

export interface RaceJob {
  raceId: string;
}

export async function startQueue(url: string, role: 'producer' | 'worker'): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    max: 4,
    // One supervisor is enough; the API process does it, workers only fetch.
    supervise: role === 'producer',
    schedule: false,
  });
  boss.on('error', (e: Error) => console.error(`queue: ${e.message}`));
  await boss.start();
  // notify: workers are woken at once instead of polling; races may run for hours.
  await boss.createQueue(RACE_QUEUE, { retryLimit: 0, expireInSeconds: 12 * 3600, notify: true });
  // A writer is never run twice: its race's barrier expects exactly one of each.
  await boss.createQueue(WRITER_QUEUE, { retryLimit: 0, expireInSeconds: 3600, notify: true });
  // A worker works this queue one job at a time (worker/main.ts): a sweep runs up to 64 writer processes, so a
  // worker running one takes no other.
  await boss.createQueue(SWEEP_QUEUE, { retryLimit: 0, expireInSeconds: 12 * 3600, notify: true });
  return boss;
}
