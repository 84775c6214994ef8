/**
 * The code audit's reports and command. SARIF 2.1.0 from judged settings (every rule's kind of place: a value's
 * region, a related place, a file's problem without an end) validated against the schema and by the SARIF
 * Multitool, each result at its file relative to SRCROOT and its line and columns; JUnit read by a conforming XML
 * parser; text grouped by file. `npm run audit -- code` on the project's corpus: SARIF that validates, JSON that
 * follows contracts/code-audit.schema.json, the exit code its findings call for; bad flags and a missing PATH exit 2,
 * and so does a manifest job whose code is not there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { judge } from '../src/audit/code/judge';
import type { CodeAudit, CodeSetting } from '../src/audit/code/setting';
import { toCodeJunit } from '../src/audit/formats/code-junit';
import { CODE_RULE_HELP } from '../src/audit/formats/code-rule-help';
import { toCodeSarif } from '../src/audit/formats/code-sarif';
import { toCodeText } from '../src/audit/formats/code-text';
import { REPO, runAudit } from './helpers/audit-cli';
import { multitoolProblems, sarifSchemaErrors } from './helpers/sarif';
import { tempDir } from './helpers/small-base';

const work = tempDir('code-audit-formats');
const CORPUS = join(import.meta.dirname, 'fixtures', 'code-corpus', 'mixed');

const base: CodeSetting = {
  file: 'jobs/load trips.py',
  line: 10,
  column: 79,
  endColumn: 98,
  key: 'delta.isolationLevel',
  value: 'WriteSerializable',
  raw: "'WriteSerializable'",
  constant: true,
  kind: 'table-property',
  via: 'spark.sql: ALTER TABLE … SET TBLPROPERTIES',
  language: 'sql',
  table: 'lake.trips',
  writer: 'delta-rs',
};

/** An audit with an error, a warning with a related place, a note without an end column, and a skipped file. */
function sample(): CodeAudit {
  const settings: CodeSetting[] = [
    base,
    { ...base, file: 'ddl/trips.sql', line: 10, column: 28, endColumn: 42, value: 'Serializable', writer: 'spark' },
    { ...base, line: 12, key: 'max_commit_retries', kind: 'commit-retries', value: '0', raw: '0', endColumn: 80 },
  ];
  const findings = judge(settings, [
    { file: 'models/x.sql', line: 3, column: 5, message: "no viable alternative at 'FROM'" },
  ]);
  return {
    settings,
    findings,
    files: { scanned: 4, skipped: [{ file: 'big.sql', reason: '2.5 MB: larger than 2 MB' }], unparseable: [] },
    failed: findings.some((f) => f.severity === 'error'),
  };
}

interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId?: string };
    region: { startLine: number; startColumn: number; endColumn?: number };
  };
}

describe('SARIF', () => {
  const docsUri = 'file:///repo/docs/jobs-audit.md';

  it('validates, each result at its file, line and columns, related places listed, every code rule described', () => {
    const audit = sample();
    const log = toCodeSarif({ audit, docsUri, rootUri: 'file:///repo/' }) as {
      runs: {
        tool: { driver: { rules: { id: string; helpUri: string }[] } };
        originalUriBaseIds: { SRCROOT: { uri: string } };
        results: { ruleId: string; level: string; locations: SarifLocation[]; relatedLocations?: SarifLocation[] }[];
      }[];
    };
    expect(sarifSchemaErrors(log)).toEqual([]);
    const [run] = log.runs;
    expect(run?.tool.driver.rules.map((r) => r.id)).toEqual(Object.keys(CODE_RULE_HELP));
    expect(run?.tool.driver.rules[0]?.helpUri).toBe(`${docsUri}#isolation-not-parsed`);
    expect(run?.originalUriBaseIds.SRCROOT.uri).toBe('file:///repo/');
    expect(run?.results.map((r) => [r.ruleId, r.level])).toEqual(audit.findings.map((f) => [f.rule, f.severity]));
    const misread = run?.results.find((r) => r.ruleId === 'isolation-not-parsed');
    expect(misread?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'jobs/load%20trips.py', uriBaseId: 'SRCROOT' },
      region: { startLine: 10, startColumn: 79, endColumn: 98 },
    });
    const twice = run?.results.find((r) => r.ruleId === 'table-set-differently');
    expect(twice?.locations[0]?.physicalLocation.artifactLocation.uri).toBe('ddl/trips.sql');
    expect(twice?.relatedLocations?.map((l) => l.physicalLocation.region.startLine)).toEqual([10]);
    const note = run?.results.find((r) => r.ruleId === 'file-unparseable');
    expect(note?.locations[0]?.physicalLocation.region).toEqual({ startLine: 3, startColumn: 5 });
  });

  it("passes the SARIF Multitool's validation with no error and no warning", () => {
    const path = join(work, 'code.sarif');
    writeFileSync(path, JSON.stringify(toCodeSarif({ audit: sample(), docsUri, rootUri: 'file:///repo/' })));
    expect(multitoolProblems(path, join(work, 'code-check.sarif'))).toEqual([]);
  }, 180_000);
});

