/**
 * One point's race: a process per job, each opens the table and says "ready"; when all are ready all are
 * released at once (the lab's IPC barrier, as race.ts), then each streams a record per commit until done.
 */
import type { ChildProcess } from 'node:child_process';
import { cancelled, killAlive, RaceCancelledError } from '../runner/race';
import { giveJob, type StartedWriter, startWriterProcess, type WriterPool, writerEntry } from '../runner/writer-pool';
import type { FromSweepWriter, SweepCommitRecord, SweepJob } from './job';

export interface PointRace {
  records: SweepCommitRecord[];
  /** Epoch ms: the earliest release any writer saw, and the last writer's end. */
  released: number;
  finished: number;
}

interface Live {
  job: SweepJob;
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<{ released: number; finished: number }>;
  closed: Promise<void>;
}

function watch(job: SweepJob, started: StartedWriter, onRecord: (r: SweepCommitRecord) => void): Live {
  const { child, stderr } = started;
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const crashed = () =>
    new Error(
      `sweep writer ${job.name} ended without a result (exit ${child.exitCode ?? child.signalCode}): ${stderr.join('').trim()}`,
    );
  let markReady: () => void = () => {};
  let markDone: (d: { released: number; finished: number }) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    void closed.then(() => reject(crashed()));
  });
  const done = new Promise<{ released: number; finished: number }>((resolve, reject) => {
    markDone = resolve;
    void closed.then(() => reject(crashed()));
  });
  ready.catch(() => {});
  done.catch(() => {});
  child.on('message', (m: FromSweepWriter) => {
    if (m.type === 'ready') markReady();
    else if (m.type === 'sweep-commit') onRecord(m.record);
    else if (m.type === 'sweep-done') markDone({ released: m.released, finished: m.finished });
  });
  giveJob(started, job);
  return { job, child, ready, done, closed };
}

export async function racePoint(
  jobs: SweepJob[],
  hooks: { pool?: WriterPool; signal?: AbortSignal; onRecord?: (r: SweepCommitRecord) => void },
): Promise<PointRace> {
  if (hooks.signal?.aborted) throw new RaceCancelledError();
  const entry = hooks.pool ? null : await writerEntry();
  const records: SweepCommitRecord[] = [];
  const onRecord = (r: SweepCommitRecord) => {
    records.push(r);
    hooks.onRecord?.(r);
  };
  const live = jobs.map((job) =>
    watch(job, hooks.pool ? hooks.pool.take() : startWriterProcess(entry as string), onRecord),
  );
  const abort = cancelled(hooks.signal);
  abort.catch(() => {});
  try {
    await Promise.race([Promise.all(live.map((w) => w.ready)), abort]);
    // The barrier: every process holds the table; release them together.
    for (const w of live) w.child.send({ type: 'go' });
    const ends = await Promise.race([Promise.all(live.map((w) => w.done)), abort]);
    return {
      records,
      released: Math.min(...ends.map((e) => e.released)),
      finished: Math.max(...ends.map((e) => e.finished)),
    };
  } finally {
    await killAlive(live);
  }
}
