/** C1–C3: optimize.compact ‖ update of VendorID 2 (together, compaction first, update first). */

import {
  type CaseSpec,
  expectCommitted,
  expectDays,
  expectFailed,
  expectJanuaryPlus,
  expectTableVersion,
  expectTips,
  januaryDays,
  oneWinner,
} from './common';
import { ADDED, COMMIT_FAILED, DELETED_READ } from './messages';
import type { RunCheck } from './run-check';

const WRITERS = ['compact', 'vendor2'] as const;

/** The second committer fails: the update with "added new data", the compaction with "deleted data this operation read". */
function expectRace(c: RunCheck, winner: 'compact' | 'vendor2'): void {
  expectCommitted(c, winner, 1);
  if (winner === 'compact') expectFailed(c, 'vendor2', COMMIT_FAILED, ADDED);
  else expectFailed(c, 'compact', COMMIT_FAILED, DELETED_READ);
}

function expectTable(c: RunCheck): void {
  const updated = c.writer('vendor2')?.committed === true;
  expectJanuaryPlus(c, 0, 'January, each trip once', true);
  expectDays(c, januaryDays(c));
  expectTips(c, updated ? { '2': c.vendor('2') } : {}, [], updated ? 1 : null);
  expectTableVersion(c, 1);
}

export const compactionCases: CaseSpec[] = [
  {
    id: 'C1',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      const race = oneWinner(c, 'compact', 'vendor2');
      if (race) expectRace(c, race.winner === 'compact' ? 'compact' : 'vendor2');
      expectTable(c);
    },
  },
  {
    id: 'C2',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      expectRace(c, 'compact');
      expectTable(c);
    },
  },
  {
    id: 'C3',
    format: 'delta',
    writers: WRITERS,
    check(c) {
      expectRace(c, 'vendor2');
      expectTable(c);
    },
  },
];
