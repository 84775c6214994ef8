/**
 * Retry policies as a sweep takes them, and the application loop's pauses. A policy is spelled in one word: a
 * preset's name (delta-rs, none, pyiceberg-like, spark-like), `backoff-jitter` (the application redoes the change
 * after a full-jitter pause: 15 retries, base 50 ms, cap 2 s; the engine's commit loop, as delta-rs's, never
 * pauses), or any of them with `:R` for R retries instead (`delta-rs:50`: 50 library retries). The CLI's --policy and
 * --policies, and the jobs audit's candidate fixes, read the same spellings. The pauses are the engine's
 * `backoffPause` (the forecast's model pauses the same way) drawn from the writer's own seeded generator, so a
 * sweep repeats its pauses.
 */
import { RETRY_POLICIES, type RetryPolicy } from '@racelab/contracts';
import { seededRandom } from '@racelab/engine';

/** One writer's generator: the sweep's seed mixed with the point and the writer, so no two writers draw alike. */
export const writerRandom = (seed: number, writers: number, writer: number) =>
  seededRandom((seed ^ Math.imul(writers, 0x9e3779b1) ^ Math.imul(writer + 1, 0x85ebca6b)) >>> 0);

/** Backoff with full jitter: 15 redos of the whole change, each after uniform(0, min(2 s, 50 ms x 2^(t-2))). */
export const BACKOFF_JITTER: RetryPolicy = {
  name: 'custom',
  maxCommitRetries: 0,
  appTries: 16,
  backoff: { baseMs: 50, capMs: 2000, jitter: 'full' },
};

const SPELLED: Readonly<Record<string, RetryPolicy>> = { ...RETRY_POLICIES, 'backoff-jitter': BACKOFF_JITTER };

/** What a spelling may be, for a refusal or a help line. */
export const POLICY_SPELLINGS = `${Object.keys(SPELLED).join(', ')}, each optionally with :R retries (e.g. delta-rs:50)`;

/**
 * The policy a spelling names; undefined for text that is none. `:R` replaces the retries the policy has: the
 * library's for one without pauses, the application's redos for one that pauses between them (backoff-jitter,
 * pyiceberg-like); the result is then `custom` (a preset's name is only its own numbers). R is checked against
 * the bounds with the rest of the sweep's input.
 */
export function spelledPolicy(text: string): RetryPolicy | undefined {
  const [, name, retries] = /^([a-z-]+)(?::(\d+))?$/.exec(text.trim()) ?? [];
  if (name === undefined || !Object.hasOwn(SPELLED, name)) return undefined;
  const policy = SPELLED[name] as RetryPolicy;
  if (retries === undefined) return policy;
  const r = Number(retries);
  return policy.backoff === null || policy.appTries === 1
    ? { ...policy, name: 'custom', maxCommitRetries: r }
    : { ...policy, name: 'custom', appTries: r + 1 };
}

/** The one-word spelling of a policy with a spelling's numbers (`backoff-jitter`, `delta-rs:50`); else its name. */
export function policySpelling(p: RetryPolicy): string {
  const numbers = (q: RetryPolicy) => JSON.stringify([q.maxCommitRetries, q.appTries, q.backoff]);
  const names = Object.keys(SPELLED);
  const candidates = [
    ...names,
    ...names.flatMap((n) => [`${n}:${p.maxCommitRetries}`, `${n}:${Math.max(0, p.appTries - 1)}`]),
  ];
  return candidates.find((c) => numbers(spelledPolicy(c) as RetryPolicy) === numbers(p)) ?? p.name;
}
