/**
 * Plain-words summaries of stored results, the way the lesson reports them: who committed, the
 * loser's exact error, and what the table held afterwards. Derived from results only.
 */
import { outcomePattern, plural, writerOutcomeOf } from '@racelab/contracts';
import type { CaseResult, RunResult, WriterResult } from './types';

const NUMBER = new Intl.NumberFormat('en-US');
export const fmt = (n: number) => NUMBER.format(n);

/** A writer with its outcome (writerOutcomeOf) in the results: what runLab returns and writes. */
export const withOutcome = (w: WriterResult): WriterResult => {
  const { name, operation, committed, ...rest } = w;
  return { name, operation, committed, outcome: writerOutcomeOf(w), ...rest };
};

/** "one commits, one fails"; a writer with nothing to commit is neither (outcomePattern). */
export const runOutcome = (run: RunResult): string =>
  outcomePattern(run.writers.map((w) => ({ operation: w.operation, outcome: writerOutcomeOf(w) })));

/** "one commits, one fails, 5 of 5", or each run's outcome when they differ. */
export function caseOutcome(c: CaseResult): string {
  const outcomes = c.runs.map(runOutcome);
  const first = outcomes[0] ?? 'no runs';
  const same = outcomes.filter((o) => o === first).length;
  const attempts = c.runs[0]?.writers.some((w) => w.attempts > 1)
    ? `; attempts ${c.runs.map((r) => r.writers.map((w) => w.attempts).join('+')).join(', ')}`
    : '';
  return same === outcomes.length
    ? `${first}, ${same} of ${outcomes.length}${attempts}`
    : `${outcomes.join(' | ')}${attempts}`;
}

/** The losers' distinct final errors (full text), and the first-line form for a table. */
export function loserErrors(c: CaseResult): string[] {
  const seen = new Set<string>();
  for (const r of c.runs) for (const w of r.writers) if (w.errorMessage) seen.add(`${w.errorClass}: ${w.errorMessage}`);
  return [...seen];
}

export function tableAfter(run: RunResult | undefined): string {
  if (!run) return '';
  const t = run.table;
  const parts = [plural(t.rows, 'row')];
  if (t.distinctTripIds !== null && t.distinctTripIds !== t.rows)
    parts.push(`${fmt(t.distinctTripIds)} distinct trip_ids`);
  const tips = Object.entries(t.tipDeltaByVendor ?? {}).filter(([, d]) => Math.abs(d) > 1e-6);
  if (tips.length > 0)
    parts.push(`tips +${tips.map(([v, d]) => `${fmt(Math.round(d * 100) / 100)} (VendorID ${v})`).join(', ')}`);
  const feb14 = t.tripsOnDay?.['2025-02-14'];
  if (feb14 !== undefined) parts.push(`${fmt(feb14)} on 2025-02-14`);
  if (t.dataFilesOnDisk !== null && t.dataFilesInLog !== null && t.dataFilesOnDisk !== t.dataFilesInLog) {
    parts.push(`${plural(t.dataFilesOnDisk, 'data file')} on disk, ${t.dataFilesInLog} in the log`);
  }
  return parts.join('; ');
}
