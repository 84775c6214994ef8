/**
 * The cron reader behind "which jobs can run at the same time": fields as standard cron reads
 * them, runs listed minute by minute in UTC, and the first overlap of two jobs in a week.
 */
import { describe, expect, it } from 'vitest';
import {
  activeRunBound,
  CronError,
  MAX_DURATION_MINUTES,
  overlaps,
  parseCron,
  REFERENCE_WEEK_START,
  runWindows,
} from '../src/audit/schedule';

const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

const MONDAY = new Date('2026-01-05T00:00:00Z');

function cronError(expr: string): string {
  try {
    parseCron(expr);
  } catch (error) {
    expect(error).toBeInstanceOf(CronError);
    expect((error as Error).name).toBe('CronError');
    return (error as Error).message;
  }
  throw new Error(`expected '${expr}' to be rejected`);
}

const iso = (w: { start: Date; end: Date } | null) => w && { start: w.start.toISOString(), end: w.end.toISOString() };

describe('parseCron', () => {
  it('reads 0 2 * * * as 02:00 every day', () => {
    expect(parseCron('0 2 * * *')).toEqual({
      source: '0 2 * * *',
      minutes: [0],
      hours: [2],
      daysOfMonth: range(1, 31),
      months: range(1, 12),
      daysOfWeek: range(0, 6),
      dayOfMonthRestricted: false,
      dayOfWeekRestricted: false,
    });
  });

  it('reads steps, ranges, lists and names', () => {
    expect(parseCron('*/15 * * * *').minutes).toEqual([0, 15, 30, 45]);
    const office = parseCron('0 9-17 * * MON-FRI');
    expect(office.hours).toEqual(range(9, 17));
    expect(office.daysOfWeek).toEqual([1, 2, 3, 4, 5]);
    expect(parseCron('0 0 1,15 * *').daysOfMonth).toEqual([1, 15]);
    expect(parseCron('0 8-20/4 * jan,Jul *')).toMatchObject({ hours: [8, 12, 16, 20], months: [1, 7] });
    expect(parseCron('5,0-10/5,5 * * * *').minutes).toEqual([0, 5, 10]);
    expect(parseCron('  0   2 * *  *  ').source).toBe('0   2 * *  *');
  });

  it('reads day-of-week 0 and 7 both as Sunday', () => {
    expect(parseCron('30 4 * * 0').daysOfWeek).toEqual([0]);
    expect(parseCron('30 4 * * 7').daysOfWeek).toEqual([0]);
    expect(parseCron('30 4 * * SUN').daysOfWeek).toEqual([0]);
    expect(parseCron('30 4 * * 5-7').daysOfWeek).toEqual([0, 5, 6]);
    expect(runWindows('30 4 * * 0', 10, MONDAY)).toEqual(runWindows('30 4 * * 7', 10, MONDAY));
  });

  it('reads the @ macros', () => {
    expect(parseCron('@daily')).toMatchObject({ minutes: [0], hours: [0], daysOfWeek: range(0, 6) });
    expect(parseCron('@weekly').daysOfWeek).toEqual([0]);
  });

  it('rejects malformed expressions with a clear message', () => {
    expect(cronError('61 * * * *')).toBe("cron '61 * * * *': minute 61 is out of range 0-59");
    expect(cronError('* * *')).toBe(
      "cron '* * *': expected 5 fields (minute hour day-of-month month day-of-week), got 3",
    );
    expect(cronError('abc')).toBe("cron 'abc': expected 5 fields (minute hour day-of-month month day-of-week), got 1");
    expect(cronError('')).toBe('cron expression is empty');
    expect(cronError('0 24 * * *')).toBe("cron '0 24 * * *': hour 24 is out of range 0-23");
    expect(cronError('0 0 0 * *')).toBe("cron '0 0 0 * *': day-of-month 0 is out of range 1-31");
    expect(cronError('0 0 * * 8')).toBe("cron '0 0 * * 8': day-of-week 8 is out of range 0-7");
    expect(cronError('0 0 * FOO *')).toBe("cron '0 0 * FOO *': month 'FOO' is not a number or a name JAN–DEC");
    expect(cronError('x 0 * * *')).toBe("cron 'x 0 * * *': minute 'x' is not a number");
    expect(cronError('0 0 * * MON 1')).toBe(
      "cron '0 0 * * MON 1': expected 5 fields (minute hour day-of-month month day-of-week), got 6",
    );
  });

  it('rejects steps, ranges and lists it cannot read unambiguously', () => {
    expect(cronError('*/0 * * * *')).toBe("cron '*/0 * * * *': minute step 0 must be between 1 and 60");
    expect(cronError('5/15 * * * *')).toBe(
      "cron '5/15 * * * *': minute '5/15': a step needs a range or * (e.g. '5-59/15')",
    );
    expect(cronError('0 0 * * FRI-MON')).toBe(
      "cron '0 0 * * FRI-MON': day-of-week range 'FRI-MON' runs backwards (wrap-around ranges are not supported)",
    );
    expect(cronError('1,,2 * * * *')).toBe("cron '1,,2 * * * *': empty list item in minute field '1,,2'");
    expect(cronError('0 0 L * *')).toBe("cron '0 0 L * *': day-of-month 'L' is not a number");
    expect(cronError('@reboot')).toMatch(/^cron '@reboot': unknown macro/);
  });
});

