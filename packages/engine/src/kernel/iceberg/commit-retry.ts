/**
 * pyiceberg's commit retry (Transaction.commit_transaction, 0.12.0): `commit.retry.*` table properties,
 * num-retries + 1 attempts, only CommitFailedException retried, jittered exponential backoff, and the
 * same warning text. The sleep is the product's backoff; it is injectable so tests can check its bounds.
 */
import { CommitFailedException } from './types';

export interface RetryPolicy {
  numRetries: number;
  minWaitMs: number;
  maxWaitMs: number;
  totalTimeoutMs: number;
}

export const RETRY_PROPERTIES = {
  numRetries: ['commit.retry.num-retries', 4],
  minWaitMs: ['commit.retry.min-wait-ms', 100],
  maxWaitMs: ['commit.retry.max-wait-ms', 60_000],
  totalTimeoutMs: ['commit.retry.total-timeout-ms', 1_800_000],
} as const;

/** Reads the policy from table properties (strings), clamped to ≥ 0 as pyiceberg does. */
export function retryPolicyFrom(properties: Record<string, string>): RetryPolicy {
  const read = ([key, dflt]: readonly [string, number]): number => {
    const v = properties[key];
    if (v === undefined) return dflt;
    if (!/^\s*-?\d+\s*$/.test(v)) throw new Error(`Could not parse table property ${key} to an integer: ${v}`);
    return Math.max(0, Number(v));
  };
  return {
    numRetries: read(RETRY_PROPERTIES.numRetries),
    minWaitMs: read(RETRY_PROPERTIES.minWaitMs),
    maxWaitMs: read(RETRY_PROPERTIES.maxWaitMs),
    totalTimeoutMs: read(RETRY_PROPERTIES.totalTimeoutMs),
  };
}

/** `min(min·2^attempt, max)` plus uniform jitter in [0, 10 %) of that. */
export function backoffMs(attempt: number, p: RetryPolicy, random: () => number = Math.random): number {
  const wait = Math.min(p.minWaitMs * 2 ** attempt, p.maxWaitMs);
  return wait + random() * 0.1 * wait;
}

export interface RetryHooks {
  /** Receives each warning; default: print it to stderr (as Python's last-resort log handler does). */
  onWarning?: (text: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface RetryOutcome<T> {
  result: T;
  attempts: number;
  warnings: string[];
}

/**
 * Runs `attempt(i)` until it succeeds. After a CommitFailedException (and not on the last attempt, and
 * while under the total timeout) it warns, sleeps, and calls `refresh()`, which returns a result when
 * the commit turns out to have landed already. `onGiveUp` runs before the final error is rethrown.
 */
export async function withCommitRetry<T>(
  policy: RetryPolicy,
  steps: { attempt: (i: number) => Promise<T>; refresh: () => Promise<T | null>; onGiveUp?: () => Promise<void> },
  hooks: RetryHooks = {},
): Promise<RetryOutcome<T>> {
  const now = hooks.now ?? (() => performance.now());
  const sleep = hooks.sleep ?? defaultSleep;
  const warn = hooks.onWarning ?? ((t: string) => process.stderr.write(`${t}\n`));
  const warnings: string[] = [];
  const start = now();
  for (let i = 0; ; i++) {
    try {
      return { result: await steps.attempt(i), attempts: i + 1, warnings };
    } catch (e) {
      const giveUp =
        !(e instanceof CommitFailedException) || i >= policy.numRetries || now() - start >= policy.totalTimeoutMs;
      if (giveUp) {
        await steps.onGiveUp?.();
        throw e;
      }
    }
    const wait = backoffMs(i, policy, hooks.random);
    const text = `Commit failed due to a concurrent update, retrying (${i + 1}/${policy.numRetries}) in ${Math.round(wait)} ms`;
    warnings.push(text);
    warn(text);
    await sleep(wait);
    const landed = await steps.refresh();
    if (landed !== null) return { result: landed, attempts: i + 1, warnings };
  }
}
