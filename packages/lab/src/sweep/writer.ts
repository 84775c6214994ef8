/**
 * A sweep writer's application loop, in its own process: for each of its K commits, up to `appTries` tries of the
 * whole change (reopen the table, prepare, commit through the engine's loop with the policy's
 * `maxCommitRetries`), pausing between tries as the policy says. The engine's loop is delta-rs's, unchanged: the
 * pauses and the reopening are the application's. Nothing here knows what outcome a sweep expects.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NOTHING_TO_COMMIT } from '@racelab/contracts';
import {
  backoffPause,
  CommitFailedError,
  type CommitOptions,
  DeltaTable,
  type ObjectStore,
  type PreparedOperation,
  prepareOptimize,
  prepareUpdate,
  prepareWrite,
} from '@racelab/engine';
import { asError } from '../runner/outcome';
import type { FromSweepWriter, SweepCommitRecord, SweepJob } from './job';
import { writerRandom } from './policy';
import { appendRow, SWEEP_SCHEMA } from './table';

/** What a try says when there was no change to commit (OPTIMIZE with nothing to compact), in a race's words. */
const NOTHING_TO_COMPACT = `${NOTHING_TO_COMMIT}: no bin of two or more small files to compact`;

async function prepare(table: DeltaTable, job: SweepJob, seq: number, options: CommitOptions) {
  switch (job.operation) {
    case 'append-row':
      return prepareWrite(
        table,
        { kind: 'rows', schema: SWEEP_SCHEMA, rows: [appendRow(job.index, seq)] },
        { ...options, mode: 'append' },
      );
    case 'append-day':
      if (!job.rowsFile) throw new Error('append-day needs its day file');
      return prepareWrite(table, { kind: 'parquet', paths: [job.rowsFile] }, { ...options, mode: 'append' });
    case 'update-disjoint':
      return prepareUpdate(table, { predicate: `part = ${job.index}`, set: { value: 'value + 1' } }, options);
    case 'update-overlap':
      return prepareUpdate(table, { predicate: 'part >= 0', set: { value: 'value + 1' } }, options);
    case 'compaction':
      return job.index < 0
        ? prepareOptimize(table, options)
        : prepareWrite(
            table,
            { kind: 'rows', schema: SWEEP_SCHEMA, rows: [appendRow(job.index, seq)] },
            { ...options, mode: 'append' },
          );
  }
}

/**
 * Attempts in a try that ended in CommitFailedError: every failed claim, plus the refusal that ended it unless
 * the loop ran out of claims (then its last attempt was a claim).
 */
const failedTryAttempts = (claims: number, maxRetries: number) => (claims === maxRetries + 1 ? claims : claims + 1);

/** delta-rs gives OPTIMIZE its default retries whatever the caller asks (the engine's optimize.ts). */
const loopRetries = (job: SweepJob, prepared: PreparedOperation) =>
  prepared.transaction?.spec.options?.maxCommitRetries ?? job.policy.maxCommitRetries;

async function oneCommit(
  opened: { table: DeltaTable | null; store: ObjectStore },
  job: SweepJob,
  seq: number,
  random: () => number,
): Promise<SweepCommitRecord> {
  const options: CommitOptions = {
    customMetadata: { writer: job.name, seq },
    maxCommitRetries: job.policy.maxCommitRetries,
  };
  const record: SweepCommitRecord = {
    writer: job.name,
    seq,
    acknowledged: false,
    version: null,
    readVersion: null,
    tries: 0,
    attempts: 0,
    startedAt: Date.now(),
    endedAt: 0,
    error: null,
    wastedFiles: 0,
    wastedBytes: 0,
    prepareMs: [],
    attemptMs: [],
    pauseMs: [],
  };
  for (let t = 1; t <= job.policy.appTries; t++) {
    if (t > 1) {
      const pause = backoffPause(job.policy, t, random);
      record.pauseMs.push(pause);
      if (pause > 0) await sleep(pause);
    }
    record.tries = t;
    const t0 = Date.now();
    let prepared: PreparedOperation | null;
    try {
      // The table as the process opened it before the barrier serves the first try of the first commit only.
      // Reopened through the same store: one S3 client per process, as a long-running job keeps. A reopen that
      // fails is this commit's failure, as a failed preparation is, not the writer's end.
      const table = opened.table ?? (await DeltaTable.open(opened.store));
      opened.table = null;
      record.readVersion = table.version;
      prepared = await prepare(table, job, seq, options);
    } catch (e) {
      record.error = asError(e).message;
      break;
    }
    record.prepareMs.push(Date.now() - t0);
    if (!prepared) {
      record.error = NOTHING_TO_COMPACT;
      break;
    }
    let claims = 0;
    let last = Date.now();
    const lap = () => {
      const now = Date.now();
      record.attemptMs.push(now - last);
      last = now;
    };
    try {
      const r = await prepared.commit({
        onAttemptFailed: () => {
          claims++;
          lap();
        },
      });
      lap();
      record.attempts += r.attempts;
      Object.assign(record, { acknowledged: true, version: r.version, error: null });
      break;
    } catch (e) {
      const err = asError(e);
      const failed = e instanceof CommitFailedError;
      // Any other error (a store's) ended the try in its attempt after the lost claims: it counts as one.
      const attempts = failed ? failedTryAttempts(claims, loopRetries(job, prepared)) : claims + 1;
      // A refusal's own time (it ended the try without a claim).
      if (attempts > claims) lap();
      record.attempts += attempts;
      record.wastedFiles += prepared.summary.filesAdded;
      record.wastedBytes += prepared.summary.bytesWritten;
      record.error = err.message;
      if (!failed) break;
    }
  }
  record.endedAt = Date.now();
  return record;
}

/**
 * Runs the job's K commits after the release and reports each as it ends. Paced jobs (compaction's) start commit
 * `seq` no earlier than (seq - 1) / rate seconds after the release: the arrival rate is an input of the sweep.
 */
export async function makeCommits(
  job: SweepJob,
  opened: DeltaTable,
  released: number,
  report: (r: SweepCommitRecord) => Promise<void>,
): Promise<void> {
  const random = writerRandom(job.seed, job.writers, job.index);
  const held = { table: opened as DeltaTable | null, store: opened.store };
  for (let seq = 1; seq <= job.commits; seq++) {
    if (job.ratePerSec) {
      // The compactor's first run comes one interval in, when the appenders have left files to compact.
      const lag = job.index < 0 ? 1 : 0;
      const due = released + ((seq - 1 + lag) * 1000) / job.ratePerSec;
      const wait = due - Date.now();
      // Pacing the arrivals, not waiting for another process: the rate is what this writer is asked to do.
      if (wait > 0) await sleep(wait);
      // A paced commit starts on a fresh read, as a job started on a schedule would.
      if (seq > 1) held.table = null;
    }
    await report(await oneCommit(held, job, seq, random));
  }
}

/**
 * A sweep job in its writer process: open the table (before the barrier, as the lab's writers do), say ready,
 * wait for the release, make the commits, report each, then the end.
 */
export async function runSweepJob(
  job: SweepJob,
  send: (msg: FromSweepWriter) => Promise<void>,
  go: () => Promise<void>,
): Promise<void> {
  const table = await DeltaTable.open(job.table);
  const opened = Date.now();
  const release = go();
  await send({ type: 'ready', opened, prepared: Date.now() });
  await release;
  const released = Date.now();
  await makeCommits(job, table, released, (record) => send({ type: 'sweep-commit', record }));
  await send({ type: 'sweep-done', released, finished: Date.now() });
  process.disconnect();
}
