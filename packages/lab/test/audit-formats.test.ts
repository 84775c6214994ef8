/**
 * The jobs audit's CI formats, from the real command on a real table: SARIF 2.1.0 validated against
 * the schema Microsoft's SARIF Multitool ships (with ajv) and by the Multitool itself, each result on
 * its job's line of the manifest (YAML and JSON); JUnit XML read by a conforming XML parser, a suite
 * per job and a case per rule. The rule descriptions are held to docs/jobs-audit.md and to the rules
 * the audit raises (the code audit's with them: they share ids and anchors).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SaxesParser } from 'saxes';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_RULE_HELP } from '../src/audit/formats/code-rule-help';
import { toJunit } from '../src/audit/formats/junit';
import { RULE_HELP } from '../src/audit/formats/rule-help';
import { toSarif } from '../src/audit/formats/sarif';
import type { JobAudit } from '../src/audit/index';
import { type AuditRun, REPO, runAudit, writeTripsTable } from './helpers/audit-cli';
import { multitoolProblems, sarifSchemaErrors } from './helpers/sarif';
import { tempDir } from './helpers/small-base';

const work = tempDir('audit-formats');
const RULES = Object.keys(RULE_HELP);

/** Every severity, a finding on two jobs, a table that cannot be read; block and flow YAML. */
const YAML_MANIFEST = `# jobs that write the trips table
jobs:
  - name: vendor1-tips
    table: trips
    engine: delta-rs 1.6.6
    operation: update
    predicate: VendorID = 1
    tableProperties: { delta.isolationLevel: WriteSerializable }
    onCommitFailed: retry-commit

  - { name: vendor2-tips, table: trips, engine: delta-rs 1.6.6, operation: update, predicate: VendorID = 2,
      commitProperties: { maxCommitRetries: 0 } }
  -   table: trips
      engine: delta-rs 1.6.6
      name: daily-append
      operation: append
      checksTableBeforeAppend: true
  - name: lost
    table: nowhere/trips
    engine: delta-rs 1.6.6
    operation: delete
    predicate: VendorID = 1
`;

/** The line (1-based) on which `needle` stands, found without the YAML parser the command uses. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

beforeAll(async () => {
  await writeTripsTable(work);
  writeFileSync(join(work, 'jobs.yaml'), YAML_MANIFEST);
});

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
  relatedLocations?: { logicalLocations: { name: string }[] }[];
}

/** The report of `--format <format>` written with --out, the audit as --json wrote it, and the command's run. */
function report(format: string, manifest = 'jobs.yaml'): { run: AuditRun; text: string; audit: JobAudit } {
  const out = join(work, `report.${format}`);
  const run = runAudit(work, [manifest, '--format', format, '--out', out, '--json', join(work, 'audit.json')], {
    from: work,
  });
  return { run, text: readFileSync(out, 'utf8'), audit: JSON.parse(readFileSync(join(work, 'audit.json'), 'utf8')) };
}

