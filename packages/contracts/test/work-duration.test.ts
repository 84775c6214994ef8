/**
 * The work estimate behind the 30-minute limit: every retry policy at its largest accepted size stays under it
 * (on the 2-core machine's step times, local and S3), the spark-like policy at N = 64 comes out at the half
 * minute it takes, and the two requests that would cost days (a 10-minute backoff with 1000 app tries, a
 * compaction paced at 4.7e-7 appends per second) are over it, named by the field that drives them.
 */
import { describe, expect, it } from 'vitest';
import {
  checkSweepInput,
  DEFAULT_MAX_WORK_MINUTES,
  estimateRace,
  estimateSweep,
  MAX_RUNS,
  MAX_SWEEP_COMMITS,
  MAX_WRITERS,
  RETRY_POLICIES,
  type StartSweepInput,
  type SweepInput,
  sweepCommits,
  tooLongMessage,
  workRefusal,
} from '../src/index';

const checked = (given: StartSweepInput): SweepInput => {
  const c = checkSweepInput(given);
  if (!c.ok) throw new Error(c.problems.join('; '));
  return c.value;
};
const LOCAL = { store: 'local' as const, cores: 2 };

/** The biggest sweeps the bounds accept for an operation: one point of 64, and the default seven points. */
const LARGEST = [[64], [1, 2, 4, 8, 16, 32, 64]];
const maxK = (writers: number[], operation: string) =>
  Math.floor(MAX_SWEEP_COMMITS / sweepCommits({ writers, commitsPerWriter: 1, operation }));

const POLICIES: StartSweepInput['policy'][] = [
  ...(Object.keys(RETRY_POLICIES) as (keyof typeof RETRY_POLICIES)[]),
  // The docs' custom example: delta-rs's library loop inside pyiceberg's app loop.
  { name: 'custom', maxCommitRetries: 15, appTries: 5, backoff: { baseMs: 100, capMs: 60_000, jitter: 'full' } },
];
const OPERATIONS = ['append-row', 'append-day', 'update-disjoint', 'update-overlap', 'compaction'] as const;

/** appTries 1000 with pauses of ten minutes, as the sweep that ran 10 minutes for 2 commits had them. */
const TEN_MINUTE_BACKOFF: StartSweepInput = {
  writers: [2],
  operation: 'update-overlap',
  policy: {
    name: 'custom',
    maxCommitRetries: 0,
    appTries: 1000,
    backoff: { baseMs: 600_000, capMs: 600_000, jitter: 'full' },
  },
};
/** A compaction sweep whose first compaction would come in about 24 days. */
const SLOW_APPENDS: StartSweepInput = { operation: 'compaction', appendRatePerSec: 4.7e-7 };

