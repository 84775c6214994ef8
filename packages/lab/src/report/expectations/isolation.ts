/**
 * I1–I6: an append of Feb 1 commits (version 1), then an update of VendorID 2 that read version 0 tries to commit.
 * Only I5 (writeSerializable with a small w, append marked isBlindAppend) lets the update through.
 */

import {
  type CaseSpec,
  expectCommitted,
  expectDays,
  expectFailed,
  expectJanuaryPlus,
  expectTableVersion,
  expectTips,
} from './common';
import { ADDED, COMMIT_FAILED } from './messages';
import type { RunCheck } from './run-check';

/** The isolation matrix: does the update commit after the append? */
export const UPDATE_COMMITS: Record<string, boolean> = {
  I1: false,
  I2: false,
  I3: false,
  I4: false,
  I5: true,
  I6: false,
};

function check(c: RunCheck): void {
  expectCommitted(c, 'append', 1);
  const update = c.writer('vendor2');
  if (update && update.readVersion !== undefined && update.readVersion !== null) {
    c.equal("vendor2's readVersion", 0, update.readVersion, 'the update read the table before the append');
  }
  const commits = UPDATE_COMMITS[c.caseId] === true;
  if (commits) {
    expectCommitted(c, 'vendor2', 2);
    expectTips(c, { '2': c.vendor('2') }, ['2'], 1);
  } else {
    expectFailed(c, 'vendor2', COMMIT_FAILED, ADDED);
    expectTips(c, {}, [], null);
  }
  expectJanuaryPlus(c, c.fig.feb01, 'January + Feb 1');
  expectDays(c, { '2025-01-15': c.fig.jan15, '2025-02-01': c.fig.feb01, '2025-02-02': 0, '2025-02-14': 0 }, [
    '2025-02-01',
  ]);
  expectTableVersion(c, commits ? 2 : 1);
}

export const isolationCases: CaseSpec[] = Object.keys(UPDATE_COMMITS).map((id) => ({
  id,
  format: 'delta',
  writers: ['append', 'vendor2'],
  check,
  // The update read version 0 and changed January's VendorID 2 trips only, none of Feb 1's: the table is what the
  // update then the append leave, the reverse of the commit order.
  ...(UPDATE_COMMITS[id] && {
    verdict: () =>
      ({ status: 'reordered', order: ['vendor2', 'append'], how: 'the update before the append' }) as const,
  }),
}));
