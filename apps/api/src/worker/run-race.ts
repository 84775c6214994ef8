/**
 * One race, in a worker: take the race's lock, claim it, run it with the lab (writer processes on
 * fresh table copies), store each run's outcomes as it ends, and end the race DONE, CANCELLED or
 * FAILED with the reason. Cancellation arrives by NOTIFY on the lock's own connection.
 */
import {
  clientSafeMessage,
  type LabProgress,
  namedRoots,
  RaceCancelledError,
  type RemoteWriterJob,
  type RunResult,
  runLab,
} from '@racelab/lab';
import pg from 'pg';
import type { ApiConfig } from '../config';
import type { Db } from '../db/prisma';
import { releaseRaceLock, tryRaceLock } from '../races/lock';
import { specOf } from '../races/spec';
import { CANCEL_CHANNEL, claimRace, emit, endRace, saveRun, startRun } from '../races/store';

export interface WorkerDeps {
  db: Db;
  url: string;
  /** Hands a race's writer jobs to the writer queue, for races run across workers. */
  dispatch: (jobs: RemoteWriterJob[]) => Promise<void>;
  cfg: Pick<ApiConfig, 'labWorkDir' | 'labDataDir'>;
  /** LAB_ROOTS, resolved: a race on a table of one's own copies it from there (and names them in reasons). */
  roots: readonly string[];
  /** host:pid, stored with the race. */
  worker: string;
  /** Aborts the race in hand when the worker is asked to stop. */
  shutdown: AbortSignal;
}

function runSummary(r: RunResult): string {
  return r.writers
    .map((w) => (w.committed ? `${w.name} committed v${w.version ?? '?'}` : `${w.name} failed: ${w.errorClass}`))
    .join('; ');
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
  const lock = new pg.Client({ connectionString: deps.url });
  // Postgres going away (Ctrl-C reaches the embedded server too) must end this race with an error, not crash the
  // worker with an unhandled 'error' event: the lock's next query fails, and the race is recovered as any other.
  lock.on('error', (e) => console.error(`worker: race ${raceId}: lock connection lost: ${e.message}`));
  await lock.connect();
  try {
    if (!(await tryRaceLock(lock, raceId))) return; // another worker has it (a duplicate delivery)
    if (!(await claimRace(db, raceId, deps.worker))) return; // cancelled while queued, or already run
    const controller = new AbortController();
    const onShutdown = () => controller.abort();
    deps.shutdown.addEventListener('abort', onShutdown, { once: true });
    lock.on('notification', (n) => n.payload === raceId && controller.abort());
    await lock.query(`LISTEN ${CANCEL_CHANNEL}`);
    const race = await db.race.findUniqueOrThrow({ where: { id: raceId } });
    if (race.cancelRequestedAt !== null) controller.abort(); // asked before we listened
    const spec = specOf(race.spec);
    const steps = serial();
    try {
      const results = await runLab({
        cases: [spec.case],
        runs: spec.runs,
        scale: spec.scale,
        workDir: deps.cfg.labWorkDir,
        ...(deps.cfg.labDataDir && { dataDir: deps.cfg.labDataDir }),
        signal: controller.signal,
        onProgress: (p) => steps.push(progressStep(db, raceId, spec.runs, p)),
        ...(spec.tableRoot && { tableRoot: spec.tableRoot }),
        roots: deps.roots,
        ...(spec.acrossWorkers && { acrossHosts: { url: deps.url, dispatch: deps.dispatch } }),
      });
      await steps.flush();
      await endRace(db, raceId, 'DONE', null, { versions: results.versions, dataSource: results.dataSource });
    } catch (e) {
      await steps.flush().catch(() => {});
      if (e instanceof RaceCancelledError && deps.shutdown.aborted) {
        await endRace(
          db,
          raceId,
          'FAILED',
          `worker ${deps.worker} was stopped; the race's writer processes were killed`,
        );
      } else if (e instanceof RaceCancelledError) {
        await endRace(db, raceId, 'CANCELLED', "cancelled on request; the race's writer processes were killed");
      } else {
        // The reason is shown to clients: it keeps the error's gist, the log keeps all of it.
        console.error(`race ${raceId} failed:`, e);
        const roots = namedRoots({ workDir: deps.cfg.labWorkDir, dataDir: deps.cfg.labDataDir, roots: deps.roots });
        await endRace(db, raceId, 'FAILED', clientSafeMessage(e, { roots }));
      }
    } finally {
      deps.shutdown.removeEventListener('abort', onShutdown);
    }
    await releaseRaceLock(lock, raceId);
  } finally {
    await lock.end();
  }
}
