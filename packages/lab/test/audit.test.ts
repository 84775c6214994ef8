/**
 * The jobs audit: each rule with a manifest that must trigger it and one that must not, the file
 * overlaps and partition advice read from a real table, and forecasts for the lesson's pairs that
 * agree with what the lab measures when it races the same pairs on the same tables.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { auditJobs, type Job, MAX_PAIR_FORECASTS, MAX_SCHEDULE_RUNS, manifestFindings } from '../src/audit/index';
import { auditBudgets, MAX_SHARED_FILE_PAIRS } from '../src/audit/limits';
import { customCase, type LocationConfig, runLab } from '../src/index';

const work = join(tmpdir(), `racelab-audit-test-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));
const cfg: LocationConfig = { roots: [join(work, 'tables')], workDir: work };

const job = (name: string, fields: Partial<Job> = {}): Job => ({
  name,
  table: 'lab:flat@0.01',
  engine: 'delta-rs 1.6.6',
  operation: 'update',
  predicate: 'VendorID = 1',
  onCommitFailed: 'redo-whole-change',
  ...fields,
});
const rules = (jobs: Job[]) => manifestFindings(jobs).map((f) => f.rule);
const vacuum = job('vacuum', { operation: 'vacuum', predicate: undefined });

describe('rules over the manifest alone', () => {
  it('isolation-not-parsed: capital-W on delta-rs and Serializable-only Spark DDL, not camelCase on delta-rs', () => {
    const capital = job('a', { tableProperties: { 'delta.isolationLevel': 'WriteSerializable' } });
    const f = manifestFindings([capital]).find((x) => x.rule === 'isolation-not-parsed');
    expect(f).toMatchObject({ severity: 'error', jobs: ['a'] });
    expect(f?.fix).toBe("set delta.isolationLevel = 'writeSerializable' for delta-rs 1.2–1.6.x");
    const spark = job('s', {
      engine: 'Delta Spark 3.2',
      tableProperties: { 'delta.isolationLevel': 'WriteSerializable' },
    });
    expect(rules([spark])).toContain('isolation-not-parsed');
    expect(rules([job('c', { tableProperties: { 'delta.isolationLevel': 'writeSerializable' } })])).not.toContain(
      'isolation-not-parsed',
    );
  });

  it('isolation-differs-across-engines: one value read as two levels by two writers of a table', () => {
    const value = { 'delta.isolationLevel': 'WriteSerializable' };
    const found = manifestFindings([
      job('rs', { tableProperties: value }),
      job('spark', { engine: 'Delta Spark 3.2', tableProperties: value }),
    ]).find((f) => f.rule === 'isolation-differs-across-engines');
    expect(found?.evidence).toBe("'WriteSerializable' means Serializable for rs; WriteSerializable for spark");
    expect(rules([job('rs', { tableProperties: { 'delta.isolationLevel': 'serializable' } })])).not.toContain(
      'isolation-differs-across-engines',
    );
  });

  it('commit-metadata-isolation: isolationLevel in commit properties is only recorded', () => {
    expect(rules([job('a', { commitProperties: { isolationLevel: 'Serializable' } })])).toContain(
      'commit-metadata-isolation',
    );
    expect(rules([job('a', { commitProperties: { maxCommitRetries: 15 } })])).not.toContain(
      'commit-metadata-isolation',
    );
  });

  it('no-redo-on-conflict: an update that fails or re-commits when it loses to another writer', () => {
    const other = job('other', { predicate: 'VendorID = 2' });
    const f = manifestFindings([job('a', { onCommitFailed: 'retry-commit' }), other]).find(
      (x) => x.rule === 'no-redo-on-conflict',
    );
    expect(f).toMatchObject({ severity: 'error', jobs: ['a', 'other'] });
    expect(rules([job('a', { onCommitFailed: 'fail' }), other])).toContain('no-redo-on-conflict');
    expect(rules([job('a'), other])).not.toContain('no-redo-on-conflict');
    expect(rules([job('alone', { onCommitFailed: 'fail' })])).not.toContain('no-redo-on-conflict');
  });

  it('commit-retries-off: max_commit_retries 0 on a shared table only', () => {
    const off = job('a', { operation: 'append', predicate: undefined, commitProperties: { maxCommitRetries: 0 } });
    expect(rules([off, job('b')])).toContain('commit-retries-off');
    expect(rules([off])).not.toContain('commit-retries-off');
  });

  it('check-then-append (E1), with the fix', () => {
    const e1 = job('e1', { operation: 'append', predicate: undefined, checksTableBeforeAppend: true });
    expect(manifestFindings([e1]).find((f) => f.rule === 'check-then-append')?.fix).toMatch(
      /overwrite with a predicate/,
    );
    expect(rules([job('plain', { operation: 'append', predicate: undefined })])).not.toContain('check-then-append');
  });

  it('blind-append-reads: the flag on a job that reads the table', () => {
    expect(rules([job('u', { commitProperties: { isBlindAppend: true } })])).toContain('blind-append-reads');
    const pure = job('p', { operation: 'append', predicate: undefined, commitProperties: { isBlindAppend: true } });
    expect(rules([pure])).not.toContain('blind-append-reads');
  });

  it('compaction-overlaps-rewrites: from cron schedules and durations', () => {
    const compact = job('compact', {
      operation: 'optimize',
      predicate: undefined,
      schedule: { cron: '0 2 * * *', maxDurationMinutes: 60 },
    });
    const nightly = job('nightly', { schedule: { cron: '30 2 * * *', maxDurationMinutes: 20 } });
    const morning = job('morning', { schedule: { cron: '0 6 * * *', maxDurationMinutes: 20 } });
    expect(manifestFindings([compact, nightly]).find((f) => f.rule === 'compaction-overlaps-rewrites')?.jobs).toEqual([
      'compact',
      'nightly',
    ]);
    expect(rules([compact, morning])).not.toContain('compaction-overlaps-rewrites');
  });

  it('no-vacuum: two writers and no vacuum job', () => {
    expect(rules([job('a'), job('b')])).toContain('no-vacuum');
    expect(rules([job('a'), job('b'), vacuum])).not.toContain('no-vacuum');
  });
});

describe('from the tables', () => {
  it('predicates-share-files names the files, and the column that would keep them apart', async () => {
    const audit = await auditJobs({ jobs: [job('v1'), job('v2', { predicate: 'VendorID = 2' }), vacuum] }, cfg);
    const shared = audit.findings.find((f) => f.rule === 'predicates-share-files');
    expect(shared?.evidence).toMatch(/both match rows in 9 of 9 files at version 0 \(part-/);
    expect(shared?.fix).toMatch(/^partition the table by VendorID \(4 values\)/);
    const apart = await auditJobs(
      {
        jobs: [
          job('v1', { table: 'lab:partitioned@0.01' }),
          job('v2', { table: 'lab:partitioned@0.01', predicate: 'VendorID = 2' }),
          { ...vacuum, table: 'lab:partitioned@0.01' },
        ],
      },
      cfg,
    );
    expect(apart.findings.map((f) => f.rule)).not.toContain('predicates-share-files');
  }, 300_000);

  it('a table that cannot be resolved is an error finding, and fails the audit', async () => {
    const audit = await auditJobs({ jobs: [job('x', { table: '../escape' })] }, cfg);
    expect(audit.failed).toBe(true);
    expect(audit.findings[0]).toMatchObject({ rule: 'table-unreadable', jobs: ['x'] });
  });

  it('a folder that is not a Delta table is an error finding naming it as written, not the server path', async () => {
    // Opening it used to throw the engine's error, whose message holds the resolved absolute path.
    const audit = await auditJobs({ jobs: [job('a', { table: 'team/none' }), job('b', { table: 'team/none' })] }, cfg);
    expect(audit.findings.find((f) => f.rule === 'table-unreadable')).toMatchObject({
      jobs: ['a', 'b'],
      evidence: 'team/none is not a Delta table (no commits)',
    });
    expect(JSON.stringify(audit)).not.toContain(work);
  });
});

describe('bounded pairwise work', () => {
  const vendors = [1, 2, 6, 7];
  /** 500 jobs on one table (the manifest's limit): 249,500 ordered pairs, 124,750 unordered. */
  const many = (make: (i: number) => Partial<Job>) =>
    Array.from({ length: 500 }, (_, i) => job(`j${i}`, { predicate: `VendorID = ${vendors[i % 4]}`, ...make(i) }));

  it('compares schedules within a budget of runs walked, counted before each pair, and says what it skipped', () => {
    // The worst schedules a manifest may hold: every minute, lasting the whole week (40,320 runs a pair).
    const schedule = { cron: '* * * * *', maxDurationMinutes: 10_080 };
    const jobs = many((i) => ({ schedule, ...(i % 2 === 0 && { operation: 'optimize', predicate: undefined }) }));
    const budgets = auditBudgets();
    const overlapping = manifestFindings(jobs, budgets).filter((f) => f.rule === 'compaction-overlaps-rewrites');
    expect(budgets.schedules.used).toBeLessThanOrEqual(MAX_SCHEDULE_RUNS);
    expect(overlapping).toHaveLength(Math.floor(MAX_SCHEDULE_RUNS / 40_320));
    expect(budgets.schedules.skippedWork()).toEqual({
      check: 'schedule-overlaps',
      checked: 49,
      skipped: 250 * 250 - 49,
      note: 'compared the schedules of 49 of 62,500 compaction and rewrite pairs on one table (at most 2,000,000 runs walked per audit); the 62,451 after them were left out (tables with fewer jobs first, then jobs in manifest order)',
    });
  });

  it(`forecasts at most ${MAX_PAIR_FORECASTS} pairs of 500 jobs on one table, smaller tables first, and notes the rest`, async () => {
    const small = ['small-1', 'small-2'].map((name) => job(name, { table: 'lab:partitioned@0.01' }));
    const audit = await auditJobs({ jobs: [...many(() => ({})), ...small] }, cfg);
    expect(audit.pairs).toHaveLength(MAX_PAIR_FORECASTS);
    expect(audit.pairs.every((p) => p.secondCommits !== null)).toBe(true);
    // The small table first, then both orders of a pair together, every pair of the first jobs before a later job's.
    expect(audit.pairs.slice(0, 6).map((p) => `${p.first}>${p.second}`)).toEqual([
      'small-1>small-2',
      'small-2>small-1',
      'j0>j1',
      'j1>j0',
      'j0>j2',
      'j2>j0',
    ]);
    expect(audit.skipped).toEqual([
      {
        check: 'shared-files',
        checked: MAX_SHARED_FILE_PAIRS,
        skipped: 124_751 - MAX_SHARED_FILE_PAIRS,
        note: 'compared the files of 200 of 124,751 pairs of jobs with predicates on one table (at most 200 pairs per audit); the 124,551 after them were left out (tables with fewer jobs first, then jobs in manifest order)',
      },
      {
        check: 'pair-forecasts',
        checked: MAX_PAIR_FORECASTS,
        skipped: 249_502 - MAX_PAIR_FORECASTS,
        note: 'forecast 200 of 249,502 ordered pairs of jobs on one table (at most 200 forecasts per audit); the 249,302 after them were left out (tables with fewer jobs first, then jobs in manifest order)',
      },
    ]);
    expect(audit.findings.filter((f) => f.rule === 'predicates-share-files').length).toBeLessThanOrEqual(
      MAX_SHARED_FILE_PAIRS,
    );
  }, 300_000);

  it('checks everything of a small manifest and says nothing was skipped', async () => {
    const audit = await auditJobs({ jobs: [job('v1'), job('v2', { predicate: 'VendorID = 2' })] }, cfg);
    expect(audit.pairs).toHaveLength(2);
    expect(audit.skipped).toEqual([]);
  }, 300_000);
});

