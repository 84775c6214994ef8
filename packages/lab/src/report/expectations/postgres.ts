/**
 * P1–P3: Postgres row locks. A updates and holds its transaction open; B updates; A commits once B waits or
 * returns. P1: different rows (VendorID 1 and 2). P2, P3: the same rows (VendorID 2), READ COMMITTED / REPEATABLE READ.
 */

import { type CaseSpec, expectCommitted, expectFailed, expectRows, expectTips } from './common';
import { PG_SERIALIZE } from './messages';
import type { RunCheck } from './run-check';

function expectWaited(c: RunCheck, name: string, waited: boolean): void {
  const w = c.writer(name);
  if (!w) return;
  if (w.waitedOnLock === null) c.fail(`${name}'s waitedOnLock missing`);
  else c.equal(`${name}'s waitedOnLock`, waited, w.waitedOnLock);
}

function expectAWaitedNot(c: RunCheck): void {
  const a = c.writer('A');
  if (a && a.waitedOnLock !== null) c.equal("A's waitedOnLock", false, a.waitedOnLock, 'A goes first');
}

export const postgresCases: CaseSpec[] = [
  {
    id: 'P1',
    format: 'postgres',
    writers: ['A', 'B'],
    check(c) {
      expectCommitted(c, 'A');
      expectCommitted(c, 'B');
      expectWaited(c, 'B', false);
      expectAWaitedNot(c);
      expectTips(c, { '1': c.vendor('1'), '2': c.vendor('2') }, [], 1);
      expectRows(c, c.fig.january, 'January');
    },
  },
  {
    id: 'P2',
    format: 'postgres',
    writers: ['A', 'B'],
    check(c) {
      expectCommitted(c, 'A');
      expectCommitted(c, 'B');
      expectWaited(c, 'B', true);
      expectAWaitedNot(c);
      expectTips(c, { '2': 2 * c.vendor('2') }, ['2'], 2);
      expectRows(c, c.fig.january, 'January');
    },
  },
  {
    id: 'P3',
    format: 'postgres',
    writers: ['A', 'B'],
    check(c) {
      expectCommitted(c, 'A');
      expectWaited(c, 'B', true);
      expectAWaitedNot(c);
      expectFailed(c, 'B', null, PG_SERIALIZE, 'contains');
      expectTips(c, { '2': c.vendor('2') }, ['2'], 1);
      expectRows(c, c.fig.january, 'January');
    },
  },
];
