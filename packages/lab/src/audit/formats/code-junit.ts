/**
 * A code audit as JUnit XML: one test suite per file that holds a setting or a finding, one test case per code
 * rule in each, so a file's clean rules show as passed. An error finding fails its case; a warning or a note
 * leaves it passing, with the finding in its system-out and its severity as a property. The files the audit did
 * not read are skipped cases of a last suite: nothing unread is reported as passed.
 */
import type { CodeAudit, CodeFinding } from '../code/setting';
import { CODE_RULE_HELP } from './code-rule-help';
import { type JunitCase, junitDocument, junitSuite } from './junit';

export const NOT_READ_SUITE = 'files not read';

const described = (f: CodeFinding) =>
  `${f.at.file}:${f.at.line}:${f.at.column}: ${f.evidence}\nfix: ${f.fix}${f.related.map((p) => `\nand: ${p.file}:${p.line}:${p.column}`).join('')}`;

export function toCodeJunit(audit: CodeAudit): string {
  const rules = [...new Set([...Object.keys(CODE_RULE_HELP), ...audit.findings.map((f) => f.rule)])];
  const files = [...new Set([...audit.settings.map((s) => s.file), ...audit.findings.map((f) => f.at.file)])].sort();
  const suites = files.map((file) => {
    const mine = audit.findings.filter((f) => f.at.file === file);
    const cases = rules.map((rule): JunitCase<CodeFinding> => {
      const found = mine.filter((f) => f.rule === rule);
      return {
        name: rule,
        classname: file,
        failures: found.filter((f) => f.severity === 'error'),
        notes: found.filter((f) => f.severity !== 'error'),
      };
    });
    return junitSuite(file, cases, described);
  });
  const notRead = audit.files.skipped.map(
    (s): JunitCase<CodeFinding> => ({
      name: s.file,
      classname: NOT_READ_SUITE,
      failures: [],
      notes: [],
      skipped: s.reason,
    }),
  );
  if (notRead.length > 0) suites.push(junitSuite(NOT_READ_SUITE, notRead, described));
  return junitDocument('code audit', suites);
}
