/**
 * A sweep writer's application loop, whatever the table format: for each of its K commits, up to `appTries` tries
 * of the whole change (the format reopens the table, prepares and commits through its engine loop with the
 * policy's `maxCommitRetries`), pausing between tries as the policy says, and a record of each commit. The pauses
 * and the reopening are the application's; the format's commit loop is its library's, unchanged.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffPause } from '@racelab/engine';
import { asError } from '../runner/outcome';
import type { SweepCommitRecord, SweepJob } from './job';
import { writerRandom } from './policy';

/** One try of a commit as its format prepared it (files written), ready to commit. */
export interface PreparedTry {
  /** The table version the try read (whom it was concurrent with, from its side). */
  readVersion: number | null;
  /** What the try wrote: wasted when it loses. */
  written: { files: number; bytes: number };
  /** Commits through the format's loop; `onAttemptFailed` after each lost claim. */
  commit(onAttemptFailed: () => void): Promise<{ version: number | null; attempts: number }>;
  /** After `commit` threw, with the claims lost before: the try's attempts, and whether the app may try again. */
  failed(e: unknown, claims: number): { attempts: number; retryable: boolean };
}

/** A try that found nothing to commit (OPTIMIZE with nothing to compact): the text to record, and what it read. */
export interface NothingToCommit {
  nothing: string;
  readVersion: number | null;
}

/** What a format gives the loop: a try of commit `seq`, or the nothing it found to commit. */
export interface SweepTries {
  prepare(seq: number): Promise<PreparedTry | NothingToCommit>;
  /** The next try starts on a fresh read of the table (a paced commit, as a job started on a schedule). */
  forget(): void;
}

async function oneCommit(job: SweepJob, seq: number, random: () => number, tries: SweepTries) {
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
    let prepared: PreparedTry | NothingToCommit;
    try {
      // A reopen that fails is this commit's failure, as a failed preparation is, not the writer's end.
      prepared = await tries.prepare(seq);
    } catch (e) {
      record.error = asError(e).message;
      break;
    }
    record.readVersion = prepared.readVersion;
    record.prepareMs.push(Date.now() - t0);
    if ('nothing' in prepared) {
      record.error = prepared.nothing;
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
      const r = await prepared.commit(() => {
        claims++;
        lap();
      });
      lap();
      record.attempts += r.attempts;
      Object.assign(record, { acknowledged: true, version: r.version, error: null });
      break;
    } catch (e) {
      const { attempts, retryable } = prepared.failed(e, claims);
      // A refusal's own time (it ended the try without a claim).
      if (attempts > claims) lap();
      record.attempts += attempts;
      record.wastedFiles += prepared.written.files;
      record.wastedBytes += prepared.written.bytes;
      record.error = asError(e).message;
      if (!retryable) break;
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
  tries: SweepTries,
  released: number,
  report: (r: SweepCommitRecord) => Promise<void>,
): Promise<void> {
  const random = writerRandom(job.seed, job.writers, job.index);
  for (let seq = 1; seq <= job.commits; seq++) {
    if (job.ratePerSec) {
      // The compactor's first run comes one interval in, when the appenders have left files to compact.
      const lag = job.index < 0 ? 1 : 0;
      const due = released + ((seq - 1 + lag) * 1000) / job.ratePerSec;
      const wait = due - Date.now();
      // Pacing the arrivals, not waiting for another process: the rate is what this writer is asked to do.
      if (wait > 0) await sleep(wait);
      if (seq > 1) tries.forget();
    }
    await report(await oneCommit(job, seq, random, tries));
  }
}
