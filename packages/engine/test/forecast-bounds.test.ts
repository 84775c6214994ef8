/**
 * Whether a sweep's forecast holds on a point: the Wilson interval against known values, a forecast outside
 * either bound failing the point, and the forecast naming where it took its load from.
 */
import { describe, expect, it } from 'vitest';
import {
  type ContentionPolicy,
  forecastHold,
  forecastSweep,
  type Quantiles,
  type SweepForecastInput,
  wilsonInterval,
} from '../src/index';

describe('wilsonInterval', () => {
  it('gives the 95 % Wilson score interval', () => {
    const half = wilsonInterval(5, 10);
    expect(half.low).toBeCloseTo(0.236593, 5);
    expect(half.high).toBeCloseTo(0.763407, 5);
    const some = wilsonInterval(81, 263);
    expect(some.low).toBeCloseTo(0.255289, 5);
    expect(some.high).toBeCloseTo(0.36621, 5);
  });

  it('stays inside [0, 1] at the ends, and is all of it with no trials', () => {
    expect(wilsonInterval(0, 10).low).toBe(0);
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.277533, 5);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.722467, 5);
    expect(wilsonInterval(10, 10).high).toBeLessThanOrEqual(1);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('forecastHold', () => {
  const measured = { successPerAttempt: 0.5, attempts: 10, commitsPerSec: 100 };

  it('holds inside the widened interval and within 25 % commits/s', () => {
    const h = forecastHold(2, { successPerAttempt: 0.75, commitsPerSec: 80 }, measured);
    expect(h.successPerAttempt.low).toBeCloseTo(0.206593, 5);
    expect(h.successPerAttempt.high).toBeCloseTo(0.793407, 5);
    expect(h.successPerAttempt.inside).toBe(true);
    expect(h.commitsPerSec.relError).toBeCloseTo(-0.2, 9);
    expect(h.commitsPerSec.within).toBe(true);
    expect(h.holds).toBe(true);
  });

  it('fails a point whose success per attempt lies outside, or whose commits/s is more than 25 % off', () => {
    const outside = forecastHold(2, { successPerAttempt: 0.8, commitsPerSec: 100 }, measured);
    expect(outside.successPerAttempt.inside).toBe(false);
    expect(outside.holds).toBe(false);
    const slow = forecastHold(2, { successPerAttempt: 0.5, commitsPerSec: 74 }, measured);
    expect(slow.commitsPerSec.relError).toBeCloseTo(-0.26, 9);
    expect(slow.commitsPerSec.within).toBe(false);
    expect(slow.holds).toBe(false);
  });
});

describe('forecastSweep against its points', () => {
  const spread = (p50: number): Quantiles => ({ p10: p50 * 0.7, p50, p90: p50 * 1.6, p99: p50 * 3 });
  const NONE: ContentionPolicy = { maxCommitRetries: 0, appTries: 1, backoff: null };
  const measured = { attemptMs: spread(4), prepareMs: spread(20) };
  const sweep = (success: number): SweepForecastInput => ({
    store: 's3',
    input: { writers: [1, 2], commitsPerWriter: 10, operation: 'append-row', policy: NONE, seed: 9 },
    points: [
      { writers: 1, attempts: { successPerAttempt: 1, total: 10 }, commitsPerSec: 40, measured },
      { writers: 2, attempts: { successPerAttempt: success, total: 400 }, commitsPerSec: 40, measured },
    ],
  });

  it('says where it took its load from, and checks every point', () => {
    const f = forecastSweep(sweep(0.5));
    expect(f.loadSource).toBe('step-times');
    expect(f.holds.map((h) => h.writers)).toEqual([1, 2]);
    expect(f.holds[1]?.successPerAttempt.forecast).toBe(f.atPoints[1]?.successPerAttempt);
    expect(f.holds[1]?.successPerAttempt.measured).toBe(0.5);
  });

  it('fails the point the measurement contradicts', () => {
    const forecast = forecastSweep(sweep(0.5)).atPoints[1]?.successPerAttempt as number;
    // A measured proportion far from the forecast, over many attempts: its interval cannot reach the forecast.
    const f = forecastSweep(sweep(forecast > 0.5 ? 0.05 : 0.95));
    expect(f.holds[1]?.successPerAttempt.inside).toBe(false);
    expect(f.holds[1]?.holds).toBe(false);
  });
});
