/**
 * A retry policy: how many times the library's commit loop claims again, how many times the application redoes
 * the whole change, and the pause before each redo. One type for everyone who retries a commit: the lab's sweep
 * writers pause with `backoffPause`, the contention simulation runs the same pauses, and the sweep's contract
 * (@racelab/contracts) checks its input against this type. Pure: the randomness is a seeded generator.
 */

/** delta-rs's default `max_commit_retries`; OPTIMIZE always commits with it, whatever the caller asked. */
export const DEFAULT_MAX_RETRIES = 15;

/** How a pause is spread: none (the pause itself), full (uniform up to it), equal (half, plus uniform up to half). */
export const JITTERS = ['none', 'full', 'equal'] as const;

export interface Backoff {
  baseMs: number;
  capMs: number;
  jitter: (typeof JITTERS)[number];
}

/** A retry policy in numbers (the sweep's contract adds its name). */
export interface RetryPolicy {
  /** The library's commit loop (delta-rs max_commit_retries). */
  maxCommitRetries: number;
  /** The application loop's tries of the whole change (1 = no app retry). */
  appTries: number;
  /** The pause before try t > 1: min(cap, base * 2^(t-2)), with its jitter; null = no pause. */
  backoff: Backoff | null;
}

/**
 * mulberry32: small, fast, good enough for sampling latencies and jitter; seeded so a forecast (and a sweep's
 * pauses, packages/lab/src/sweep/policy.ts) repeats.
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The application loop's pause before try `t` (t >= 2). */
export function backoffPause(policy: RetryPolicy, t: number, random: () => number): number {
  const b = policy.backoff;
  if (b === null || t < 2) return 0;
  const d = Math.min(b.capMs, b.baseMs * 2 ** (t - 2));
  if (b.jitter === 'full') return random() * d;
  if (b.jitter === 'equal') return d / 2 + (random() * d) / 2;
  return d;
}