describe('runWindows', () => {
  it('lists every run starting in the window, each lasting maxDurationMinutes', () => {
    expect(runWindows('0 * * * *', 10, MONDAY)).toHaveLength(168);
    expect(runWindows('*/15 * * * *', 5, MONDAY)).toHaveLength(7 * 24 * 4);
    expect(runWindows('* * * * *', 1, MONDAY)).toHaveLength(10_080);
    expect(runWindows('0 9-17 * * MON-FRI', 30, MONDAY)).toHaveLength(5 * 9);
    expect(runWindows('0 2 * * *', 45, MONDAY, 1).map(iso)).toEqual([
      { start: '2026-01-05T02:00:00.000Z', end: '2026-01-05T02:45:00.000Z' },
    ]);
  });

  it('starts at from, even mid-minute, and stops before from + days', () => {
    const from = new Date('2026-01-05T02:00:30Z');
    const runs = runWindows('0 2 * * *', 10, from, 2);
    expect(runs.map((r) => r.start.toISOString())).toEqual(['2026-01-06T02:00:00.000Z', '2026-01-07T02:00:00.000Z']);
    expect(runWindows('0 * * * *', 10, MONDAY, 0)).toEqual([]);
  });

  it('matches a day on either day field when both are restricted, on both otherwise', () => {
    // January 2026: the 1st and 15th are a Thursday; the Mondays are the 5th, 12th, 19th and 26th.
    const days = (expr: string) =>
      runWindows(expr, 1, new Date('2026-01-01T00:00:00Z'), 31).map((w) => w.start.getUTCDate());
    expect(days('0 0 1,15 * MON')).toEqual([1, 5, 12, 15, 19, 26]);
    expect(days('0 0 */2 * MON')).toEqual([5, 19]);
    expect(days('0 0 1,15 * *')).toEqual([1, 15]);
  });

  it('lists nothing for a date that never comes, and nothing outside the months', () => {
    expect(runWindows('0 0 30 2 *', 10, MONDAY, 366)).toEqual([]);
    expect(runWindows('0 0 1 JUL *', 10, MONDAY, 31)).toEqual([]);
  });

  it('refuses a duration that is not a positive integer, or longer than the 7 days analysed', () => {
    expect(() => runWindows('0 * * * *', 0, MONDAY)).toThrow(
      'maxDurationMinutes must be an integer from 1 to 10080, got 0',
    );
    const week = { cron: '* * * * *', maxDurationMinutes: MAX_DURATION_MINUTES + 1 };
    expect(() => overlaps(week, week)).toThrow('maxDurationMinutes must be an integer from 1 to 10080, got 10081');
  });
});

