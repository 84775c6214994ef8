/**
 * The race itself, whatever the table format: one OS process per writer, a barrier made of messages (every
 * writer holds its table and says "ready"; all are released at once), "start after X has committed" as a
 * message, never a sleep, and each writer's result, or why it has none. The messages travel over a transport
 * (transport.ts): Node IPC for the lab's own writers, JSON lines on fd 3 for a real library's writer program and
 * for a command writer's own job (job-command.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { REPO_ROOT } from '../build/repo-root';
import type { WriterSpec } from '../cases/catalog';
import { clientSafeMessage, type NamedRoot, namedRoots } from '../results/safe-message';
import type { WriterResult } from '../results/types';
import { jobCommand, jobTransport } from './job-command';
import type { FromWriter, WriterJob, WriterOutcome } from './messages';
import { fd3Transport, ipcTransport, type WriterCommand, type WriterEnd, type WriterTransport } from './transport';
import { startWriterProcess, type WriterPool, writerEntry } from './writer-pool';

/** Whatever gives a race's writers their views of one shared host process (real/spark-host.ts). */
export interface WriterHosting {
  writer(name: string): WriterTransport;
}

export type WriterEvent = 'ready' | 'released' | 'committed' | 'done';

type Ready = { opened: number; prepared: number };

interface Live {
  spec: WriterSpec;
  transport: WriterTransport;
  /** Null when the writer ended before it was ready (its `done` says why). */
  ready: Promise<Ready | null>;
  committed: Promise<void>;
  done: Promise<Done>;
}

/**
 * A writer's end: its result, or why it has none (`crashed`: the text; a transport may name the error). `log`: what a
 * writer whose output the transport keeps printed, for a writer that failed.
 */
export type Done =
  | { released: number; finished: number; outcome: WriterOutcome; log?: string }
  | { crashed: string; errorClass?: string; log?: string };

const crashOf = (end: WriterEnd): Done => ({
  crashed: end.errorMessage,
  errorClass: end.errorClass,
  ...(end.log !== undefined && { log: end.log }),
});

function startWriter(
  job: WriterJob,
  transport: WriterTransport,
  onEvent?: (writer: string, event: WriterEvent) => void,
): Live {
  const message = <T extends FromWriter['type']>(type: T) =>
    new Promise<Extract<FromWriter, { type: T }> | null>((resolve) => {
      transport.onMessage((m) => m.type === type && resolve(m as Extract<FromWriter, { type: T }>));
      void transport.closed.then(() => resolve(null));
    });
  transport.onMessage((m) => onEvent?.(job.writer.name, m.type));
  const ready = message('ready');
  const committed = message('committed').then(() => undefined);
  const done: Promise<Done> = message('done').then(async (m) => {
    if (!m) return crashOf(transport.end());
    const result: Done = { released: m.released, finished: m.finished, outcome: m.outcome };
    if (m.outcome.errorClass === null || transport.log() === undefined) return result;
    // A failed writer's log, whole: what it printed up to its exit.
    await transport.closed;
    return { ...result, log: transport.log() as string };
  });
  transport.send({ type: 'job', job });
  return { spec: job.writer, transport, ready, committed, done };
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
  /** The writers are this program, spoken to over fd 3 (a real library's writer), instead of the lab's own. */
  command?: WriterCommand;
  /** The writers are threads of this one host process (host-transport.ts), each spoken to through its view. */
  host?: WriterHosting;
  /** Writers still running this long after they started are stopped, each failing with WriterTimedOut. */
  timeoutMs?: number;
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

/**
 * A transport per writer: a command writer's own job over fd 3, a thread of the run's library host (Delta Spark),
 * the run's command over fd 3, or a lab writer process (from the pool when there is one).
 */
async function transports(jobs: WriterJob[], hooks: RaceHooks): Promise<WriterTransport[]> {
  const { command, pool, host } = hooks;
  const own = jobs.filter((j) => j.writer.operation.kind !== 'command');
  const entry = pool || command || host || own.length === 0 ? null : await writerEntry();
  return jobs.map((j) => {
    const name = j.writer.name;
    if (j.writer.operation.kind === 'command') return jobTransport(jobCommand(j, REPO_ROOT), name);
    if (host) return host.writer(name);
    if (command) return fd3Transport(command, name);
    return ipcTransport(pool ? pool.take() : startWriterProcess(entry as string), name);
  });
}

/** Runs the writers' race and returns each writer's result, timings relative to `started`. */
export async function race(jobs: WriterJob[], started: number, hooks: RaceHooks = {}): Promise<WriterResult[]> {
  const { onEvent, signal } = hooks;
  if (signal?.aborted) throw new RaceCancelledError();
  const timedOut = new Set<WriterTransport>();
  const writers = (await transports(jobs, hooks)).map((t, i) => {
    const live = startWriter(jobs[i] as WriterJob, t, onEvent);
    const seconds = (hooks.timeoutMs ?? 0) / 1000;
    const done = live.done.then(
      (d): Done =>
        timedOut.has(t) && 'crashed' in d
          ? {
              ...d,
              crashed: `writer ${live.spec.name} did not finish within ${seconds} s and was stopped`,
              errorClass: 'WriterTimedOut',
            }
          : d,
    );
    return { ...live, done };
  });
  const timer =
    hooks.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          for (const w of writers.filter((x) => x.transport.running())) {
            timedOut.add(w.transport);
            void w.transport.stop();
          }
        }, hooks.timeoutMs);
  const abort = cancelled(signal);
  abort.catch(() => {});
  try {
    const ready = await Promise.race([Promise.all(writers.map((w) => w.ready)), abort]);
    const release = (w: Live) => {
      w.transport.send({ type: 'go' });
      onEvent?.(w.spec.name, 'released');
    };
    for (const w of writers) {
      const after = w.spec.startAfter;
      if (!after) continue;
      const leader = writers.find((x) => x.spec.name === after);
      if (!leader) throw new Error(`writer ${w.spec.name} starts after unknown writer ${after}`);
      // After the leader's commit, or after it gave up without one.
      void Promise.race([leader.committed, leader.done]).then(() => release(w));
    }
    // The barrier: every writer holds its table; now release those that wait for no one, together. A writer that
    // ended before it was ready has nothing to release: its end is its result.
    for (const w of writers) if (!w.spec.startAfter) release(w);
    const done = await Promise.race([Promise.all(writers.map((w) => w.done)), abort]);
    const roots = namedRoots({ workDir: hooks.workDir });
    return writers.map((w, i) => result(w.spec, ready[i] ?? undefined, done[i], started, roots));
  } finally {
    clearTimeout(timer);
    // A cancelled (or failed) race returns only once its writers (and what they started) are really gone.
    await Promise.all(writers.map((w) => w.transport.stop()));
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
      errorClass: (d && 'crashed' in d && d.errorClass) || 'WriterCrashed',
      errorMessage: d && 'crashed' in d ? keptMessage(spec.name, d.crashed, roots) : 'no result',
      ...(d && 'crashed' in d && d.log !== undefined && { log: d.log }),
    };
  }
  const rel = (t: number) => t - started;
  const { errorMessage, attemptErrors } = d.outcome;
  return {
    name: spec.name,
    operation,
    ...d.outcome,
    ...(d.log !== undefined && { log: d.log }),
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
