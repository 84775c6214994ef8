/** B1–B3: two updates (tip + 1 for VendorID 1 ‖ 2) or two deletes on the flat table, and the updates partitioned. */

import {
  type CaseSpec,
  expectAllCommitted,
  expectCommitted,
  expectDays,
  expectDistinct,
  expectFailed,
  expectJanuaryPlus,
  expectRows,
  expectTableVersion,
  expectTips,
  expectVendorsKept,
  januaryDays,
  oneWinner,
  vendorOf,
} from './common';
import { ADDED, COMMIT_FAILED } from './messages';

export const updateCases: CaseSpec[] = [
  {
    id: 'B1',
    format: 'delta',
    writers: ['vendor1', 'vendor2'],
    check(c) {
      const race = oneWinner(c, 'vendor1', 'vendor2');
      if (race) {
        expectCommitted(c, race.winner, 1);
        expectFailed(c, race.loser, COMMIT_FAILED, ADDED);
        const v = vendorOf(race.winner);
        expectTips(c, { [v]: c.vendor(v) }, ['1', '2'], 1);
      }
      expectJanuaryPlus(c, 0, 'January, unchanged in count');
      expectDays(c, januaryDays(c));
      const t = c.table;
      if (t.dataFilesOnDisk === null) c.fail('dataFilesOnDisk missing');
      else c.equal('dataFilesOnDisk', 11, t.dataFilesOnDisk, "9 base files + the winner's 1 + the loser's zombie");
      if (t.dataFilesInLog === null) c.fail('dataFilesInLog missing');
      else c.equal('dataFilesInLog', 1, t.dataFilesInLog, "the winner's rewrite of all 9");
      expectTableVersion(c, 1);
    },
  },
  {
    id: 'B2',
    format: 'delta',
    writers: ['fare', 'distance'],
    check(c) {
      const race = oneWinner(c, 'fare', 'distance');
      if (race) {
        expectCommitted(c, race.winner, 1);
        expectFailed(c, race.loser, COMMIT_FAILED, ADDED);
        const fare = race.winner === 'fare';
        const deleted = fare ? c.fig.negativeFare : c.fig.zeroDistance;
        const byVendor = fare ? c.fig.negativeFareByVendor : c.fig.zeroDistanceByVendor;
        const rows = c.fig.january - deleted;
        expectRows(c, rows, fare ? 'January − fare_amount < 0' : 'January − trip_distance = 0');
        expectDistinct(c, rows, false);
        expectVendorsKept(
          c,
          Object.fromEntries(Object.entries(c.fig.byVendor).map(([v, n]) => [v, n - (byVendor[v] ?? 0)])),
        );
      }
      expectDays(c, { '2025-02-01': 0, '2025-02-02': 0, '2025-02-14': 0 });
      expectTips(c, {}, [], null);
      expectTableVersion(c, 1);
    },
  },
  {
    id: 'B3',
    format: 'delta',
    writers: ['vendor1', 'vendor2'],
    check(c) {
      expectAllCommitted(c, ['vendor1', 'vendor2']);
      expectTips(c, { '1': c.vendor('1'), '2': c.vendor('2') }, ['1', '2'], 1);
      expectJanuaryPlus(c, 0, 'January, unchanged in count');
      expectDays(c, januaryDays(c));
      expectTableVersion(c, 2);
    },
  },
];
