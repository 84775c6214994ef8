/**
 * One event of one writer: the step it is at (writer.ts) done at `now`, and when its next event comes. The
 * steps follow the engine's commit loop inside the application loop (model.ts): a commit starts a try; a try
 * reads the table and prepares; a listing judges the winners since the read; a claim lands, goes round the
 * library loop, or ends the try (then the application pauses and tries again, or the commit fails).
 */
import { backoffPause } from '../../retry/policy';
import { CONFLICT_REFUSAL, failedText, STILL_TRYING } from './model';
import type { SharedCpus } from './shared-cpus';
import type { Tally } from './tally';
import { arrivalAfter, type Writer } from './writer';

/** What every writer's steps share in one run. */
export interface Run {
  readonly random: () => number;
  /** Attempts after which a commit counts as failed (STILL_TRYING). */
  readonly cap: number;
  readonly conflicts: (winner: number, loser: number) => boolean;
  /** The share of an attempt between its listing and its claim (0..1). */
  readonly share: number;
  /** Who claimed each version (index = version); the table starts at version 0, made by no writer here. */
  readonly owners: number[];
  readonly tally: Tally;
  readonly cpus: SharedCpus;
  /** Writers (not background) that still owe commits; the run ends when none is left. */
  foreground: number;
  durationMs: number;
}

/** The commit ends; the writer's next commit is due at the returned time, or null when it has made them all. */
function finishCommit(run: Run, w: Writer, now: number, failure: string | null): number | null {
  run.tally.record(w.group, w.attempts, w.appTry, failure);
  w.commitsLeft--;
  w.made++;
  if (w.commitsLeft <= 0) {
    w.step = 'done';
    if (!w.background && --run.foreground === 0) run.durationMs = now;
    return null;
  }
  w.step = 'commit';
  w.nextArrival = arrivalAfter(w, w.nextArrival, run.random);
  return Math.max(now, w.nextArrival);
}

/** A try that ended without landing: the app loop redoes it after its pause, or the commit fails. */
function tryFailed(run: Run, w: Writer, now: number, message: string): number | null {
  if (w.appTry < w.policy.appTries && w.attempts < run.cap) {
    w.appTry++;
    w.step = 'try';
    return now + backoffPause(w.policy, w.appTry, run.random);
  }
  return finishCommit(run, w, now, w.attempts >= run.cap ? STILL_TRYING : message);
}

/**
 * An attempt's time before its listing; its window (listing to claim) is kept for the listing. With the default
 * share nothing comes before the listing and the attempt is drawn there (the draws stay in their old order).
 */
function beforeListing(run: Run, w: Writer): number {
  if (run.share >= 1) return 0;
  const ms = w.attempt(run.random());
  w.claimMs = ms * run.share;
  return ms - w.claimMs;
}

/** Writer `id`'s event at `now`: its step done; its next event's time, or null (none, or the processors' call). */
export function writerStep(run: Run, w: Writer, id: number, now: number): number | null {
  switch (w.step) {
    case 'commit':
      w.appTry = 1;
      w.attempts = 0;
      w.step = 'try';
      return now;
    case 'try':
      // The table is read when the change starts; the change is ready prepareMs later, and the first attempt
      // lists after its own work before the listing.
      w.readVersion = run.owners.length - 1;
      w.libraryAttempt = 0;
      w.step = 'list';
      return run.cpus.run(id, now, w.prepare(run.random()) + beforeListing(run, w));
    case 'list': {
      w.libraryAttempt++;
      w.attempts++;
      w.refusal = null;
      const latest = run.owners.length - 1;
      if (latest > w.readVersion) {
        if (w.policy.maxCommitRetries === 0) w.refusal = failedText(0);
        else {
          for (let v = w.readVersion + 1; v <= latest && w.refusal === null; v++) {
            if (run.conflicts(run.owners[v] as number, id)) w.refusal = CONFLICT_REFUSAL;
          }
          w.readVersion = latest;
        }
      }
      w.step = 'claim';
      return run.cpus.run(id, now, run.share >= 1 ? w.attempt(run.random()) : w.claimMs);
    }
    case 'claim':
      if (w.refusal !== null) return tryFailed(run, w, now, w.refusal);
      if (run.owners.length - 1 === w.readVersion) {
        run.owners.push(id);
        return finishCommit(run, w, now, null);
      }
      if (w.libraryAttempt <= w.policy.maxCommitRetries && w.attempts < run.cap) {
        w.step = 'list';
        const before = beforeListing(run, w);
        return before > 0 ? run.cpus.run(id, now, before) : now;
      }
      return tryFailed(run, w, now, failedText(w.policy.maxCommitRetries));
    case 'done':
      return null;
  }
}
