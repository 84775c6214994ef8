/**
 * A sweep's retry policies: their one-word spellings (delta-rs:50, backoff-jitter) read and written back, and the app
 * loop's pause before a retry: exponential from base, capped, jittered by the writer's seeded generator.
 */
import { RETRY_POLICIES, type RetryPolicy } from '@racelab/contracts';
import { backoffPause, seededRandom } from '@racelab/engine';
import { expect, it } from 'vitest';
import { BACKOFF_JITTER, policySpelling, spelledPolicy } from '../src/sweep/policy';

it('spellings: a preset, :R retries (library ones, or the app redos of a policy that pauses), backoff-jitter', () => {
  expect(spelledPolicy('delta-rs')).toEqual(RETRY_POLICIES['delta-rs']);
  expect(spelledPolicy('delta-rs:50')).toEqual({ name: 'custom', maxCommitRetries: 50, appTries: 1, backoff: null });
  expect(spelledPolicy('backoff-jitter')).toEqual({
    name: 'custom',
    maxCommitRetries: 0,
    appTries: 16,
    backoff: { baseMs: 50, capMs: 2000, jitter: 'full' },
  });
  expect(spelledPolicy('backoff-jitter:3')).toMatchObject({ maxCommitRetries: 0, appTries: 4 });
  for (const bad of ['custom', 'delta-rs:', 'fast', 'delta-rs:x']) expect(spelledPolicy(bad)).toBeUndefined();
  expect(policySpelling(BACKOFF_JITTER)).toBe('backoff-jitter');
  expect(policySpelling(spelledPolicy('delta-rs:50') as RetryPolicy)).toBe('delta-rs:50');
  expect(policySpelling(RETRY_POLICIES.none)).toBe('none');
  expect(policySpelling({ ...BACKOFF_JITTER, maxCommitRetries: 3 })).toBe('custom');
});

const policy = (jitter: 'none' | 'full' | 'equal'): RetryPolicy => ({
  name: 'custom',
  maxCommitRetries: 0,
  appTries: 10,
  backoff: { baseMs: 100, capMs: 500, jitter },
});

it('no pause before the first try or without backoff; min(cap, base * 2^(t-2)) before try t', () => {
  const r = seededRandom(1);
  expect(backoffPause(RETRY_POLICIES['delta-rs'], 2, r)).toBe(0);
  expect(backoffPause(policy('none'), 1, r)).toBe(0);
  expect([2, 3, 4, 5, 6].map((t) => backoffPause(policy('none'), t, r))).toEqual([100, 200, 400, 500, 500]);
});

it('full jitter draws from [0, ceiling), equal from [ceiling/2, ceiling); the same seed draws the same pauses', () => {
  const full = Array.from({ length: 200 }, (_, i) => backoffPause(policy('full'), 4, seededRandom(i)));
  expect(Math.min(...full)).toBeGreaterThanOrEqual(0);
  expect(Math.max(...full)).toBeLessThan(400);
  expect(Math.max(...full) - Math.min(...full)).toBeGreaterThan(200);
  const equal = Array.from({ length: 200 }, (_, i) => backoffPause(policy('equal'), 4, seededRandom(i)));
  expect(Math.min(...equal)).toBeGreaterThanOrEqual(200);
  expect(Math.max(...equal)).toBeLessThan(400);
  const draw = (seed: number) => [2, 3, 4].map((t) => backoffPause(policy('full'), t, seededRandom(seed)));
  expect(draw(7)).toEqual(draw(7));
  expect(draw(7)).not.toEqual(draw(8));
});
