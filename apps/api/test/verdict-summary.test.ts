/** The race's verdicts in words: pure, no database. */
import type { RunVerdict } from '@racelab/lab';
import { describe, expect, it } from 'vitest';
import { verdictSummary, worstVerdict } from '../src/races/verdict-summary';

const ok: RunVerdict = {
  status: 'serializable',
  order: ['A', 'B'],
  summary: 'data OK',
  failedWriters: [],
  oracleMs: 40,
};
const doubled = (rows: number): RunVerdict => ({
  status: 'not-serializable',
  order: ['first-job', 'second-job'],
  summary: `${rows.toLocaleString('en-US')} rows written twice`,
  rowsDuplicated: rows,
  rowsMissing: 0,
  rowsExtra: 0,
  writers: [
    { name: 'first-job', notApplied: false, appliedTwice: false },
    { name: 'second-job', notApplied: false, appliedTwice: true },
  ],
  examples: [],
  failedWriters: [],
  oracleMs: 90,
});
const reordered: RunVerdict = {
  ...ok,
  status: 'reordered',
  order: ['update', 'append'],
  summary: 'reordered: update before append, as WriteSerializable allows',
};
const lostDelete: RunVerdict = {
  ...ok,
  failedWriters: [
    {
      name: 'gdpr-delete',
      rowsTouched: 1206,
      untouched: true,
      summary: "gdpr-delete's delete failed: its 1,206 VendorID 7 rows are still there",
    },
  ],
};

describe('verdictSummary', () => {
  it('says data OK with the runs counted against the runs asked for', () => {
    expect(verdictSummary([ok, ok, ok, ok, ok], 5)).toBe('data OK in 5 of 5');
    expect(verdictSummary([ok, ok], 5)).toBe('data OK in 2 of 5');
  });

  it('says rows written twice with their count', () => {
    expect(verdictSummary([doubled(7929)], 1)).toBe('7,929 rows written twice in 1 of 1');
  });

  it('counts a reordered run aside, its words ending in a clause of their own', () => {
    expect(verdictSummary([reordered, reordered], 2)).toBe(
      'reordered: update before append, as WriteSerializable allows (2 of 2)',
    );
  });

  it('lists each outcome of a mixed race, the good first', () => {
    expect(verdictSummary([doubled(12), ok, doubled(12), ok, ok], 5)).toBe(
      'data OK in 3 of 5; 12 rows written twice in 2 of 5',
    );
    expect(verdictSummary([doubled(12), reordered, ok], 3)).toBe(
      'data OK in 1 of 3; reordered: update before append, as WriteSerializable allows (1 of 3); 12 rows written twice in 1 of 3',
    );
  });

  it('groups runs by their words, so runs that differ in figures are listed apart', () => {
    expect(verdictSummary([doubled(12), doubled(13), doubled(12)], 3)).toBe(
      '12 rows written twice in 2 of 3; 13 rows written twice in 1 of 3',
    );
  });

  it("says what a failed writer left untouched, after the table's verdict", () => {
    expect(verdictSummary([lostDelete, lostDelete], 2)).toBe(
      "data OK in 2 of 2; gdpr-delete's delete failed: its 1,206 VendorID 7 rows are still there (2 of 2)",
    );
  });

  it('names the writer of each failure: two runs that lost different writers read apart, not as one line twice', () => {
    const lost = (name: string, vendor: number, n: string): RunVerdict => ({
      ...ok,
      failedWriters: [
        {
          name,
          rowsTouched: 1,
          untouched: true,
          summary: `${name}'s update failed: its ${n} VendorID ${vendor} rows keep their values`,
        },
      ],
    });
    expect(verdictSummary([lost('vendor1', 1, '753,671'), lost('vendor2', 2, '753,671')], 2)).toBe(
      "data OK in 2 of 2; vendor1's update failed: its 753,671 VendorID 1 rows keep their values (1 of 2); vendor2's update failed: its 753,671 VendorID 2 rows keep their values (1 of 2)",
    );
  });

  it('says a writer with nothing to commit apart from failed writers, after the verdict on the table', () => {
    const idle: RunVerdict = {
      ...ok,
      order: [],
      nothingToCommit: [{ name: 'del1', summary: "del1's delete matched no rows: nothing to commit" }],
    };
    expect(verdictSummary([idle, idle], 2)).toBe(
      "data OK in 2 of 2; del1's delete matched no rows: nothing to commit (2 of 2)",
    );
  });

  it('is null when no run has a verdict, and skips the runs without one', () => {
    expect(verdictSummary([], 5)).toBeNull();
    expect(verdictSummary([null, null], 2)).toBeNull();
    expect(verdictSummary([null, ok], 2)).toBe('data OK in 1 of 2');
  });
});

describe('worstVerdict', () => {
  it('is the worst status of the runs, or null without verdicts', () => {
    expect(worstVerdict([ok, reordered, null])).toBe('reordered');
    expect(worstVerdict([ok, doubled(3), reordered])).toBe('not-serializable');
    expect(worstVerdict([ok])).toBe('serializable');
    expect(worstVerdict([null])).toBeNull();
  });
});
