/**
 * A Delta sweep writer, in its own process: each try reopens the table, prepares the change and commits through the
 * engine's loop (delta-rs's, unchanged) with the policy's `maxCommitRetries`; the application loop around it is
 * app-loop.ts's. Nothing here knows what outcome a sweep expects.
 */
import { NOTHING_TO_COMMIT } from '@racelab/contracts';
import {
  CommitFailedError,
  type CommitOptions,
  DeltaTable,
  type PreparedOperation,
  prepareOptimize,
  prepareUpdate,
  prepareWrite,
} from '@racelab/engine';
import { makeCommits, type SweepTries } from './app-loop';
import type { FromSweepWriter, SweepJob } from './job';
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

/**
 * The job's tries on its Delta table. The table as the process opened it before the barrier serves the first try
 * of the first commit only; later tries reopen through the same store (one S3 client per process, as a
 * long-running job keeps).
 */
function deltaTries(job: SweepJob, opened: DeltaTable): SweepTries {
  let held: DeltaTable | null = opened;
  return {
    forget: () => {
      held = null;
    },
    async prepare(seq) {
      const table = held ?? (await DeltaTable.open(opened.store));
      held = null;
      const options: CommitOptions = {
        customMetadata: { writer: job.name, seq },
        maxCommitRetries: job.policy.maxCommitRetries,
      };
      const prepared = await prepare(table, job, seq, options);
      if (!prepared) return { nothing: NOTHING_TO_COMPACT, readVersion: table.version };
      return {
        readVersion: table.version,
        written: { files: prepared.summary.filesAdded, bytes: prepared.summary.bytesWritten },
        commit: (onAttemptFailed) => prepared.commit({ onAttemptFailed }),
        failed(e, claims) {
          const failed = e instanceof CommitFailedError;
          // Any other error (a store's) ended the try in its attempt after the lost claims: it counts as one.
          const attempts = failed ? failedTryAttempts(claims, loopRetries(job, prepared)) : claims + 1;
          return { attempts, retryable: failed };
        },
      };
    },
  };
}

/**
 * A Delta sweep job in its writer process: open the table (before the barrier, as the lab's writers do), say
 * ready, wait for the release, make the commits, report each, then the end.
 */
export async function runDeltaSweepJob(
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
  await makeCommits(job, deltaTries(job, table), released, (record) => send({ type: 'sweep-commit', record }));
  await send({ type: 'sweep-done', released, finished: Date.now() });
  process.disconnect();
}
