/**
 * One race, in a worker: claimed as every job is (claimed-job.ts), run with the lab (writer processes on
 * fresh table copies), each run's outcomes stored as it ends, and the race ended DONE with its versions.
 */
import { nothingToCommitWords, writerOutcomeOf } from '@racelab/contracts';
import { type LabProgress, RaceCancelledError, type RemoteWriterJob, type RunResult, runLab } from '@racelab/lab';
import type { Db } from '../db/prisma';
import { specOf } from '../races/spec';
import { claimRace, emit, endRace, saveRun, startRun } from '../races/store';
import { type JobDeps, withClaimedJob } from './claimed-job';

export interface WorkerDeps extends JobDeps {
  /** Hands a race's writer jobs to the writer queue, for races run across workers. */
  dispatch: (jobs: RemoteWriterJob[]) => Promise<void>;
}

/** "a committed v1; b failed: CommitFailedError"; a writer with nothing to commit says so ("matched no rows: …"). */
function runSummary(r: RunResult): string {
  const said = (w: RunResult['writers'][number]) => {
    const outcome = writerOutcomeOf(w);
    if (outcome === 'committed') return `${w.name} committed v${w.version ?? '?'}`;
    if (outcome === 'nothing-to-commit') return `${w.name} ${nothingToCommitWords(w.operation)}`;
    return `${w.name} failed: ${w.errorClass}`;
  };
  return r.writers.map(said).join('; ');
}

/** Runs async steps one after another, in the order they were asked for (progress arrives synchronously). */
function serial() {
  let tail: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  return {
    push(step: () => Promise<void>) {
      tail = tail.then(step).catch((e: unknown) => {
        failure ??= e;
      });
    },
    async flush() {
      await tail;
      if (failure !== null) throw failure;
    },
  };
}

function progressStep(db: Db, raceId: string, runs: number, p: LabProgress): () => Promise<void> {
  switch (p.kind) {
    case 'setup':
      return () => emit(db, raceId, 'RUNNING', `preparing ${p.message}`);
    case 'writer':
      return () => emit(db, raceId, 'RUNNING', `run ${p.run}: ${p.writer} ${p.event}`, p.run);
    case 'run':
      if (!p.result) {
        return async () => {
          await startRun(db, raceId, p.run);
          await emit(db, raceId, 'RUNNING', `run ${p.run}/${runs} started`, p.run);
        };
      }
      return async () => {
        await saveRun(db, raceId, p.result as RunResult);
        await emit(db, raceId, 'RUNNING', `run ${p.run}/${runs} done: ${runSummary(p.result as RunResult)}`, p.run);
      };
  }
}

export async function runRaceJob(deps: WorkerDeps, raceId: string): Promise<void> {
  const { db } = deps;
  const job = {
    kind: 'race' as const,
    id: raceId,
    claim: () => claimRace(db, raceId, deps.worker),
    load: () => db.race.findUniqueOrThrow({ where: { id: raceId } }),
    abortedBy: (e: unknown) => e instanceof RaceCancelledError,
    end: (status: 'FAILED' | 'CANCELLED', reason: string) => endRace(db, raceId, status, reason),
  };
  await withClaimedJob(deps, job, async (race, signal) => {
    const spec = specOf(race.spec);
    const steps = serial();
    let results: Awaited<ReturnType<typeof runLab>>;
    try {
      results = await runLab({
        cases: [spec.case],
        runs: spec.runs,
        scale: spec.scale,
        workDir: deps.cfg.labWorkDir,
        ...(deps.cfg.labDataDir && { dataDir: deps.cfg.labDataDir }),
        signal,
        onProgress: (p) => steps.push(progressStep(db, raceId, spec.runs, p)),
        ...(spec.tableRoot && { tableRoot: spec.tableRoot }),
        roots: deps.roots,
        ...(spec.realLibrary && { real: true, library: spec.realLibrary }),
        ...(spec.acrossWorkers && { acrossHosts: { url: deps.url, dispatch: deps.dispatch } }),
      });
    } catch (e) {
      await steps.flush().catch(() => {});
      throw e;
    }
    await steps.flush();
    await endRace(db, raceId, 'DONE', null, { versions: results.versions, dataSource: results.dataSource });
  });
}
