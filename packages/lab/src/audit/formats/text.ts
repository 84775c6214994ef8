/**
 * A jobs audit for people at a terminal: each finding with its evidence and fix, then, per table,
 * the forecast for every pair of jobs, then what the audit's limits left unchecked.
 */

import { plural } from '@racelab/contracts';
import { libraryLabel } from '@racelab/engine';
import type { JobAudit } from '../index';

/** A forecast's outcome in words: the check that refuses it, else its message, else just "fails". */
const outcome = (f: {
  secondCommits?: boolean | null;
  commits?: boolean;
  failedCheck: string | null;
  message: string | null;
}) =>
  (f.commits ?? f.secondCommits) ? 'commits' : `fails: ${f.failedCheck ?? f.message?.split('\n')[0] ?? 'refused'}`;

const MARK = { error: 'ERROR  ', warning: 'WARNING', info: 'INFO   ' } as const;

export function toText(audit: JobAudit, jobCount: number): string {
  const lines = [`${plural(jobCount, 'job')}, ${plural(audit.findings.length, 'finding')}`, ''];
  for (const f of audit.findings) {
    lines.push(`${MARK[f.severity]} ${f.rule}  [${f.jobs.join(', ')}]  ${f.table}`);
    lines.push(`         seen: ${f.evidence}`);
    lines.push(`         fix:  ${f.fix}`, '');
  }
  for (const table of new Set(audit.pairs.map((p) => p.table))) {
    lines.push(`Forecast on ${table}: FIRST commits, then SECOND (delta-rs 1.6.x: what races measure)`);
    for (const p of audit.pairs.filter((x) => x.table === table)) {
      lines.push(
        `  ${p.first} → ${p.second}: ${p.secondCommits === null ? `not forecast (${p.skipped})` : outcome(p)}`,
      );
      // Every engine SECOND could run on, its own marked: the level each reads, and what the model says.
      for (const e of p.byEngine) {
        const own = e.engine === p.secondEngine ? ' (its engine)' : '';
        lines.push(
          `      ${libraryLabel(e.engine)}${own}, ${e.isolationLevel ?? 'no level it accepts'}: ${outcome(e)}${e.note ? `; ${e.note}` : ''}`,
        );
      }
    }
    lines.push('');
  }
  for (const s of audit.skipped) lines.push(`NOT CHECKED ${s.check}: ${s.note}`);
  return `${lines.join('\n')}\n`;
}
