/** F1, F2: two Iceberg appends (Feb 1 ‖ Feb 2) on the 2025-01-15 table, pyiceberg's commit retry on and off. */

import { febDay } from './appends';
import {
  type CaseSpec,
  expectCommitted,
  expectDays,
  expectDistinct,
  expectFailed,
  expectRows,
  oneWinner,
} from './common';
import { ICEBERG_BRANCH_CHANGED, ICEBERG_COMMIT_FAILED, ICEBERG_RETRY_WARNING } from './messages';
import type { RunCheck } from './run-check';

const WRITERS = ['feb01', 'feb02'] as const;

function expectTable(c: RunCheck, days: readonly string[]): void {
  const added = days.map((d) => febDay(c, d));
  const rows = c.fig.jan15 + added.reduce((n, d) => n + d.trips, 0);
  expectRows(c, rows, `2025-01-15 + ${added.map((d) => d.day).join(' + ')}`);
  expectDistinct(c, rows, false);
  const counts: Record<string, number> = { '2025-01-15': c.fig.jan15, '2025-02-01': 0, '2025-02-02': 0 };
  for (const d of added) counts[d.day] = d.trips;
  expectDays(c, counts);
}

export const icebergCases: CaseSpec[] = [
  {
    id: 'F1',
    format: 'iceberg',
    writers: WRITERS,
    check(c) {
      for (const n of WRITERS) expectCommitted(c, n);
      const warned = WRITERS.filter((n) =>
        (c.writer(n)?.warnings ?? []).some((w) => w.startsWith(ICEBERG_RETRY_WARNING)),
      );
      if (warned.length !== 1) {
        c.fail(`writers warning "${ICEBERG_RETRY_WARNING}…" differ: expected exactly 1, got ${warned.length}`);
      }
      expectTable(c, WRITERS);
    },
  },
  {
    id: 'F2',
    format: 'iceberg',
    writers: WRITERS,
    check(c) {
      const race = oneWinner(c, 'feb01', 'feb02');
      if (!race) return;
      expectFailed(c, race.loser, ICEBERG_COMMIT_FAILED, ICEBERG_BRANCH_CHANGED, 'prefix');
      expectTable(c, [race.winner]);
    },
  },
];
