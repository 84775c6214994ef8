/**
 * What a worker does around every race and sweep it runs, the same for both: take the job's advisory lock on
 * a connection of its own (a duplicate delivery finds it taken), claim the row (QUEUED → RUNNING), LISTEN on
 * that connection for a cancel, then run the job with a signal that aborts on a cancel, on the worker's stop,
 * or at the work limit (LAB_MAX_WORK_MINUTES from the claim: the guarantee behind the API's estimate), and end
 * a failed job FAILED or CANCELLED with a reason a client may see. Running the job and ending it DONE is the
 * job's own.
 */
import { clientSafeMessage, namedRoots } from '@racelab/lab';
import pg from 'pg';
import type { Db } from '../db/prisma';
import type { ApiConfig } from '../process/config';
import { workerSessionName } from '../process/worker-name';
import { releaseRaceLock, tryRaceLock } from '../races/lock';
import { CANCEL_CHANNEL } from '../races/store';

/** What a worker hands each job it runs. */
export interface JobDeps {
  db: Db;
  url: string;
  cfg: Pick<ApiConfig, 'labWorkDir' | 'labDataDir' | 'maxWorkMinutes'>;
  /** LAB_ROOTS, resolved: a race on a table of one's own copies it from there (and names them in reasons). */
  roots: readonly string[];
  /** host:pid, stored with the job. */
  worker: string;
  /** Aborts the job in hand when the worker is asked to stop. */
  shutdown: AbortSignal;
}

/** A race or sweep as withClaimedJob runs it. */
export interface ClaimableJob<Row extends { cancelRequestedAt: Date | null }> {
  kind: 'race' | 'sweep';
  id: string;
  /** QUEUED → RUNNING for this worker; false when the job is no longer waiting (cancelled, taken). */
  claim(): Promise<boolean>;
  /** The job's row, read once the worker listens for a cancel. */
  load(): Promise<Row>;
  /** Whether `error` is the job giving up on `signal`'s abort (default: the signal was aborted). */
  abortedBy?(error: unknown, signal: AbortSignal): boolean;
  /** Ends the job FAILED or CANCELLED with `reason`. */
  end(status: 'FAILED' | 'CANCELLED', reason: string): Promise<unknown>;
}

/**
 * Runs `run` on `job` if this worker takes its lock and claims it; `run` ends the job DONE or throws. Nothing
 * happens when another worker holds the lock or the row is no longer QUEUED.
 */
export async function withClaimedJob<Row extends { cancelRequestedAt: Date | null }>(
  deps: JobDeps,
  job: ClaimableJob<Row>,
  run: (row: Row, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { kind, id } = job;
  const lock = new pg.Client({ connectionString: deps.url, application_name: workerSessionName(deps.worker) });
  // Postgres going away (a restart of the server, a forced stop) must end this job with an error, not crash the
  // worker with an unhandled 'error' event: the lock's next query fails, and the job is recovered as any other.
  lock.on('error', (e) => console.error(`worker: ${kind} ${id}: lock connection lost: ${e.message}`));
  await lock.connect();
  try {
    if (!(await tryRaceLock(lock, id))) return; // another worker has it (a duplicate delivery)
    if (!(await job.claim())) return; // cancelled while queued, or already run
    const controller = new AbortController();
    const onShutdown = () => controller.abort();
    deps.shutdown.addEventListener('abort', onShutdown, { once: true });
    lock.on('notification', (n) => n.payload === id && controller.abort());
    await lock.query(`LISTEN ${CANCEL_CHANNEL}`);
    const row = await job.load();
    if (row.cancelRequestedAt !== null) controller.abort(); // asked before we listened
    // The limit counts from here, moments after the claim; a job stopped for another reason first keeps it.
    const limit = deps.cfg.maxWorkMinutes;
    let overran = false;
    const deadline = setTimeout(() => {
      overran = !controller.signal.aborted;
      controller.abort();
    }, limit * 60_000);
    try {
      await run(row, controller.signal);
    } catch (e) {
      const aborted = job.abortedBy ? job.abortedBy(e, controller.signal) : controller.signal.aborted;
      if (aborted && deps.shutdown.aborted) {
        await job.end('FAILED', `worker ${deps.worker} was stopped; the ${kind}'s writer processes were killed`);
      } else if (aborted && overran) {
        await job.end(
          'CANCELLED',
          `stopped at the ${limit}-minute limit (LAB_MAX_WORK_MINUTES); the ${kind}'s writer processes were killed`,
        );
      } else if (aborted) {
        await job.end('CANCELLED', `cancelled on request; the ${kind}'s writer processes were killed`);
      } else {
        // The reason is shown to clients: it keeps the error's gist, the log keeps all of it.
        console.error(`${kind} ${id} failed:`, e);
        const roots = namedRoots({ workDir: deps.cfg.labWorkDir, dataDir: deps.cfg.labDataDir, roots: deps.roots });
        await job.end('FAILED', clientSafeMessage(e, { roots }));
      }
    } finally {
      clearTimeout(deadline);
      deps.shutdown.removeEventListener('abort', onShutdown);
    }
    await releaseRaceLock(lock, id);
  } finally {
    await lock.end();
  }
}
