/**
 * E1, E2: the daily job for 2025-02-14 started twice. E1 checks in its own code and then appends (both commit,
 * the day stored twice); E2 overwrites with a predicate in a retry loop (one copy of the day).
 */

import {
  type CaseSpec,
  expectAllCommitted,
  expectDays,
  expectDistinct,
  expectRows,
  expectTableVersion,
  expectTips,
  expectVendorsKept,
} from './common';
import { ADDED, COMMIT_FAILED } from './messages';
import { fmt, type RunCheck } from './run-check';

const WRITERS = ['job1', 'job2'] as const;
const DAY = '2025-02-14';

function expectDayTable(c: RunCheck, copies: number): void {
  const f14 = c.fig.feb14;
  expectRows(c, c.fig.january + copies * f14, copies === 1 ? 'January + Feb 14' : 'January + Feb 14 twice');
  expectDistinct(c, c.fig.january + f14, copies === 1, copies === 1 ? 'each trip once' : 'every Feb 14 trip twice');
  expectDays(c, { '2025-01-15': c.fig.jan15, '2025-02-01': 0, '2025-02-02': 0, [DAY]: copies * f14 }, [DAY]);
  expectVendorsKept(c);
  expectTips(c, {}, [], null);
  expectTableVersion(c, 2);
}

export const dailyCases: CaseSpec[] = [
  {
    id: 'E1',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      expectAllCommitted(c, WRITERS);
      for (const n of WRITERS) {
        const seen = c.writer(n)?.observed?.[DAY];
        if (seen !== undefined) c.equal(`${n}'s check (trips on ${DAY})`, 0, seen, 'it read the table as opened');
      }
      expectDayTable(c, 2);
    },
    // Replayed serially, the second job's check finds the first job's rows and appends nothing: every Feb 14 trip
    // of the raced table is one copy too many (round(158,575·S)).
    verdict: (c) => ({
      status: 'not-serializable',
      rowsDuplicated: c.fig.feb14,
      how: 'each Feb 14 trip once too often',
    }),
  },
  {
    id: 'E2',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      expectAllCommitted(c, WRITERS);
      const first = WRITERS.map((n) => c.writer(n)).find((w) => w?.version === 1);
      const second = WRITERS.map((n) => c.writer(n)).find((w) => w?.version === 2);
      if (first && second) {
        c.equal(`${first.name}'s attempt count`, 1, first.attempts, 'it committed first');
        c.equal(`${second.name}'s attempt count`, 2, second.attempts, 'it failed once, reopened, committed');
        if (second.attemptErrors.length !== 1) {
          c.fail(`${second.name}'s attemptErrors differ: expected 1 error, got ${second.attemptErrors.length}`);
        }
        const e = second.attemptErrors[0];
        if (e) {
          if (e.errorClass !== COMMIT_FAILED) {
            c.fail(
              `${second.name} attempt 1 error class differs: expected ${fmt(COMMIT_FAILED)}, got ${fmt(e.errorClass)}`,
            );
          }
          if (e.errorMessage !== ADDED) {
            c.fail(`${second.name} attempt 1 message differs: expected ${fmt(ADDED)}, got ${fmt(e.errorMessage)}`);
          }
          if (e.readVersion !== undefined && e.readVersion !== null) {
            c.equal(`${second.name}'s attempt 1 readVersion`, 0, e.readVersion);
          }
        }
        if (second.readVersion !== undefined && second.readVersion !== null) {
          c.equal(`${second.name}'s final readVersion`, 1, second.readVersion, "it reopened after the winner's commit");
        }
        if (second.filesRemoved !== undefined) c.equal(`${second.name}'s files removed`, 1, second.filesRemoved);
        if (second.filesAdded !== undefined) c.equal(`${second.name}'s files added`, 1, second.filesAdded);
        if (first.filesRemoved !== undefined) c.equal(`${first.name}'s files removed`, 0, first.filesRemoved);
        if (first.filesAdded !== undefined) c.equal(`${first.name}'s files added`, 1, first.filesAdded);
      }
      expectDayTable(c, 1);
    },
  },
];
