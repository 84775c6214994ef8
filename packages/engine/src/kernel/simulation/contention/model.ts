/**
 * The contention model's input and output: groups of identical writers, each running the engine's commit loop
 * (ops/delta/commit/commit.ts, delta-rs 1.6.x) inside the lab's application loop, simulated event by event,
 * seeded (loop.ts):
 *
 * - a try reads the table (its read version) and prepares its change for a sampled `prepareMs`;
 * - each library attempt lists the latest version; if the table moved and `maxCommitRetries` is 0 it fails at
 *   once (`Failed to commit transaction: 0`), else every winner since the read is judged (`conflicts`), and the
 *   first that conflicts refuses the commit; then, at the end of its sampled `attemptMs` (of which `claimShare`
 *   lies after the listing), it claims latest + 1, which fails when another writer claimed that version first,
 *   and the loop goes round;
 * - a try that failed is redone by the application loop (reopen, prepare again) after its backoff pause, up to
 *   `appTries` tries.
 *
 * A simulation, not a closed form: the outcome depends on how the loop's steps interleave (a refusal at the
 * listing with retries off, winners judged since the read, claims lost in the attempt's window, backoff that
 * spreads the redo), which no product formula for p = P(no claim in the window) captures once writers retry and
 * synchronise. Pure and browser-safe: no `node:` imports, no clock, the same answer for the same seed.
 */
import type { RetryPolicy } from '../../retry/policy';
import type { Quantiles } from '../../statistics/quantiles';

/** The policy a simulated writer retries by: the one retry policy (retry/policy.ts). */
export type ContentionPolicy = RetryPolicy;

/** Identical writers. */
export interface WriterGroup {
  count: number;
  /** Commits each writer makes; 'background' writers commit until every other writer is done. */
  commits: number | 'background';
  policy: ContentionPolicy;
  attemptMs: Quantiles;
  prepareMs: Quantiles;
  /** Commits per second per writer; absent = a closed loop (the next commit starts when the last ends). */
  arrivalPerSec?: number;
  /**
   * Paced (every 1/rate, from the release) or Poisson arrivals, paced by default; or each writer's commits at
   * uniform random times over `spreadOverMs` (a Poisson stream seen over a window, given its count), which keeps
   * a rare writer's few commits among the others' instead of after them.
   */
  arrival?: 'paced' | 'poisson' | { spreadOverMs: number };
}

export interface ContentionModel {
  groups: WriterGroup[];
  /** Whether `loser`'s commit is refused when `winner`'s commit landed since its read (writers numbered in group order). Default: never (appends). */
  conflicts?: (winner: number, loser: number) => boolean;
  seed: number;
  /** A commit still not landed after this many attempts counts as failed (an unbounded policy against endless winners). */
  maxAttemptsPerCommit?: number;
  /**
   * Processors the writers share, when their steps are CPU work (a local table). They are shared as Linux's
   * scheduler (CFS, and EEVDF since 6.6) sets out to share them: an ideal multi-tasking processor, on which each of
   * R runnable steps advances at min(1, cpus / R) of full speed, so no step ever holds a processor while the others
   * wait: a writer is preempted anywhere, also between its listing and its claim. (The real scheduler approximates
   * this in slices of a few ms; with R > cpus a step's wall time is its work times R / cpus either way.)
   * Absent: every writer runs at once at full speed (I/O-bound, e.g. S3).
   */
  cpus?: number;
  /**
   * The share of an attempt's time that lies between its listing and its claim, the window in which another
   * writer's claim takes the version (the rest comes before the listing). Default 1: the listing starts the attempt.
   */
  claimShare?: number;
}

export interface GroupOutcome {
  intended: number;
  acknowledged: number;
  failed: number;
  attempts: number;
  /** Attempts per acknowledged commit (over all its tries). */
  histogram: { attempts: number; commits: number }[];
  failures: { message: string; count: number }[];
  /** Every commit, landed or failed, by its attempts and its application tries (fewest attempts first). */
  paths: CommitPath[];
}

/** How many commits took `attempts` attempts in `tries` tries of the application loop. */
export interface CommitPath {
  attempts: number;
  tries: number;
  commits: number;
}

export interface ContentionOutcome {
  groups: GroupOutcome[];
  /** From the release to the last non-background writer done. */
  durationMs: number;
}

export const MAX_SIMULATED_ATTEMPTS_PER_COMMIT = 10_000;
/** The message of a commit the model gave up on (MAX_SIMULATED_ATTEMPTS_PER_COMMIT). */
export const STILL_TRYING = 'still trying when the model stopped';
/** The refusal of a conflicting winner: the checker's CommitFailedError (its exact text depends on the change). */
export const CONFLICT_REFUSAL = 'Failed to commit transaction: <conflict>';
/** The refusal of a commit loop that ran out of retries. */
export const failedText = (retries: number) => `Failed to commit transaction: ${retries}`;
