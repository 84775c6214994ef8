/** A1, A2: two appends (Feb 1 ‖ Feb 2) on the January table, with delta-rs's commit retry on and off. */

import {
  type CaseSpec,
  expectCommitted,
  expectDays,
  expectFailed,
  expectJanuaryPlus,
  expectTableVersion,
  expectTips,
  oneWinner,
} from './common';
import { COMMIT_FAILED, NO_RETRIES } from './messages';
import type { RunCheck } from './run-check';

const WRITERS = ['feb01', 'feb02'] as const;

/** The day a Feb writer appends and its trip count. */
export function febDay(c: RunCheck, writer: string): { day: string; trips: number } {
  return writer === 'feb01' ? { day: '2025-02-01', trips: c.fig.feb01 } : { day: '2025-02-02', trips: c.fig.feb02 };
}

export const appendCases: CaseSpec[] = [
  {
    id: 'A1',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      const both = WRITERS.map((w) => expectCommitted(c, w));
      if (both.every(Boolean)) {
        const versions = WRITERS.map((w) => c.writer(w)?.version ?? null).sort();
        if (versions[0] !== 1 || versions[1] !== 2)
          c.fail(`versions differ: expected 1 and 2, got ${versions.join(' and ')}`);
      }
      expectJanuaryPlus(c, c.fig.feb01 + c.fig.feb02, 'January + Feb 1 + Feb 2', true);
      expectDays(
        c,
        { '2025-01-15': c.fig.jan15, '2025-02-01': c.fig.feb01, '2025-02-02': c.fig.feb02, '2025-02-14': 0 },
        ['2025-02-01', '2025-02-02'],
      );
      expectTips(c, {}, [], null);
      expectTableVersion(c, 2);
    },
  },
  {
    id: 'A2',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      const race = oneWinner(c, 'feb01', 'feb02');
      if (!race) return;
      expectCommitted(c, race.winner, 1);
      expectFailed(c, race.loser, COMMIT_FAILED, NO_RETRIES);
      const won = febDay(c, race.winner);
      const lost = febDay(c, race.loser);
      expectJanuaryPlus(c, won.trips, `January + the winner's day (${won.day})`);
      expectDays(c, { '2025-01-15': c.fig.jan15, [won.day]: won.trips, [lost.day]: 0, '2025-02-14': 0 });
      expectTips(c, {}, [], null);
      expectTableVersion(c, 1);
    },
  },
];