describe('SARIF', () => {
  it('validates against the published schema, one result per finding on its job line', () => {
    const { run, text, audit } = report('sarif');
    expect(run.status).toBe(1);
    // With --out, stdout still carries the text report for the CI's log.
    expect(run.stdout).toMatch(/^4 jobs, \d+ findings$/m);
    const log = JSON.parse(text);
    expect(sarifSchemaErrors(log)).toEqual([]);
    const [sarifRun] = log.runs;
    const rules = sarifRun.tool.driver.rules as { id: string; helpUri: string }[];
    expect(rules.map((r) => r.id)).toEqual(RULES);
    const docs = pathToFileURL(join(REPO, 'docs/jobs-audit.md')).href;
    expect(rules.find((r) => r.id === 'table-unreadable')?.helpUri).toBe(`${docs}#table-unreadable`);

    const results = sarifRun.results as SarifResult[];
    expect(results).toHaveLength(audit.findings.length);
    const LEVEL = { error: 'error', warning: 'warning', info: 'note' };
    for (const [i, f] of audit.findings.entries()) {
      const r = results[i];
      expect(r?.ruleId).toBe(f.rule);
      expect(rules[r?.ruleIndex ?? -1]?.id).toBe(f.rule);
      expect(r?.level).toBe(LEVEL[f.severity]);
      const where = r?.locations[0]?.physicalLocation;
      expect(where?.artifactLocation.uri).toBe('jobs.yaml');
      expect(where?.region?.startLine).toBe(lineOf(YAML_MANIFEST, `name: ${f.jobs[0]}`));
      expect((r?.relatedLocations ?? []).map((l) => l.logicalLocations[0]?.name)).toEqual(f.jobs.slice(1));
    }
    const byRule = (rule: string) => results.filter((r) => r.ruleId === rule);
    expect(byRule('check-then-append')).toHaveLength(1);
    expect(byRule('table-unreadable')).toHaveLength(1);
    expect(byRule('no-vacuum').map((r) => r.level)).toEqual(['note']);
  });

  it('places jobs by line in a JSON manifest too, and names a manifest outside the folder by its file URI', () => {
    const json = JSON.stringify(
      {
        jobs: [
          {
            name: 'first',
            table: 'trips',
            engine: 'delta-rs 1.6.6',
            operation: 'append',
            checksTableBeforeAppend: true,
          },
          {
            name: 'second',
            table: 'trips',
            engine: 'delta-rs 1.6.6',
            operation: 'append',
            checksTableBeforeAppend: true,
          },
        ],
      },
      null,
      2,
    );
    writeFileSync(join(work, 'jobs.json'), json);
    const { text } = report('sarif', join(work, 'jobs.json'));
    const log = JSON.parse(text);
    expect(sarifSchemaErrors(log)).toEqual([]);
    const places = (log.runs[0].results as SarifResult[])
      .filter((r) => r.ruleId === 'check-then-append')
      .map((r) => r.locations[0]?.physicalLocation);
    expect(places).toEqual([
      { artifactLocation: { uri: 'jobs.json' }, region: { startLine: lineOf(json, '"first"'), startColumn: 7 } },
      { artifactLocation: { uri: 'jobs.json' }, region: { startLine: lineOf(json, '"second"'), startColumn: 7 } },
    ]);
    const outside = runAudit(work, [join(work, 'jobs.json'), '--format', 'sarif'], { from: REPO });
    const uri = JSON.parse(outside.stdout).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;
    expect(uri).toBe(pathToFileURL(join(work, 'jobs.json')).href);
  });

  it("reports the checks the audit's limits cut short as notifications, and stays valid", () => {
    const log = toSarif({
      audit: auditWith({
        skipped: [{ check: 'pair-forecasts', checked: 200, skipped: 10, note: 'forecast 200 of 210' }],
      }),
      manifestUri: 'jobs.yaml',
      jobPositions: new Map(),
      docsUri: 'file:///docs/jobs-audit.md',
    });
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect((log as { runs: { invocations: unknown[] }[] }).runs[0]?.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          { level: 'warning', descriptor: { id: 'pair-forecasts' }, message: { text: 'forecast 200 of 210.' } },
        ],
      },
    ]);
  });

  it('the schema check refuses what SARIF does not allow (a level it lacks, a relative help URI)', () => {
    const log = JSON.parse(report('sarif').text);
    log.runs[0].results[0].level = 'fatal';
    log.runs[0].tool.driver.rules[0].helpUri = 'docs/jobs-audit.md#rule';
    const paths = sarifSchemaErrors(log).map((e) => e.instancePath);
    expect(paths).toContain('/runs/0/results/0/level');
    expect(paths).toContain('/runs/0/tool/driver/rules/0/helpUri');
  });

  it("passes the SARIF Multitool's validation with no error and no warning", () => {
    report('sarif');
    expect(multitoolProblems(join(work, 'report.sarif'), join(work, 'multitool.sarif'))).toEqual([]);
  }, 180_000);
});

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** The document as a tree, read by saxes (XML 1.0 well-formedness enforced: any error throws). */
function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const open = [root];
  parser.on('opentag', (tag) => {
    const element = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' };
    open.at(-1)?.children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => open.pop());
  parser.on('text', (t) => {
    const current = open.at(-1);
    if (current) current.text += t;
  });
  parser.on('error', (e) => {
    throw e;
  });
  parser.write(xml).close();
  const [top] = root.children;
  if (!top || root.children.length !== 1) throw new Error('not one root element');
  return top;
}

const child = (e: XmlElement | undefined, name: string) => e?.children.find((c) => c.name === name);