describe('estimateSweep', () => {
  for (const policy of POLICIES) {
    const name = typeof policy === 'string' ? policy : policy?.name;
    it(`accepts ${name} at its largest accepted sizes, under ${DEFAULT_MAX_WORK_MINUTES} minutes`, () => {
      for (const operation of OPERATIONS) {
        for (const writers of LARGEST) {
          const input = checked({ writers, commitsPerWriter: maxK(writers, operation), operation, policy });
          expect(sweepCommits(input)).toBeGreaterThan(MAX_SWEEP_COMMITS * 0.9);
          for (const store of ['local', 's3'] as const) {
            const e = estimateSweep(input, { ...LOCAL, store });
            expect(e.minutes, `${operation} ${writers.join(',')} on ${store}`).toBeLessThan(DEFAULT_MAX_WORK_MINUTES);
            expect(e.minutes).toBeGreaterThan(0);
            expect(workRefusal('sweep', e, DEFAULT_MAX_WORK_MINUTES)).toBeNull();
          }
        }
      }
    });
  }

  it('puts spark-like at N = 64 (K = 10) near the half minute it takes on the 2-core machine', () => {
    const e = estimateSweep(checked({ writers: [64], operation: 'append-row', policy: 'spark-like' }), LOCAL);
    expect(e.minutes).toBeGreaterThan(0.25);
    expect(e.minutes).toBeLessThan(1.5);
    expect(e.field).toBe('writers');
  });

  it('refuses appTries 1000 with a 10-minute backoff cap: the pauses along the 99th-percentile commit', () => {
    const e = estimateSweep(checked(TEN_MINUTE_BACKOFF), LOCAL);
    expect(e.minutes).toBeGreaterThan(DEFAULT_MAX_WORK_MINUTES);
    expect(e.pausesMs).toBeGreaterThan(e.workMs);
    expect(e.field).toBe('policy.backoff.capMs');
    const message = tooLongMessage('sweep', e, DEFAULT_MAX_WORK_MINUTES);
    expect(message).toMatch(/^the sweep would take about \d+(\.\d)? (min|h|days), over the 30-minute limit/);
    expect(message).toContain('LAB_MAX_WORK_MINUTES');
    expect(message).toContain('policy.backoff.capMs drives it');
  });

  it.each([
    ['pauses of ten minutes from the first', { baseMs: 600_000, capMs: 600_000 }],
    ['pauses doubling from 100 ms up to ten minutes', { baseMs: 100, capMs: 600_000 }],
  ])('refuses appTries 1000 with %s even for one commit each, when the forecast is light', (_, pauses) => {
    const input = checked({
      ...TEN_MINUTE_BACKOFF,
      commitsPerWriter: 1,
      policy: { name: 'custom', maxCommitRetries: 0, appTries: 1000, backoff: { ...pauses, jitter: 'full' } },
    });
    const e = estimateSweep(input, LOCAL);
    // The forecast's 99th-percentile commit needs few tries, so the estimate alone is under the limit...
    expect(e.minutes).toBeLessThan(DEFAULT_MAX_WORK_MINUTES);
    // ...but one commit that meets more conflicts could pause for days: refused, naming the cap.
    const refused = workRefusal('sweep', e, DEFAULT_MAX_WORK_MINUTES);
    expect(refused?.field).toBe('policy.backoff.capMs');
    expect(refused?.minutes).toBeGreaterThan(24 * 60);
    expect(refused?.message).toMatch(
      /^one commit of the sweep could pause about \d+(\.\d)? (h|days), over the 30-minute limit/,
    );
  });

  it('accepts appTries 1000 when its pauses stay short: a policy is refused for its pauses, not its tries', () => {
    const input = checked({
      ...TEN_MINUTE_BACKOFF,
      commitsPerWriter: 1,
      policy: {
        name: 'custom',
        maxCommitRetries: 0,
        appTries: 1000,
        backoff: { baseMs: 1, capMs: 1000, jitter: 'full' },
      },
    });
    expect(workRefusal('sweep', estimateSweep(input, LOCAL), DEFAULT_MAX_WORK_MINUTES)).toBeNull();
  });

  it('refuses a compaction paced at 4.7e-7 appends per second: its gaps alone are days', () => {
    const e = estimateSweep(checked(SLOW_APPENDS), LOCAL);
    expect(e.field).toBe('appendRatePerSec');
    // Each of the 7 points waits K = 10 intervals of 1 / 4.7e-7 s (24.6 days each).
    expect(e.waitsMs).toBeCloseTo((7 * 10 * 1000) / 4.7e-7, -3);
    expect(e.minutes).toBeGreaterThan(24 * 24 * 60);
    expect(tooLongMessage('sweep', e, DEFAULT_MAX_WORK_MINUTES)).toContain('days, over the 30-minute limit');
  });

  it('reads the step times it is given: slower attempts on the store make a longer estimate', () => {
    const input = checked({ writers: [16], operation: 'append-row', policy: 'spark-like' });
    const fast = estimateSweep(input, LOCAL);
    const slow = estimateSweep(input, {
      ...LOCAL,
      measured: {
        attemptMs: { p10: 20, p50: 40, p90: 80, p99: 160 },
        prepareMs: { p10: 20, p50: 40, p90: 80, p99: 160 },
      },
    });
    expect(slow.workMs).toBeGreaterThan(fast.workMs * 2);
  });
});

describe('estimateRace', () => {
  it('keeps the largest race the API serves under the limit, driven by its runs', () => {
    const e = estimateRace({ runs: MAX_RUNS, writers: MAX_WRITERS, scale: 1 });
    expect(e.minutes).toBeLessThan(DEFAULT_MAX_WORK_MINUTES);
    expect(e.minutes).toBeGreaterThan(estimateRace({ runs: 1, writers: 2, scale: 0.01 }).minutes * 10);
    expect(e.field).toBe('runs');
  });
});