describe('the code rules', () => {
  it('every rule the judge can raise has its help, and an anchor in docs/jobs-audit.md', () => {
    const judge = readFileSync(join(REPO, 'packages/lab/src/audit/code/judge.ts'), 'utf8');
    const raised = [...judge.matchAll(/(?:finding\(\s*\w+,\s*|rule: )'([a-z]+(?:-[a-z]+)+)'/g)].map((m) => m[1]);
    expect(new Set(raised).size).toBeGreaterThanOrEqual(9);
    expect(raised.filter((r) => r === undefined || !(r in CODE_RULE_HELP))).toEqual([]);
    const docs = readFileSync(join(REPO, 'docs/jobs-audit.md'), 'utf8');
    for (const rule of Object.keys(CODE_RULE_HELP)) expect(docs, rule).toContain(`<a id="${rule}"></a>`);
  });
});

describe('JUnit and text', () => {
  it('one suite per file, one case per rule; errors fail; files not read are skipped', () => {
    const xml = toCodeJunit(sample());
    const suites: { name: string; failures: string; skipped: string }[] = [];
    const parser = new SaxesParser();
    parser.on('opentag', (t) => {
      if (t.name === 'testsuite') suites.push(t.attributes as unknown as (typeof suites)[number]);
    });
    parser.on('error', (e) => {
      throw e;
    });
    parser.write(xml).close();
    expect(suites.map((s) => [s.name, s.failures, s.skipped])).toEqual([
      ['ddl/trips.sql', '0', '0'],
      ['jobs/load trips.py', '1', '0'],
      ['models/x.sql', '0', '0'],
      ['files not read', '0', '1'],
    ]);
  });

  it('groups by file, each finding as file:line:col rule severity', () => {
    const text = toCodeText(sample());
    expect(text).toMatch(/^4 files read, 3 settings, \d+ findings \(1 error\)$/m);
    expect(text).toContain('\njobs/load trips.py\n');
    expect(text).toMatch(/^ {2}jobs\/load trips\.py:10:79 isolation-not-parsed error: /m);
    expect(text).toMatch(/^ {2}jobs\/load trips\.py:12:79 commit-retries-off warning: /m);
    expect(text).toContain('  big.sql: 2.5 MB: larger than 2 MB');
  });
});

describe('npm run audit -- code', () => {
  const contract = new Ajv2020({ strict: false }).compile(
    JSON.parse(readFileSync(join(REPO, 'contracts', 'code-audit.schema.json'), 'utf8')),
  );

  it.each([
    ['the whole corpus', join(import.meta.dirname, 'fixtures', 'code-corpus'), 60],
    ["the repository's own example", join(REPO, 'docs', 'examples', 'code'), 4],
  ])(
    'on %s: SARIF that validates, JSON that follows the contract, the exit code its findings call for',
    (name, path, files) => {
      const out = join(work, `${files}.sarif`);
      const json = join(work, `${files}.json`);
      const run = runAudit(work, ['code', path, '--format', 'sarif', '--out', out, '--json', json]);
      const audit = JSON.parse(readFileSync(json, 'utf8')) as CodeAudit;
      expect(contract(audit), JSON.stringify(contract.errors)).toBe(true);
      expect(run.status, run.stderr).toBe(audit.failed ? 1 : 0);
      expect(run.stdout).toMatch(/^\d+ files read, \d+ settings?, \d+ findings?/);
      expect(audit.files.scanned, name).toBeGreaterThanOrEqual(files);
      const log = JSON.parse(readFileSync(out, 'utf8'));
      expect(sarifSchemaErrors(log)).toEqual([]);
      expect(log.runs[0].results).toHaveLength(audit.findings.length);
      expect(multitoolProblems(out, join(work, `${files}-check.sarif`))).toEqual([]);
    },
    180_000,
  );

  it("on the repository's own example: each finding at its line, the example's two isolation levels one finding", () => {
    const json = join(work, 'example.json');
    runAudit(work, ['code', join(REPO, 'docs', 'examples', 'code'), '--json', json]);
    const audit = JSON.parse(readFileSync(json, 'utf8')) as CodeAudit;
    expect(audit.findings.map((f) => `${f.at.file}:${f.at.line} ${f.rule}`).sort()).toEqual([
      'ddl/events.sql:8 table-set-differently',
      // Delta Spark's DDL may set only Serializable; Databricks takes it.
      'jobs/backfill.py:8 isolation-refused',
      'jobs/daily_append.py:18 commit-retries-off',
      'jobs/daily_append.py:9 isolation-not-parsed',
      'resources/events_job.yml:12 unknown-conf-key',
      'resources/events_job.yml:13 unknown-conf-key',
    ]);
    // The commented-out ALTER and the docstring's example are not settings.
    expect(audit.settings.filter((s) => s.file === 'ddl/events.sql').map((s) => s.line)).toEqual([8, 9]);
    expect(audit.settings.filter((s) => s.file === 'jobs/daily_append.py').map((s) => s.line)).toEqual([9, 18]);
  }, 60_000);

  it('a PATH that is not there, no PATH, a bad flag: exit 2 with one line', () => {
    const missing = runAudit(work, ['code', CORPUS, join(work, 'nowhere')]);
    expect([missing.status, missing.stderr.trim()]).toEqual([
      2,
      `audit: no such file or folder: ${join(work, 'nowhere')}`,
    ]);
    const none = runAudit(work, ['code']);
    expect([none.status, none.stderr.trim()]).toEqual([
      2,
      'audit: usage: npm run audit -- code PATH… [--format text|sarif|junit] [--out REPORT] [--json FILE|-]',
    ]);
    const flag = runAudit(work, ['code', CORPUS, '--format', 'xml']);
    expect(flag.status).toBe(2);
  });

  it('a manifest job whose code is not there: the manifest is unusable, exit 2 naming the job', () => {
    const manifest = join(work, 'jobs.yaml');
    writeFileSync(
      manifest,
      'jobs:\n  - { name: load, table: trips, engine: delta-rs 1.6.6, operation: append, code: jobs/gone.py }\n',
    );
    const run = runAudit(work, [manifest]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("job 'load': code: no such file or folder jobs/gone.py");
  });
});
