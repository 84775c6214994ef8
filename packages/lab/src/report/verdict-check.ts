/**
 * The run's serial-replay verdict against the checker's own expectation (every lesson case is serializable in
 * commit order but I5, reordered, and E1, which writes its day twice). The checker never runs the oracle itself.
 *
 * A run without a verdict is "not checked", not a mismatch: results files written before the lab recorded verdicts
 * (the committed full-scale docs/lab-results*.json until they are regenerated) must still check out. The printout
 * says so on each case that has such runs.
 */
import { writerOutcomeOf } from '@racelab/contracts';
import type { CaseSpec } from './expectations/index';
import { fmt, type RunCheck } from './expectations/run-check';

const NO_VERDICT = 'no verdict recorded (not checked)';

/** What the printout counts per case: the verdict's own words, or that there is none. */
export function verdictLine(c: RunCheck): string {
  return c.run.verdict?.summary ?? NO_VERDICT;
}

export function checkVerdict(c: RunCheck, spec: CaseSpec): void {
  const v = c.run.verdict;
  if (v === undefined) return;
  const expected = spec.verdict?.(c) ?? { status: 'serializable' };
  if (!c.equal('verdict', expected.status, v.status, 'how' in expected ? expected.how : 'in commit order')) return;
  const committed = c.run.writers.filter((w) => w.committed).map((w) => w.name);
  const order = v.order.join(', ');
  if (v.order.length !== committed.length || !committed.every((n) => v.order.includes(n))) {
    c.fail(`verdict order ${fmt(order)} is not the committed writers (${committed.join(', ')})`);
  }
  if (expected.status === 'reordered') {
    c.equal('verdict order', expected.order.join(', '), order, expected.how);
  } else if (spec.commitsMayRepeat) {
    // A writer whose commit landed twice is replayed once, at the version it reports.
    const byVersion = c.run.writers
      .filter((w) => w.committed)
      .sort((a, b) => (a.version ?? 0) - (b.version ?? 0))
      .map((w) => w.name);
    c.equal('verdict order', byVersion.join(', '), order, "the writers' reported versions");
  } else if (c.run.commitOrder !== undefined) {
    c.equal('verdict order', c.run.commitOrder.join(', '), order, 'the commit order');
  }
  // The summary's first words are the ones the issue asks for; an oracle may add findings after them.
  const opens = (words: string) => {
    if (!v.summary.startsWith(words))
      c.fail(`verdict summary differs: expected it to start ${fmt(words)}, got ${fmt(v.summary)}`);
  };
  if (expected.status === 'serializable') opens('data OK');
  if (expected.status === 'not-serializable') {
    c.equal('verdict rowsDuplicated', expected.rowsDuplicated, v.rowsDuplicated, expected.how);
    c.equal('verdict rowsMissing', 0, v.rowsMissing ?? 0);
    c.equal('verdict rowsExtra', 0, v.rowsExtra ?? 0);
    opens(`${fmt(expected.rowsDuplicated)} row${expected.rowsDuplicated === 1 ? '' : 's'} written twice`);
  }
  // A loser's change never leaks into a lesson case's table (a writer with nothing to commit lost nothing).
  const failed = c.run.writers
    .filter((w) => writerOutcomeOf(w) === 'failed')
    .map((w) => w.name)
    .sort();
  const checked = v.failedWriters.map((f) => f.name).sort();
  if (failed.join(', ') !== checked.join(', ')) {
    c.fail(
      `verdict failedWriters differ: expected ${failed.join(', ') || 'none'}, got ${checked.join(', ') || 'none'}`,
    );
  }
  for (const f of v.failedWriters) if (!f.untouched) c.fail(`verdict: ${f.name} failed, yet ${fmt(f.summary)}`);
}
