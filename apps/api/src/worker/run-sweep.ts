/**
 * One sweep, in a worker: take its lock (the races' advisory lock, keyed by the sweep's id, so the reaper finds a
 * sweep whose worker died the same way), claim it, run it with the lab's runSweep (the writer processes are the
 * lab's), keep its progress on the row, and end it DONE with the results, CANCELLED or FAILED with a reason a
 * client may see. Cancellation arrives by NOTIFY on the lock's own connection, as for races.
 */
import type { SweepInput } from '@racelab/contracts';
import { clientSafeMessage, namedRoots, runSweep, type SweepProgress } from '@racelab/lab';
import pg from 'pg';
import { releaseRaceLock, tryRaceLock } from '../races/lock';
import { CANCEL_CHANNEL } from '../races/store';
import { claimSweep, endSweep, progressWriter } from '../sweeps/store';
import type { WorkerDeps } from './run-race';

export type SweepWorkerDeps = Pick<WorkerDeps, 'db' | 'url' | 'cfg' | 'roots' | 'worker' | 'shutdown'>;

export async function runSweepJob(deps: SweepWorkerDeps, sweepId: string): Promise<void> {
  const { db } = deps;
  const lock = new pg.Client({ connectionString: deps.url });
  lock.on('error', (e) => console.error(`worker: sweep ${sweepId}: lock connection lost: ${e.message}`));
  await lock.connect();
  try {
    if (!(await tryRaceLock(lock, sweepId))) return; // another worker has it (a duplicate delivery)
    if (!(await claimSweep(db, sweepId, deps.worker))) return; // cancelled while queued, or already run
    const controller = new AbortController();
    const onShutdown = () => controller.abort();
    deps.shutdown.addEventListener('abort', onShutdown, { once: true });
    lock.on('notification', (n) => n.payload === sweepId && controller.abort());
    await lock.query(`LISTEN ${CANCEL_CHANNEL}`);
    const sweep = await db.sweep.findUniqueOrThrow({ where: { id: sweepId } });
    if (sweep.cancelRequestedAt !== null) controller.abort(); // asked before we listened
    const progress = progressWriter(db, sweepId);
    try {
      const results = await runSweep(sweep.input as unknown as SweepInput, {
        workDir: deps.cfg.labWorkDir,
        signal: controller.signal,
        onProgress: (p: SweepProgress) => progress.push({ done: p.done, total: p.total, writers: p.writers }),
        ...(sweep.tableRoot !== null && { tableRoot: sweep.tableRoot }),
      });
      await progress.flush();
      await endSweep(db, sweepId, 'DONE', null, results);
    } catch (e) {
      await progress.flush().catch(() => {});
      if (controller.signal.aborted && deps.shutdown.aborted) {
        await endSweep(
          db,
          sweepId,
          'FAILED',
          `worker ${deps.worker} was stopped; the sweep's writer processes were killed`,
        );
      } else if (controller.signal.aborted) {
        await endSweep(db, sweepId, 'CANCELLED', "cancelled on request; the sweep's writer processes were killed");
      } else {
        // The reason is shown to clients: it keeps the error's gist, the log keeps all of it.
        console.error(`sweep ${sweepId} failed:`, e);
        const roots = namedRoots({ workDir: deps.cfg.labWorkDir, dataDir: deps.cfg.labDataDir, roots: deps.roots });
        await endSweep(db, sweepId, 'FAILED', clientSafeMessage(e, { roots }));
      }
    } finally {
      deps.shutdown.removeEventListener('abort', onShutdown);
    }
    await releaseRaceLock(lock, sweepId);
  } finally {
    await lock.end();
  }
}
