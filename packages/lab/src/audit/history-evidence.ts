/**
 * The jobs audit beside its forecast: what the table's own log says happened over the last days, read by the history
 * audit (history/) under bounds of its own, so a big log never stalls the audit. A table whose recent commits never
 * overlapped gets no finding; one whose did gets `history-evidence` with the figures (concurrent commits, how that
 * is known, the commits that landed only under a weaker level, the history's own findings), a warning when the
 * history has a warning or error of its own. A bound hit is said in a note; a table the history cannot read is
 * already a table-unreadable finding.
 */

import { plural } from '@racelab/contracts';
import type { LocationConfig } from '../tables/locations';
import { HistoryBoundError, type HistoryBounds, tableHistory } from './history/index';
import type { TableHistory } from './history/types';
import type { Finding, Job } from './types';

/** How far back the audit reads, and what it may spend on one table. */
export const HISTORY_EVIDENCE_DAYS = 7;
export const HISTORY_EVIDENCE_BOUNDS: HistoryBounds = {
  maxCommits: 10_000,
  maxBytes: 256 * 1024 ** 2,
  maxMillis: 15_000,
};

const LANDED_ONLY = new Set(['landed-only-under-write-serializable', 'landed-only-under-snapshot-isolation']);

/** The finding for `history`, or null when none of its commits overlapped another. */
export function historyEvidenceFinding(table: string, jobs: Job[], history: TableHistory): Finding | null {
  const s = history.summary;
  if (s.concurrentCommits === 0) return null;
  const landedOnly = history.findings.filter((f) => LANDED_ONLY.has(f.rule)).reduce((n, f) => n + f.versions.length, 0);
  const serious = history.findings.filter((f) => f.severity !== 'info');
  const rules = [...new Set(serious.map((f) => f.rule))];
  const recorded = s.concurrentCommits - s.inferredConcurrentCommits;
  const span = `versions ${history.range.fromVersion}–${history.range.latestVersion}, ${plural(s.commits, 'commit')} by ${plural(s.writers, 'writer')}`;
  return {
    rule: 'history-evidence',
    severity: serious.length > 0 ? 'warning' : 'info',
    jobs: jobs.map((j) => j.name),
    table,
    evidence: `history, last ${HISTORY_EVIDENCE_DAYS} days (${span}): ${plural(s.concurrentCommits, 'concurrent commit')} (${recorded} recorded, ${s.inferredConcurrentCommits} inferred from timing), ${s.unknownConcurrency} of unknown concurrency; ${landedOnly} landed only under a weaker isolation level than Serializable${rules.length > 0 ? `; the history's findings: ${rules.join(', ')}` : ''}`,
    fix: `read each commit's evidence and re-judgement with \`npm run audit -- history ${table}\`${serious[0] ? `; ${serious[0].fix}` : ''}`,
  };
}

/** The table's recent history as a finding on its jobs; null when nothing overlapped or the log cannot be read. */
export async function historyEvidence(
  table: string,
  jobs: Job[],
  cfg: LocationConfig,
  now = Date.now(),
): Promise<Finding | null> {
  try {
    const history = await tableHistory(table, {
      locations: cfg,
      since: now - HISTORY_EVIDENCE_DAYS * 24 * 3600 * 1000,
      bounds: HISTORY_EVIDENCE_BOUNDS,
    });
    return historyEvidenceFinding(table, jobs, history);
  } catch (e) {
    if (!(e instanceof HistoryBoundError)) return null;
    return {
      rule: 'history-evidence',
      severity: 'info',
      jobs: jobs.map((j) => j.name),
      table,
      evidence: `the table's history of the last ${HISTORY_EVIDENCE_DAYS} days was not read: ${e.message}`,
      fix: `read it without the audit's bounds: \`npm run audit -- history ${table} --since <date>\``,
    };
  }
}
