/** The app loop's pause before a retry: exponential from base, capped, jittered by the writer's seeded generator. */
import { RETRY_POLICIES, type RetryPolicy } from '@racelab/contracts';
import { backoffPause, seededRandom } from '@racelab/engine';
import { expect, it } from 'vitest';

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
