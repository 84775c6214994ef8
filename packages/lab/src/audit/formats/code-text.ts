/**
 * A code audit for people at a terminal, grouped by file: each setting found, then each finding as
 * `file:line:col rule severity: evidence` with its fix, then the files that were not read and why.
 */

import { plural } from '@racelab/contracts';
import type { CodeAudit, CodeFinding, CodeSetting } from '../code/setting';

const at = (x: { file: string; line: number; column: number }) => `${x.file}:${x.line}:${x.column}`;

export function toCodeText(audit: CodeAudit): string {
  const errors = audit.findings.filter((f) => f.severity === 'error').length;
  const lines = [
    `${plural(audit.files.scanned, 'file')} read, ${plural(audit.settings.length, 'setting')}, ${plural(audit.findings.length, 'finding')} (${plural(errors, 'error')})`,
    '',
  ];
  const files = [...new Set([...audit.settings.map((s) => s.file), ...audit.findings.map((f) => f.at.file)])].sort();
  for (const file of files) {
    lines.push(file);
    for (const s of audit.settings.filter((x) => x.file === file)) lines.push(`  ${settingLine(s)}`);
    for (const f of audit.findings.filter((x) => x.at.file === file)) lines.push(...findingLines(f));
    lines.push('');
  }
  if (audit.files.skipped.length > 0) {
    lines.push('Not read:');
    for (const s of audit.files.skipped) lines.push(`  ${s.file}: ${s.reason}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function settingLine(s: CodeSetting): string {
  const table = s.table === undefined ? '' : ` on ${s.table}`;
  return `${at(s)} ${s.key} = ${s.raw}  (${s.via}${table}${s.writer ? `, ${s.writer}` : ''})`;
}

function findingLines(f: CodeFinding): string[] {
  return [
    `  ${at(f.at)} ${f.rule} ${f.severity}: ${f.evidence}`,
    `      fix: ${f.fix}`,
    ...f.related.map((p) => `      and: ${at(p)}${p.message ? ` ${p.message}` : ''}`),
  ];
}