describe('overlaps', () => {
  const job = (cron: string, maxDurationMinutes: number) => ({ cron, maxDurationMinutes });

  it('looks at the week starting on a Monday', () => {
    expect(new Date(REFERENCE_WEEK_START).getUTCDay()).toBe(1);
  });

  it('finds 02:00 for 60 min overlapping 02:30 for 10 min', () => {
    expect(iso(overlaps(job('0 2 * * *', 60), job('30 2 * * *', 10)))).toEqual({
      start: '2026-06-01T02:30:00.000Z',
      end: '2026-06-01T02:40:00.000Z',
    });
  });

  it('finds no overlap for 02:00 and 04:00 runs of 30 min, nor for runs that only touch', () => {
    expect(overlaps(job('0 2 * * *', 30), job('0 4 * * *', 30))).toBeNull();
    expect(overlaps(job('0 2 * * *', 30), job('30 2 * * *', 30))).toBeNull();
  });

  it('keeps weekday and weekend jobs apart, unless a Friday run spills into Saturday', () => {
    expect(overlaps(job('0 * * * MON-FRI', 60), job('0 * * * SAT,SUN', 60))).toBeNull();
    expect(iso(overlaps(job('0 23 * * MON-FRI', 90), job('0 0 * * SAT,SUN', 30)))).toEqual({
      start: '2026-06-06T00:00:00.000Z',
      end: '2026-06-06T00:30:00.000Z',
    });
  });

  it('sees a run crossing midnight overlap a run after midnight', () => {
    expect(iso(overlaps(job('30 23 * * *', 60), job('15 0 * * *', 10)))).toEqual({
      start: '2026-06-01T00:15:00.000Z',
      end: '2026-06-01T00:25:00.000Z',
    });
  });

  it('sees a Sunday-night run that started before the week overlap Monday’s', () => {
    expect(iso(overlaps(job('30 23 * * SUN', 60), job('15 0 * * MON', 10)))).toEqual({
      start: '2026-06-01T00:15:00.000Z',
      end: '2026-06-01T00:25:00.000Z',
    });
  });

  it('is symmetric and returns the earliest overlap', () => {
    const a = job('*/20 * * * *', 5);
    const b = job('0 3 * * *', 120);
    expect(iso(overlaps(a, b))).toEqual({ start: '2026-06-01T03:00:00.000Z', end: '2026-06-01T03:05:00.000Z' });
    expect(overlaps(b, a)).toEqual(overlaps(a, b));
  });

  it('counts a monthly job on the 1st, which the reference week contains', () => {
    expect(overlaps(job('0 0 1 * *', 30), job('0 0 * * *', 30))).not.toBeNull();
    expect(overlaps(job('0 0 15 * *', 30), job('0 0 * * *', 30))).toBeNull();
    expect(overlaps(job('0 0 15 * *', 30), job('0 0 * * *', 30), 31)).not.toBeNull();
  });

  it('walks a bounded number of runs, counted before walking them', () => {
    // The worst case a manifest may ask for: a run every minute, each lasting the whole week, so the
    // runs still going at the week's start reach back 7 more days: 14 days of 1,440 runs.
    const worst = job('* * * * *', MAX_DURATION_MINUTES);
    expect(activeRunBound(worst)).toBe(14 * 1440);
    expect(activeRunBound(job('0 2 * * *', 60))).toBe(8);
    expect(iso(overlaps(worst, worst))?.start).toBe('2026-05-25T00:01:00.000Z');
  });

  it('accepts a parsed Cron as well as a string', () => {
    expect(overlaps({ cron: parseCron('0 2 * * *'), maxDurationMinutes: 60 }, job('30 2 * * *', 10))).toEqual(
      overlaps(job('0 2 * * *', 60), job('30 2 * * *', 10)),
    );
  });
});
