/**
 * The race itself, whatever the table format: one OS process per writer, a barrier made of IPC
 * messages (every writer holds its table and says "ready"; all are released at once), "start after
 * X has committed" as a message, never a sleep, and each writer's result, or why it has none.
 */
import type { ChildProcess } from 'node:child_process';
import type { WriterSpec } from '../cases/catalog';
import { clientSafeMessage, type NamedRoot, namedRoots } from '../results/safe-message';
import type { WriterResult } from '../results/types';
import type { FromWriter, WriterJob, WriterOutcome } from './messages';
import { giveJob, type StartedWriter, startWriterProcess, type WriterPool, writerEntry } from './writer-pool';

export type WriterEvent = 'ready' | 'released' | 'committed' | 'done';

interface Live {
  spec: WriterSpec;
  child: ChildProcess;
  ready: Promise<{ opened: number; prepared: number }>;
  committed: Promise<void>;
  done: Promise<Done>;
  /** Settles when the process has exited and its pipes are drained. */
  closed: Promise<void>;
}

export type Done = { released: number; finished: number; outcome: WriterOutcome } | { crashed: string };

function startWriter(
  job: WriterJob,
  writer: StartedWriter,
  onEvent?: (writer: string, event: WriterEvent) => void,
): Live {
  const { child, stderr } = writer;
  const crashed = () =>
    `writer ${job.writer.name} ended without a result (exit ${child.exitCode ?? child.signalCode}): ${stderr.join('').trim()}`;
  // 'close' comes after the IPC channel is drained, so a result the writer sent is never lost to it.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const message = <T extends FromWriter['type']>(type: T) =>
    new Promise<Extract<FromWriter, { type: T }>>((resolve, reject) => {
      child.on('message', (m: FromWriter) => m.type === type && resolve(m as Extract<FromWriter, { type: T }>));
      void closed.then(() => reject(new Error(crashed())));
    });
  child.on('message', (m: FromWriter) => onEvent?.(job.writer.name, m.type));
  const ready = message('ready');
  const committed = message('committed').then(() => undefined);
  const done: Promise<Done> = message('done').catch((e: Error) => ({ crashed: e.message }));
  // Unobserved rejections of these are expected when a writer never commits.
  committed.catch(() => {});
  ready.catch(() => {});
  giveJob(writer, job);
  return { spec: job.writer, child, ready, committed, done, closed };
}

export class RaceCancelledError extends Error {
  override name = 'RaceCancelledError';
  constructor() {
    super('the race was cancelled; its writer processes were stopped');
  }
}

export interface RaceHooks {
  onEvent?: (writer: string, event: WriterEvent) => void;
  /** Aborting kills every writer process at once and rejects with RaceCancelledError. */
  signal?: AbortSignal;
  /** The lab's work folder: writers' error messages name paths in it relative to it, and no other folder. */
  workDir?: string;
  /**
   * Writer processes started ahead of the race. The caller refills it (`pool.fill()`) once the run's table is
   * checked: processes loading beside the check took a core from it (0.4-0.5 s of CPU each).
   */
  pool?: WriterPool;
}

/** Rejects when `signal` aborts; never settles otherwise. */
export function cancelled(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (signal?.aborted) reject(new RaceCancelledError());
    signal?.addEventListener('abort', () => reject(new RaceCancelledError()), { once: true });
  });
}

/** Kills the processes still running and resolves once each has exited and its pipes are drained. */
export async function killAlive(writers: readonly { child: ChildProcess; closed: Promise<void> }[]): Promise<void> {
  const alive = writers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
  for (const w of alive) w.child.kill('SIGKILL');
  await Promise.all(alive.map((w) => w.closed));
}

/** Runs the writers' race and returns each writer's result, timings relative to `started`. */
export async function race(jobs: WriterJob[], started: number, hooks: RaceHooks = {}): Promise<WriterResult[]> {
  const { onEvent, signal } = hooks;
  if (signal?.aborted) throw new RaceCancelledError();
  const pool = hooks.pool;
  const entry = pool ? null : await writerEntry();
  const writers = jobs.map((job) =>
    startWriter(job, pool ? pool.take() : startWriterProcess(entry as string), onEvent),
  );
  const abort = cancelled(signal);
  abort.catch(() => {});
  try {
    const ready = await Promise.race([Promise.all(writers.map((w) => w.ready)), abort]);
    const release = (w: Live) => {
      w.child.send({ type: 'go' });
      onEvent?.(w.spec.name, 'released');
    };
    for (const w of writers) {
      const after = w.spec.startAfter;
      if (!after) continue;
      const leader = writers.find((x) => x.spec.name === after);
      if (!leader) throw new Error(`writer ${w.spec.name} starts after unknown writer ${after}`);
      // After the leader's commit, or after it gave up without one.
      void Promise.race([leader.committed.catch(() => undefined), leader.done]).then(() => release(w));
    }
    // The barrier: every writer holds its table; now release those that wait for no one, together.
    for (const w of writers) if (!w.spec.startAfter) release(w);
    const done = await Promise.race([Promise.all(writers.map((w) => w.done)), abort]);
    const roots = namedRoots({ workDir: hooks.workDir });
    return writers.map((w, i) => result(w.spec, ready[i], done[i], started, roots));
  } finally {
    // A cancelled (or failed) race returns only once its writers are really gone.
    await killAlive(writers);
  }
}

const OPERATION_NAMES: Partial<Record<string, string>> = { 'overwrite-day': 'overwrite' };

/**
 * A writer's error as results keep it: they are stored and shown to clients, so a stack, SQL or server
 * folder in it is cut (the engine's messages pass unchanged); the whole text goes to the log instead.
 */
export function keptMessage(writer: string, text: string, roots: readonly NamedRoot[]): string {
  const safe = clientSafeMessage(text, { roots });
  if (safe !== text) console.error(`writer ${writer}: ${text}`);
  return safe;
}

export function result(
  spec: WriterSpec,
  ready: { opened: number; prepared: number } | undefined,
  d: Done | undefined,
  started: number,
  roots: readonly NamedRoot[],
): WriterResult {
  const operation = OPERATION_NAMES[spec.operation.kind] ?? spec.operation.kind;
  if (!d || 'crashed' in d) {
    return {
      name: spec.name,
      operation,
      committed: false,
      version: null,
      attempts: 0,
      commitRetries: null,
      attemptErrors: [],
      waitedOnLock: null,
      warnings: [],
      errorClass: 'WriterCrashed',
      errorMessage: d && 'crashed' in d ? keptMessage(spec.name, d.crashed, roots) : 'no result',
    };
  }
  const rel = (t: number) => t - started;
  const { errorMessage, attemptErrors } = d.outcome;
  return {
    name: spec.name,
    operation,
    ...d.outcome,
    errorMessage: errorMessage === null ? null : keptMessage(spec.name, errorMessage, roots),
    attemptErrors: attemptErrors.map((a) => ({ ...a, errorMessage: keptMessage(spec.name, a.errorMessage, roots) })),
    waitedOnLock: null,
    timings: {
      opened: rel(ready?.opened ?? started),
      prepared: rel(ready?.prepared ?? started),
      released: rel(d.released),
      finished: rel(d.finished),
    },
  };
}
