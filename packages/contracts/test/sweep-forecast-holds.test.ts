/**
 * The forecast check in the sweep's table: a point whose forecast lies outside its bounds shows FAILED with the
 * bound it misses, like contig's and once's NO; a forecast without checks adds no column.
 */
import { describe, expect, it } from 'vitest';
import { forecastHoldCell, SWEEP_FORECAST_COLUMNS, SWEEP_TABLE_COLUMNS, sweepTableCells } from '../src/index';

const point = (writers: number) => ({
  writers,
  commits: { acknowledged: 4, failed: 0 },
  attempts: { successPerAttempt: 0.5, histogram: [{ attempts: 1, commits: 4 }] },
  commitsPerSec: 100,
  latencyMs: { p50: 5, p99: 9 },
  wasted: { bytes: 0, files: 0, orphanFiles: 0 },
  checks: { versionsContiguous: true, exactlyOnce: true, lost: 0, duplicated: 0, verdict: 'serial' },
});
const hold = (writers: number, inside: boolean, relError: number) => ({
  writers,
  successPerAttempt: { low: 0.2066, high: 0.7934, inside },
  commitsPerSec: { relError, within: Math.abs(relError) <= 0.25 },
  holds: inside && Math.abs(relError) <= 0.25,
});
const atPoint = (writers: number) => ({ writers, successPerAttempt: 0.5, exhaustion: 0.5, commitsPerSec: 90 });

describe('the forecast check in the sweep table', () => {
  it('reads yes when the forecast holds, and FAILED naming each missed bound when not', () => {
    expect(forecastHoldCell(hold(2, true, -0.1))).toBe('yes');
    expect(forecastHoldCell(hold(2, false, -0.1))).toBe('FAILED (succ/att outside 20.7%-79.3%)');
    expect(forecastHoldCell(hold(2, true, -0.45))).toBe('FAILED (commits/s -45%)');
    expect(forecastHoldCell(hold(2, false, 0.3))).toBe('FAILED (succ/att outside 20.7%-79.3%; commits/s +30%)');
  });

  it('adds the column after the forecast columns only when the forecast carries its checks', () => {
    const points = [point(1), point(2)];
    const width = SWEEP_TABLE_COLUMNS.length + SWEEP_FORECAST_COLUMNS.length;
    const plain = sweepTableCells(points, { atPoints: [atPoint(1), atPoint(2)] });
    expect(plain.map((r) => r.length)).toEqual([width, width]);
    const checked = sweepTableCells(points, {
      atPoints: [atPoint(1), atPoint(2)],
      holds: [hold(1, true, 0), hold(2, false, 0)],
    });
    expect(checked.map((r) => r.at(-1))).toEqual(['yes', 'FAILED (succ/att outside 20.7%-79.3%)']);
  });
});
