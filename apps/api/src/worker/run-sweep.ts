/**
 * One sweep, in a worker: claimed as every job is (claimed-job.ts: the races' advisory lock, keyed by the sweep's
 * id, so the reaper finds a sweep whose worker died the same way), run with the lab's runSweep (the writer
 * processes are the lab's), its progress kept on the row, and ended DONE with the results.
 */
import type { SweepInput } from '@racelab/contracts';
import { runSweep, type SweepProgress } from '@racelab/lab';
import { claimSweep, endSweep, progressWriter } from '../sweeps/store';
import { type JobDeps, withClaimedJob } from './claimed-job';

export async function runSweepJob(deps: JobDeps, sweepId: string): Promise<void> {
  const { db } = deps;
  const job = {
    kind: 'sweep' as const,
    id: sweepId,
    claim: () => claimSweep(db, sweepId, deps.worker),
    load: () => db.sweep.findUniqueOrThrow({ where: { id: sweepId } }),
    end: (status: 'FAILED' | 'CANCELLED', reason: string) => endSweep(db, sweepId, status, reason),
  };
  await withClaimedJob(deps, job, async (sweep, signal) => {
    const progress = progressWriter(db, sweepId);
    let results: Awaited<ReturnType<typeof runSweep>>;
    try {
      results = await runSweep(sweep.input as unknown as SweepInput, {
        workDir: deps.cfg.labWorkDir,
        signal,
        onProgress: (p: SweepProgress) => progress.push({ done: p.done, total: p.total, writers: p.writers }),
        ...(sweep.tableRoot !== null && { tableRoot: sweep.tableRoot }),
      });
    } catch (e) {
      await progress.flush().catch(() => {});
      throw e;
    }
    await progress.flush();
    await endSweep(db, sweepId, 'DONE', null, results);
  });
}
