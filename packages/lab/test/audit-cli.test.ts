/**
 * `npm run audit` as a CI runs it: one exit code per outcome (0 no error finding, 1 error findings,
 * 2 an unusable manifest or bad flags, 3 the audit itself failed), each through the root package's
 * script, and never a stack trace or an "npm error" line, on stdout or stderr.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AuditRun, runAudit, writeTripsTable } from './helpers/audit-cli';
import { tempDir } from './helpers/small-base';

const work = tempDir('audit-cli');

const job = (name: string, fields: string) =>
  `  - { name: ${name}, table: trips, engine: delta-rs 1.6.6, operation: ${fields} }`;
const manifest = (file: string, ...jobs: string[]) => {
  const path = join(work, file);
  writeFileSync(path, ['jobs:', ...jobs, ''].join('\n'));
  return path;
};

beforeAll(() => writeTripsTable(work));

const npmRun = (args: string[]) => runAudit(work, args, { npm: true });

/** Neither stream holds a stack frame, a Node error dump or a line of npm's own. */
function expectNoNoise(r: AuditRun) {
  for (const out of [r.stdout, r.stderr]) {
    expect(out).not.toMatch(/^\s+at .+(:\d+:\d+\)?|\(node:.+\))$/m);
    expect(out).not.toMatch(/^node:internal|^npm (error|ERR!|warn)/m);
  }
}

describe('exit codes through npm run audit', () => {
  it('0: no error finding', () => {
    const r = npmRun([manifest('fine.yaml', job('solo', 'delete, predicate: VendorID = 1'))]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^1 job, 0 findings$/m);
    expect(r.stderr).toBe('');
    expectNoNoise(r);
  });

  it('1: an error finding, with the findings on stdout and nothing from npm after them', () => {
    const r = npmRun([manifest('errors.yaml', job('daily', 'append, checksTableBeforeAppend: true'))]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^ERROR {3}check-then-append {2}\[daily\] {2}trips$/m);
    expect(r.stderr).toBe('');
    expectNoNoise(r);
  });

  it('2: a manifest that cannot be used, every problem listed', () => {
    const bad = manifest('bad.yaml', '  - { name: a, operation: upsert }');
    const r = npmRun([bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}: the manifest is not usable:\n`);
    expect(r.stderr).toContain("  - job 'a': table is required");
    expect(r.stderr).toContain("  - job 'a': operation must be one of");
    expectNoNoise(r);
    const missing = npmRun([join(work, 'no-such.yaml')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([
      `${join(work, 'no-such.yaml')}: the manifest is not usable:`,
      '  - cannot read the file: no such file',
    ]);
    expectNoNoise(missing);
  });

  it('2: bad flags, one line each, before any audit runs', () => {
    const fine = manifest('flags.yaml', job('solo', 'delete, predicate: VendorID = 1'));
    const cases: [string[], string][] = [
      [[fine, '--format', 'xml'], "audit: --format must be one of text, sarif, junit, got 'xml'"],
      [[fine, '--colour'], 'audit: unknown option --colour'],
      [[fine, '--out'], 'audit: --out needs a value'],
      [[fine, '--out', join(work, 'nowhere', 'report.sarif')], `audit: --out: no folder ${join(work, 'nowhere')}`],
      [[], 'audit: usage: npm run audit -- FILE [--format text|sarif|junit] [--out REPORT] [--json FILE|-]'],
    ];
    for (const [args, line] of cases) {
      const r = npmRun(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr.trim()).toContain(line);
      expectNoNoise(r);
    }
  });

  it('3: the audit itself failed (its report cannot be written: a full disk), in one line', () => {
    const fine = manifest('full.yaml', job('solo', 'delete, predicate: VendorID = 1'));
    const r = npmRun([fine, '--format', 'sarif', '--out', '/dev/full']);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toEqual([
      'audit: the audit failed: Error: ENOSPC: no space left on device, write',
    ]);
    expectNoNoise(r);
  });
});

describe('the report on stdout', () => {
  it('with npm --silent, stdout is the report alone (SARIF here), ready to redirect', () => {
    const fine = manifest('silent.yaml', job('solo', 'delete, predicate: VendorID = 1'));
    const r = runAudit(work, [fine, '--format', 'sarif'], { npm: true, silent: true });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ version: '2.1.0', runs: [{ results: [] }] });
  });
});
