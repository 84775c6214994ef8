/**
 * Sweeps of one setting under several retry policies, side by side: per policy and N, the appends dropped (commits
 * that exhausted every retry) of those intended, success per attempt, commits/s, and the forecast's expected drops
 * and success per attempt beside them (each sweep's own forecast, fed with that sweep's measured latencies).
 */
import { percent as pct, type SweepResults } from '@racelab/contracts';

export interface PolicyRun {
  /** The policy as the user spelled it (delta-rs:50, backoff-jitter). */
  label: string;
  results: SweepResults;
}

export const COMPARISON_COLUMNS = [
  'policy',
  'N',
  'dropped',
  'success/attempt',
  'commits/s',
  'forecast dropped',
  'forecast success/attempt',
] as const;

/** One line per policy and point, as cells. */
export function comparisonCells(runs: readonly PolicyRun[]): string[][] {
  return runs.flatMap(({ label, results }) =>
    results.points.map((p, i) => {
      const f = results.forecast?.atPoints[i];
      const { failed, intended } = p.commits;
      return [
        label,
        String(p.writers),
        `${failed} of ${intended}`,
        pct(p.attempts.successPerAttempt),
        p.commitsPerSec.toFixed(1),
        f ? `${(f.exhaustion * intended).toFixed(1)} of ${intended}` : '-',
        f ? pct(f.successPerAttempt) : '-',
      ];
    }),
  );
}

/** The comparison as a table a person reads. */
export function comparisonTable(runs: readonly PolicyRun[]): string {
  const header = [...COMPARISON_COLUMNS];
  const rows = comparisonCells(runs);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
