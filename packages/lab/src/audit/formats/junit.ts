/**
 * A jobs audit as JUnit XML, the test report every CI shows: one test suite per job (a team fixes
 * jobs, and /audit groups findings the same way), one test case per rule in each, so a clean job
 * shows every rule passed. An error finding fails its case; a warning or a note leaves it passing,
 * with the finding in the case's system-out and its severity as a property. A job whose table cannot
 * be read skips the rules that read the table rather than passing them, and the checks the audit's
 * limits cut short are skipped cases of a last suite: nothing unchecked is reported as passed.
 */
import type { JobAudit } from '../index';
import type { Finding } from '../types';
import { RULE_HELP, ruleHelp } from './rule-help';

export const LIMITS_SUITE = 'audit limits';

/** What a JUnit report's findings need: the evidence (a failure's message) and a severity. */
export interface JunitFinding {
  evidence: string;
  severity: string;
}

/** One rule's test case for one subject: its error findings fail it, the others are noted in its system-out. */
export interface JunitCase<F extends JunitFinding> {
  name: string;
  classname: string;
  failures: F[];
  notes: F[];
  skipped?: string;
}

type Case = JunitCase<Finding>;

/** `jobs`: the manifest's job names, in its order (every job gets a suite, with findings or not). */
export function toJunit(audit: JobAudit, jobs: string[]): string {
  const rules = [...new Set([...Object.keys(RULE_HELP), ...audit.findings.map((f) => f.rule)])];
  // A finding naming no job is about its table; it gets a suite of its own, after the jobs.
  const subjects = [...new Set([...jobs, ...audit.findings.flatMap(subjectsOf)])];
  const unreadable = new Set(audit.findings.filter((f) => f.rule === 'table-unreadable').flatMap(subjectsOf));
  const suites = subjects.map((subject) => {
    const mine = audit.findings.filter((f) => subjectsOf(f).includes(subject));
    const cases = rules.map((rule): Case => {
      const found = mine.filter((f) => f.rule === rule);
      const unchecked = found.length === 0 && unreadable.has(subject) && ruleHelp(rule).reads === 'table';
      return {
        name: rule,
        classname: subject,
        failures: found.filter((f) => f.severity === 'error'),
        notes: found.filter((f) => f.severity !== 'error'),
        ...(unchecked && { skipped: 'not checked: the table could not be read' }),
      };
    });
    return junitSuite(subject, cases, described);
  });
  const limits = audit.skipped.map(
    (s): Case => ({ name: s.check, classname: LIMITS_SUITE, failures: [], notes: [], skipped: s.note }),
  );
  if (limits.length > 0) suites.push(junitSuite(LIMITS_SUITE, limits, described));
  return junitDocument('jobs audit', suites);
}
const subjectsOf = (f: Finding) => (f.jobs.length > 0 ? f.jobs : [`table ${f.table}`]);

interface Counts {
  tests: number;
  failures: number;
  skipped: number;
}

export interface JunitSuite {
  xml: string;
  counts: Counts;
}

/** The whole report: its suites, with their counts summed. */
export function junitDocument(name: string, suites: JunitSuite[]): string {
  const total = (k: keyof Counts) => suites.reduce((n, s) => n + s.counts[k], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(name)}" tests="${total('tests')}" failures="${total('failures')}" errors="0" skipped="${total('skipped')}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

/** A suite of cases; `described` writes a finding out in full (a failure's body, a note's system-out). */
export function junitSuite<F extends JunitFinding>(
  name: string,
  cases: JunitCase<F>[],
  described: (f: F) => string,
): JunitSuite {
  const counts = {
    tests: cases.length,
    failures: cases.filter((c) => c.failures.length > 0).length,
    skipped: cases.filter((c) => c.skipped !== undefined).length,
  };
  const xml = [
    `  <testsuite name="${xmlAttr(name)}" tests="${counts.tests}" failures="${counts.failures}" errors="0" skipped="${counts.skipped}">`,
    ...cases.map((c) => testCase(c, described)),
    '  </testsuite>',
  ].join('\n');
  return { xml, counts };
}

function testCase<F extends JunitFinding>(c: JunitCase<F>, described: (f: F) => string): string {
  const open = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(c.classname)}"`;
  const body: string[] = [];
  if (c.skipped !== undefined) body.push(`      <skipped message="${xmlAttr(c.skipped)}"/>`);
  const [first] = c.failures;
  if (first) {
    const detail = c.failures.map(described).join('\n\n');
    body.push(`      <failure message="${xmlAttr(first.evidence)}" type="error">${xmlText(detail)}</failure>`);
  }
  if (c.notes.length > 0) {
    const severities = [...new Set(c.notes.map((f) => f.severity))].join(', ');
    body.push(`      <properties><property name="severity" value="${xmlAttr(severities)}"/></properties>`);
    const out = c.notes.map((f) => `${f.severity.toUpperCase()}: ${described(f)}`).join('\n\n');
    body.push(`      <system-out>${xmlText(out)}</system-out>`);
  }
  return body.length === 0 ? `${open}/>` : [`${open}>`, ...body, '    </testcase>'].join('\n');
}

const described = (f: Finding) => `${f.evidence}\nfix: ${f.fix}\ntable: ${f.table}; jobs: ${f.jobs.join(', ')}`;

/**
 * Characters XML 1.0 cannot hold at all (most control characters, lone surrogates, U+FFFE/U+FFFF)
 * become U+FFFD: job names and predicates come from the manifest, and one stray byte must not make
 * the whole report unreadable.
 */
function xmlChars(s: string): string {
  return s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}

export function xmlText(s: string): string {
  return xmlChars(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values keep their line breaks and tabs as references (a parser would fold them to spaces). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
