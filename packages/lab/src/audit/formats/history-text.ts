/**
 * A table's history for people at a terminal: what was read, the summary's figures under their JSON names, the
 * commits that overlapped others (how that is known, and who wrote them), the duplicated keys, then each finding
 * with its fix. `--json` holds everything; this report lists the first commits and keys and says how many more.
 */

import { plural } from '@racelab/contracts';
import type { HistoryCommit, TableHistory } from '../history/index';

/** Concurrent commits and duplicated keys listed at most; the JSON holds them all. */
const LISTED = 50;

const time = (ms: number | null) => (ms === null ? '(no timestamp)' : new Date(ms).toISOString());

export function toHistoryText(h: TableHistory): string {
  const s = h.summary;
  const since = h.range.since === null ? '' : ` since ${h.range.since}`;
  const lines = [
    `${h.location}: versions ${h.range.fromVersion}–${h.range.latestVersion}${since}, ${plural(s.commits, 'commit')} read`,
    '',
    `  summary.commits                   ${s.commits}`,
    `  summary.writers                   ${s.writers}`,
    `  summary.concurrentCommits         ${s.concurrentCommits}`,
    `  summary.inferredConcurrentCommits ${s.inferredConcurrentCommits}`,
    `  summary.unknownConcurrency        ${s.unknownConcurrency}`,
    `  summary.longestConcurrentChain    ${s.longestConcurrentChain}`,
    `  summary.commitsPerHour            ${s.commitsPerHour === null ? '-' : s.commitsPerHour.toFixed(1)}`,
    `  summary.busiestHour               ${s.busiestHour === null ? '-' : `${s.busiestHour.start} (${s.busiestHour.concurrentCommits} of ${plural(s.busiestHour.commits, 'commit')} concurrent)`}`,
    `  summary.duplicateKeys             ${s.duplicateKeys === null ? '- (no --key)' : s.duplicateKeys}`,
    '',
  ];
  const concurrent = h.commits.filter((c) => c.concurrentWith.length > 0);
  if (concurrent.length > 0) {
    lines.push('Concurrent commits:');
    for (const c of concurrent.slice(0, LISTED)) lines.push(`  ${commitLine(c)}`);
    if (concurrent.length > LISTED) lines.push(`  … ${concurrent.length - LISTED} more in --json`);
    lines.push('');
  }
  if (h.duplicates && h.duplicates.keys.length > 0) {
    lines.push(`Keys (${h.duplicates.key.join(', ')}) present more than once at version ${h.duplicates.atVersion}:`);
    for (const k of h.duplicates.keys.slice(0, LISTED)) {
      const by = k.addedBy.map((a) => `v${a.version}${a.concurrent ? ' (concurrent)' : ''}`).join(', ');
      lines.push(`  ${JSON.stringify(k.values)} ×${k.count}, added by ${by}`);
    }
    const more = h.duplicates.distinct - Math.min(h.duplicates.keys.length, LISTED);
    if (more > 0) lines.push(`  … ${more} more`);
    lines.push('');
  }
  const errors = h.findings.filter((f) => f.severity === 'error').length;
  lines.push(`${plural(h.findings.length, 'finding')} (${plural(errors, 'error')})`);
  for (const f of h.findings) {
    lines.push(`  ${f.rule} ${f.severity}: ${f.evidence}`, `      fix: ${f.fix}`);
  }
  return `${lines.join('\n')}\n`;
}

function versions(vs: number[]): string {
  const shown = vs
    .slice(0, 10)
    .map((v) => `v${v}`)
    .join(', ');
  return vs.length > 10 ? `${shown} and ${vs.length - 10} more` : shown;
}

function commitLine(c: HistoryCommit): string {
  const w = c.writer;
  const writer = [w.library ?? 'unknown writer', w.version, w.appId && `app ${w.appId}`].filter(Boolean).join(' ');
  const read = c.readVersion === null ? '' : ` read v${c.readVersion},`;
  return `v${c.version} ${time(c.timestamp)} ${c.operation ?? '?'} by ${writer}:${read} concurrent with ${versions(c.concurrentWith)} (${c.evidence})`;
}
