/**
 * One run of a Delta case: a fresh copy of the base table, one OS process per writer, a barrier
 * made of IPC messages (every writer holds its version and says "ready"; all are released at
 * once), "start after X has committed" as a message, never a sleep; then the table checks.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeltaTable, readCommit } from '@racelab/engine';
import type { DeltaCase, WriterSpec } from '../cases/catalog';
import type { Dataset } from '../data/index';
import type { RunResult, WriterResult } from '../results/types';
import type { BaseTables } from '../tables/base-tables';
import { freshCopy } from '../tables/fresh-copy';
import type { FromWriter, WriterJob, WriterOutcome } from './messages';
import { checkTable } from './table-check';

const WRITER = fileURLToPath(new URL('./writer-process.ts', import.meta.url));

export interface DeltaRunContext {
  dataset: Dataset;
  bases: BaseTables;
  workDir: string;
  /** Keep the run's table folder afterwards (for inspection). */
  keep?: boolean;
  /** Called when any writer does something, for progress displays. */
  onEvent?: (writer: string, event: 'ready' | 'released' | 'committed' | 'done') => void;
}

interface Live {
  spec: WriterSpec;
  child: ChildProcess;
  stderr: string[];
  ready: Promise<{ opened: number; prepared: number }>;
  committed: Promise<void>;
  done: Promise<Done>;
}

type Done = { released: number; finished: number; outcome: WriterOutcome } | { crashed: string };

function startWriter(job: WriterJob, onEvent: DeltaRunContext['onEvent']): Live {
  const child = fork(WRITER, [JSON.stringify(job)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (b: Buffer) => stderr.push(b.toString()));
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
  return { spec: job.writer, child, stderr, ready, committed, done };
}

/** Writer names in the order their commits landed, read from the table's own log. */
async function commitOrder(dir: string): Promise<string[]> {
  const t = await DeltaTable.open(dir);
  const names: string[] = [];
  for (let v = 1; v <= t.version; v++) {
    const info = (await readCommit(t.store, v)).find((a) => 'commitInfo' in a);
    const writer = info && 'commitInfo' in info ? info.commitInfo.writer : undefined;
    names.push(typeof writer === 'string' ? writer : `v${v}`);
  }
  return names;
}

export async function runDeltaCase(c: DeltaCase, index: number, ctx: DeltaRunContext): Promise<RunResult> {
  const dir = join(ctx.workDir, 'runs', `${c.id}-${index}-${process.pid}-${Date.now()}`);
  const started = Date.now();
  await freshCopy(ctx.bases[c.table], dir, c.properties);
  const writers = c.writers.map((spec) => {
    const day = 'day' in spec.operation ? spec.operation.day : undefined;
    return startWriter({ table: dir, writer: spec, ...(day && { dayFile: ctx.dataset.february(day) }) }, ctx.onEvent);
  });
  try {
    const ready = await Promise.all(writers.map((w) => w.ready));
    // The barrier: every writer holds its version; now release those that wait for no one, together.
    const release = (w: Live) => {
      w.child.send({ type: 'go' });
      ctx.onEvent?.(w.spec.name, 'released');
    };
    for (const w of writers) {
      const after = w.spec.startAfter;
      if (!after) continue;
      const leader = writers.find((x) => x.spec.name === after);
      if (!leader) throw new Error(`${c.id}: writer ${w.spec.name} starts after unknown writer ${after}`);
      // After the leader's commit, or after it gave up without one.
      void Promise.race([leader.committed.catch(() => undefined), leader.done]).then(() => release(w));
    }
    for (const w of writers) if (!w.spec.startAfter) release(w);
    const done = await Promise.all(writers.map((w) => w.done));
    const results: WriterResult[] = writers.map((w, i) => {
      const d = done[i];
      const r = ready[i];
      const rel = (t: number) => t - started;
      if (!d || 'crashed' in d) {
        return {
          name: w.spec.name,
          operation: w.spec.operation.kind,
          committed: false,
          version: null,
          attempts: 0,
          commitRetries: null,
          attemptErrors: [],
          waitedOnLock: null,
          warnings: [],
          errorClass: 'WriterCrashed',
          errorMessage: d && 'crashed' in d ? d.crashed : 'no result',
        };
      }
      const { outcome } = d;
      return {
        name: w.spec.name,
        operation: w.spec.operation.kind === 'overwrite-day' ? 'overwrite' : w.spec.operation.kind,
        ...outcome,
        waitedOnLock: null,
        timings: {
          opened: rel(r?.opened ?? started),
          prepared: rel(r?.prepared ?? started),
          released: rel(d.released),
          finished: rel(d.finished),
        },
      };
    });
    return {
      index,
      writers: results,
      table: await checkTable(dir, ctx.dataset.january),
      commitOrder: await commitOrder(dir),
      durationMs: Date.now() - started,
    };
  } finally {
    for (const w of writers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    if (!ctx.keep) await rm(dir, { recursive: true, force: true });
  }
}
