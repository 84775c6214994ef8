/**
 * Plain-words summaries of stored results, the way the lesson reports them: who committed, the
 * loser's exact error, and what the table held afterwards. Derived from results only.
 */
import { NOTHING_TO_COMMIT, nothingToCommitWords, writerOutcomeOf } from '@racelab/contracts';
import type { CaseResult, RunResult, WriterResult } from './types';

const NUMBER = new Intl.NumberFormat('en-US');
export const fmt = (n: number) => NUMBER.format(n);

const WORDS = ['none', 'one', 'both', 'three', 'all 4'];

/** A writer with its outcome (writerOutcomeOf) in the results: what runLab returns and writes. */
export const withOutcome = (w: WriterResult): WriterResult => {
  const { name, operation, committed, ...rest } = w;
  return { name, operation, committed, outcome: writerOutcomeOf(w), ...rest };
};

/**
 * "one commits, one fails"; a writer with nothing to commit is neither ("both matched no rows: nothing to commit",
 * "one commits, one matched no rows: nothing to commit").
 */
export function runOutcome(run: RunResult): string {
  const n = run.writers.length;
  const outcomes = run.writers.map(writerOutcomeOf);
  const ok = outcomes.filter((o) => o === 'committed').length;
  const failed = outcomes.filter((o) => o === 'failed').length;
  const nothing = n - ok - failed;
  // "matched no rows: nothing to commit" when every such writer chose its rows by a predicate.
  const words = new Set(
    run.writers.filter((w) => writerOutcomeOf(w) === 'nothing-to-commit').map((w) => nothingToCommitWords(w.operation)),
  );
  const NOTHING_WORDS = words.size === 1 ? ([...words][0] as string) : NOTHING_TO_COMMIT;
  const all = (verb: string) => (n === 2 ? `both ${verb}` : `all ${n} ${verb}`);
  if (ok === n) return all('commit');
  if (failed === n) return all('fail');
  if (nothing === n) return all(NOTHING_WORDS);
  const count = (k: number) => WORDS[k] ?? String(k);
  const parts = [
    ok > 0 && `${count(ok)} commit${ok === 1 ? 's' : ''}`,
    failed > 0 && `${count(failed)} fail${failed === 1 ? 's' : ''}`,
    // Last: its words hold a colon.
    nothing > 0 && `${count(nothing)} ${NOTHING_WORDS}`,
  ];
  return parts.filter((p): p is string => typeof p === 'string').join(', ');
}

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
  const parts = [`${fmt(t.rows)} rows`];
  if (t.distinctTripIds !== null && t.distinctTripIds !== t.rows)
    parts.push(`${fmt(t.distinctTripIds)} distinct trip_ids`);
  const tips = Object.entries(t.tipDeltaByVendor ?? {}).filter(([, d]) => Math.abs(d) > 1e-6);
  if (tips.length > 0)
    parts.push(`tips +${tips.map(([v, d]) => `${fmt(Math.round(d * 100) / 100)} (VendorID ${v})`).join(', ')}`);
  const feb14 = t.tripsOnDay?.['2025-02-14'];
  if (feb14 !== undefined) parts.push(`${fmt(feb14)} on 2025-02-14`);
  if (t.dataFilesOnDisk !== null && t.dataFilesInLog !== null && t.dataFilesOnDisk !== t.dataFilesInLog) {
    parts.push(`${t.dataFilesOnDisk} data files on disk, ${t.dataFilesInLog} in the log`);
  }
  return parts.join('; ');
}