describe('JUnit', () => {
  it('one suite per job, one case per rule: errors fail, warnings pass with the finding, unread rules skip', () => {
    const { run, text, audit } = report('junit');
    expect(run.status).toBe(1);
    const doc = parseXml(text);
    expect(doc.name).toBe('testsuites');
    const suites = doc.children.filter((c) => c.name === 'testsuite');
    expect(suites.map((s) => s.attributes.name)).toEqual(['vendor1-tips', 'vendor2-tips', 'daily-append', 'lost']);
    for (const s of suites) {
      const cases = s.children.filter((c) => c.name === 'testcase');
      expect(cases.map((c) => c.attributes.name)).toEqual(RULES);
      expect(cases.every((c) => c.attributes.classname === s.attributes.name)).toBe(true);
      expect(Number(s.attributes.tests)).toBe(cases.length);
      expect(Number(s.attributes.failures)).toBe(cases.filter((c) => child(c, 'failure')).length);
      expect(Number(s.attributes.skipped)).toBe(cases.filter((c) => child(c, 'skipped')).length);
    }
    const testCase = (job: string, rule: string) =>
      suites.find((s) => s.attributes.name === job)?.children.find((c) => c.attributes.name === rule);

    // Every (job, rule) pair with an error finding fails, and nothing else does.
    const errors = new Set(
      audit.findings.filter((f) => f.severity === 'error').flatMap((f) => f.jobs.map((j) => `${j} ${f.rule}`)),
    );
    const failed = suites.flatMap((s) =>
      s.children.filter((c) => child(c, 'failure')).map((c) => `${s.attributes.name} ${c.attributes.name}`),
    );
    expect(new Set(failed)).toEqual(errors);
    expect(failed).toContain('daily-append check-then-append');
    expect(failed).toContain('lost table-unreadable');
    expect(Number(doc.attributes.failures)).toBe(errors.size);

    const checkThenAppend = child(testCase('daily-append', 'check-then-append'), 'failure');
    expect(checkThenAppend?.attributes.type).toBe('error');
    expect(checkThenAppend?.text).toMatch(/^daily-append reads the table to decide whether to append/);
    expect(checkThenAppend?.text).toMatch(/\nfix: overwrite with a predicate/);

    // vendor2-tips turns commit retries off: a warning, so the case passes and says why.
    const retriesOff = testCase('vendor2-tips', 'commit-retries-off');
    expect(child(retriesOff, 'failure')).toBeUndefined();
    expect(child(retriesOff, 'system-out')?.text).toMatch(/^WARNING: vendor2-tips sets max_commit_retries = 0/);
    expect(child(child(retriesOff, 'properties'), 'property')?.attributes).toEqual({
      name: 'severity',
      value: 'warning',
    });

    // The unreadable table's job: the rules that read a table did not run, and say so.
    for (const rule of RULES.filter((r) => RULE_HELP[r]?.reads === 'table' && r !== 'table-unreadable')) {
      expect(child(testCase('lost', rule), 'skipped')?.attributes.message).toBe(
        'not checked: the table could not be read',
      );
    }
    // A readable table's jobs are checked by those rules: vendor1-tips shares its file with vendor2-tips.
    expect(testCase('vendor1-tips', 'predicates-share-files')?.children.map((c) => c.name)).toEqual([
      'properties',
      'system-out',
    ]);
  });

  it('stays well-formed whatever the manifest names hold, and lists what the limits cut short as skipped', () => {
    const odd = 'a<b>&"c"\u0001\uD800';
    const xml = toJunit(
      auditWith({
        findings: [{ rule: 'no-vacuum', severity: 'info', jobs: [odd], table: 't', evidence: `x\u0007y`, fix: 'z' }],
        skipped: [{ check: 'shared-files', checked: 200, skipped: 5, note: 'compared 200 of 205' }],
      }),
      [odd],
    );
    const suites = parseXml(xml).children;
    expect(suites.map((s) => s.attributes.name)).toEqual(['a<b>&"c"\uFFFD\uFFFD', 'audit limits']);
    expect(
      child(
        suites[0]?.children.find((c) => c.attributes.name === 'no-vacuum'),
        'system-out',
      )?.text,
    ).toMatch(/^INFO: x\uFFFDy\nfix: z/);
    expect(suites[1]?.children.map((c) => [c.attributes.name, child(c, 'skipped')?.attributes.message])).toEqual([
      ['shared-files', 'compared 200 of 205'],
    ]);
  });
});

describe('the rules described', () => {
  const docs = readFileSync(join(REPO, 'docs/jobs-audit.md'), 'utf8');

  // The code audit's rules share the jobs audit's ids where they fit, and its anchors with them.
  const ALL_RULES = new Set([...RULES, ...Object.keys(CODE_RULE_HELP)]);

  it('are the rules of the docs tables, each with the anchor its helpUri names', () => {
    const documented = [...docs.matchAll(/^\| <a id="([a-z-]+)"><\/a>`\1` \|/gm)].map((m) => m[1]);
    expect(documented.length).toBe(new Set(documented).size);
    expect(new Set(documented)).toEqual(ALL_RULES);
  });

  it('cover every rule the audit raises', () => {
    const src = join(REPO, 'packages/lab/src/audit');
    // The history audit's rules are its own (formats/history-rule-help.ts, held to them by history-findings.test.ts).
    const raised = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.startsWith('history/'))
      .flatMap((f) => [...readFileSync(join(src, f), 'utf8').matchAll(/\brule: ([^,\n]+)/g)])
      .flatMap((m) => [...(m[1] ?? '').matchAll(/'([a-z]+(?:-[a-z]+)+)'/g)].map((x) => x[1]));
    expect(raised.length).toBeGreaterThan(10);
    expect(raised.filter((r) => r !== undefined && !ALL_RULES.has(r))).toEqual([]);
  });
});

function auditWith(parts: Partial<JobAudit>): JobAudit {
  return { findings: [], pairs: [], failed: false, skipped: [], ...parts };
}