describe('the pair forecasts read the jobs as written', () => {
  it('a job with max_commit_retries 0 loses to any commit before its own, an append included (lesson A2)', async () => {
    const append = (name: string, commitProperties?: Job['commitProperties']) =>
      job(name, { operation: 'append', predicate: undefined, ...(commitProperties && { commitProperties }) });
    const audit = await auditJobs({ jobs: [append('a'), append('b', { maxCommitRetries: 0 })] }, cfg);
    const table = 'lab:flat@0.01';
    expect(audit.pairs).toEqual([
      {
        table,
        first: 'a',
        second: 'b',
        secondCommits: false,
        failedCheck: null,
        message: 'Failed to commit transaction: 0',
      },
      { table, first: 'b', second: 'a', secondCommits: true, failedCheck: null, message: null },
    ]);
  }, 300_000);
});

describe('forecasts agree with the lab', () => {
  /** What the lab measures when `second` starts only after `first` committed, on the same base table. */
  async function measured(table: 'flat' | 'partitioned', first: Job, second: Job): Promise<boolean> {
    const writer = (j: Job, after?: string) => ({
      name: j.name,
      operation: j.operation === 'optimize' ? 'optimize' : j.operation,
      ...(j.operation !== 'optimize' && { predicate: j.predicate }),
      ...(j.operation === 'update' && { set: { tip_amount: 'tip_amount + 1' } }),
      ...(after && { startAfter: after }),
    });
    const c = customCase({ table, writers: [writer(first), writer(second, first.name)] });
    const results = await runLab({ cases: [c], runs: 1, scale: 0.01, workDir: work });
    return results.cases[0]?.runs[0]?.writers.find((w) => w.name === second.name)?.committed ?? false;
  }

  const pairs: [string, 'flat' | 'partitioned', Job, Job][] = [
    ['B1', 'flat', job('vendor1'), job('vendor2', { predicate: 'VendorID = 2' })],
    ['B3', 'partitioned', job('vendor1'), job('vendor2', { predicate: 'VendorID = 2' })],
    ['D1 6→7', 'flat', job('vendor6', { predicate: 'VendorID = 6' }), job('vendor7', { predicate: 'VendorID = 7' })],
    ['D1 7→6', 'flat', job('vendor7', { predicate: 'VendorID = 7' }), job('vendor6', { predicate: 'VendorID = 6' })],
    [
      'C2',
      'flat',
      job('compact', { operation: 'optimize', predicate: undefined }),
      job('vendor2', { predicate: 'VendorID = 2' }),
    ],
    [
      'C3',
      'flat',
      job('vendor2', { predicate: 'VendorID = 2' }),
      job('compact', { operation: 'optimize', predicate: undefined }),
    ],
  ];
  for (const [name, table, first, second] of pairs) {
    it(`${name}: the forecast for ${first.name} then ${second.name} is what the race measures`, async () => {
      const location = `lab:${table}@0.01`;
      const audit = await auditJobs(
        {
          jobs: [
            { ...first, table: location },
            { ...second, table: location },
          ],
        },
        cfg,
      );
      const forecast = audit.pairs.find((p) => p.first === first.name && p.second === second.name);
      expect(forecast?.secondCommits).toBe(await measured(table, first, second));
    }, 300_000);
  }
});

