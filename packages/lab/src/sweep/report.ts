/** A sweep's results as the table a person reads on a terminal (the CLI's, the bench's). */
import {
  percent as pct,
  SWEEP_FORECAST_COLUMNS,
  SWEEP_HOLDS_COLUMN,
  SWEEP_TABLE_COLUMNS,
  type SweepResults,
  sweepTableCells,
} from '@racelab/contracts';

/**
 * Failure messages shown per point, the most frequent first; the rest are counted on one line. A message may
 * carry ids (Iceberg's names the snapshots it expected and found), so a point can have hundreds of them.
 */
const FAILURE_LINES = 5;

/** The points as a table a person reads: one line per N, and the forecast's figures beside the measured ones. */
export function sweepTable(results: SweepResults): string {
  const header = [
    ...SWEEP_TABLE_COLUMNS,
    ...(results.forecast ? SWEEP_FORECAST_COLUMNS : []),
    ...(results.forecast?.holds ? [SWEEP_HOLDS_COLUMN] : []),
  ];
  const rows = sweepTableCells(results.points, results.forecast);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] as number)).join('  ');
  const out = [line(header), ...rows.map(line)];
  for (const p of results.points) {
    for (const f of p.failures.slice(0, FAILURE_LINES)) {
      out.push(`  N=${p.writers} failed ${f.count}x: ${f.message.split('\n')[0]}`);
    }
    const rest = p.failures.slice(FAILURE_LINES);
    if (rest.length > 0) {
      const count = rest.reduce((n, f) => n + f.count, 0);
      out.push(`  N=${p.writers} failed ${count}x more, with ${rest.length} other messages (all in the results file)`);
    }
    if (p.compactor) {
      const c = p.compactor;
      out.push(
        `  N=${p.writers} compactor: ${c.acknowledged}/${results.input.commitsPerWriter} landed, ${pct(c.successPerAttempt)} success per attempt${c.failures.map((x) => `; ${x.count}x ${x.message.split('\n')[0]}`).join('')}`,
      );
    }
  }
  if (results.forecast) {
    const e = results.forecast.error;
    out.push(
      `forecast (${results.forecast.model}, load from ${results.forecast.loadSource ?? 'step-times'}): success per attempt off by ${pct(e.successPerAttemptMeanAbs)} on average, commits/s by ${pct(e.commitsPerSecMeanRel)}`,
    );
    const failed = (results.forecast.holds ?? []).filter((h) => !h.holds);
    if (failed.length > 0) {
      out.push(
        `forecast check FAILED at N = ${failed.map((h) => h.writers).join(', ')}: success per attempt outside the measured 95 % Wilson interval widened by 3 points, or commits/s more than 25 % off`,
      );
    }
  }
  return out.join('\n');
}