describe('the example manifest in docs/', () => {
  it('triggers every finding, and fails the audit', async () => {
    const { readManifest } = await import('../src/audit/manifest');
    const manifest = await readManifest(join(import.meta.dirname, '../../../docs/jobs-manifest.example.yaml'));
    const audit = await auditJobs(manifest, cfg);
    expect(new Set(audit.findings.map((f) => f.rule))).toEqual(
      new Set([
        'isolation-not-parsed',
        'isolation-differs-across-engines',
        'commit-metadata-isolation',
        'no-redo-on-conflict',
        'commit-retries-off',
        'check-then-append',
        'blind-append-reads',
        'predicates-share-files',
        'compaction-overlaps-rewrites',
        'no-vacuum',
      ]),
    );
    expect(audit.failed).toBe(true);
    // Every ordered pair of the 4 jobs, forecast from the table's data.
    expect(audit.pairs).toHaveLength(12);
    expect(audit.pairs.find((p) => p.first === 'vendor1-tips' && p.second === 'vendor2-tips')?.secondCommits).toBe(
      false,
    );
  }, 300_000);
});

describe('npm run audit', () => {
  const run = (args: string[]) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../src/cli/audit.ts', import.meta.url)), ...args],
      {
        encoding: 'utf8',
        env: { ...process.env, LAB_WORK_DIR: work },
        timeout: 120_000,
      },
    );

  it('prints the findings and the pairwise forecast and exits 1 on an error finding (a CI gate)', () => {
    const r = run([
      join(import.meta.dirname, '../../../docs/jobs-manifest.example.yaml'),
      '--json',
      join(work, 'audit.json'),
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^4 jobs, 12 findings$/m);
    expect(r.stdout).toMatch(/^ERROR {3}check-then-append {2}\[daily-append\] {2}lab:flat@0\.01$/m);
    expect(r.stdout).toMatch(/^ {2}vendor1-tips → vendor2-tips: fails: concurrentAppend$/m);
    expect(JSON.parse(readFileSync(join(work, 'audit.json'), 'utf8')).failed).toBe(true);
  });

  it('exits 0 without an error finding, and 2 with every problem of an unusable manifest', () => {
    const fine = join(work, 'fine.json');
    writeFileSync(fine, JSON.stringify({ jobs: [job('solo', { operation: 'delete' })] }));
    expect(run([fine]).status).toBe(0);
    const bad = join(work, 'bad.yaml');
    writeFileSync(bad, 'jobs:\n  - name: a\n    operation: upsert\n');
    const r = run([bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("  - job 'a': table is required");
    expect(r.stderr).toContain("  - job 'a': operation must be one of");
  });
});
