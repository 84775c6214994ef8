/**
 * The jobs audit: each rule with a manifest that must trigger it and one that must not, the file
 * overlaps and partition advice read from a real table, and forecasts for the lesson's pairs that
 * agree with what the lab measures when it races the same pairs on the same tables.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODELLED_NOT_MEASURED, SPARK_NOT_MEASURED, SPARK_RUN } from '@racelab/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import {
  auditJobs,
  type Job,
  type JobAudit,
  MAX_PAIR_FORECASTS,
  MAX_SCHEDULE_RUNS,
  manifestFindings,
} from '../src/audit/index';
import { MAX_SHARED_FILE_PAIRS } from '../src/audit/limits';
import { ManifestError } from '../src/audit/manifest';
import { customCase, type LocationConfig, runLab } from '../src/index';
import { writeTripsTable } from './helpers/audit-cli';

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
  it('commit-metadata-isolation: isolationLevel in commit properties is only recorded', () => {
    expect(rules([job('a', { commitProperties: { isolationLevel: 'Serializable' } })])).toContain(
      'commit-metadata-isolation',
    );
    expect(rules([job('a', { commitProperties: { maxCommitRetries: 15 } })])).not.toContain(
      'commit-metadata-isolation',
    );
  });

  it('no-redo-on-conflict: an update that fails or re-commits when it loses to another writer, naming it alone', () => {
    const other = job('other', { predicate: 'VendorID = 2' });
    const f = manifestFindings([job('a', { onCommitFailed: 'retry-commit' }), other]).find(
      (x) => x.rule === 'no-redo-on-conflict',
    );
    // The finding is about a's answer to losing: other is in the evidence, not among the jobs it names.
    expect(f).toMatchObject({ severity: 'error', jobs: ['a'] });
    expect(f?.evidence).toBe(
      'a (update where VendorID = 1) has onCommitFailed: retry-commit; other writes lab:flat@0.01 too, and when one of them commits first, a commits the same files again: they were computed from a version that no longer holds, and the conflict check refuses them again',
    );
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

  it('the evidence is built from the jobs at hand, never from the lesson', () => {
    const append = job('loader', {
      operation: 'append',
      predicate: undefined,
      checksTableBeforeAppend: true,
      schedule: { cron: '*/5 * * * *', maxDurationMinutes: 4 },
    });
    const other = job('other-loader', { operation: 'append', predicate: undefined });
    const found = manifestFindings([append, other, job('fix-fares', { predicate: 'fare_amount < 0' })]);
    expect(found.find((f) => f.rule === 'check-then-append')?.evidence).toBe(
      "loader reads the table to decide whether to append to lab:flat@0.01 (checksTableBeforeAppend), runs on '*/5 * * * *' for up to 4 min: two runs at once both find nothing and both append, and appends never conflict, so the rows land twice; other-loader appends to it too",
    );
    expect(found.find((f) => f.rule === 'no-vacuum')).toMatchObject({
      jobs: ['loader', 'other-loader', 'fix-fares'],
      evidence:
        'loader, other-loader, fix-fares write lab:flat@0.01 and no job of the manifest vacuums it: the files of every commit one of them loses stay on disk, named by no log entry, and so do the files each rewrite removes',
    });
    // No figure of the lesson's own runs (317,150 trips, 11 files) and no lesson label stands in for evidence.
    for (const f of found) expect(f.evidence, f.rule).not.toMatch(/lesson|317,150|11 Parquet/);
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
    expect(shared?.jobs).toEqual(['v1', 'v2']);
    expect(shared?.evidence).toMatch(
      /^v1's 'VendorID = 1' and v2's 'VendorID = 2' both match rows in 9 of 9 files of lab:flat@0\.01 at version 0 \(part-/,
    );
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

  it('a missing table is an error finding naming it as written, not the server path', async () => {
    // Opening it used to throw the engine's error, whose message holds the resolved absolute path.
    const audit = await auditJobs({ jobs: [job('a', { table: 'team/none' }), job('b', { table: 'team/none' })] }, cfg);
    expect(audit.findings.find((f) => f.rule === 'table-unreadable')).toMatchObject({
      jobs: ['a', 'b'],
      evidence:
        'team/none does not exist: no table at this location; the predicates of a, b could be checked for syntax only, not against its columns',
    });
    expect(JSON.stringify(audit)).not.toContain(work);
  });
});

describe('nothing stops the audit', () => {
  /** The Delta Spark golden tables. */
  const golden = fixture('delta-spark-golden');
  const tables = join(work, 'tables');
  // Relative locations resolve against the first root: the golden tables are named as under it.
  const both: LocationConfig = { roots: [golden, tables], workDir: work };
  const trips = join(tables, 'trips');
  const future = join(tables, 'future');
  const onTrips = [
    job('vendor1', { table: trips, onCommitFailed: 'retry-commit' }),
    job('vendor2', { table: trips, predicate: 'VendorID = 2' }),
    job('daily', { table: trips, operation: 'append', predicate: undefined, checksTableBeforeAppend: true }),
  ];

  it('audits a manifest of unreadable tables to the end: each is a table-unreadable finding, every other finding is there', async () => {
    await writeTripsTable(work);
    // A table whose log opens but whose protocol asks for a reader feature no engine here reads, named by one job.
    await writeTripsTable(join(work, 'future-base'));
    cpSync(join(work, 'future-base', 'tables', 'trips'), future, { recursive: true });
    const protocol = {
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['fancyNewThing'],
      writerFeatures: [],
    };
    writeFileSync(join(future, '_delta_log', '00000000000000000001.json'), `${JSON.stringify({ protocol })}\n`);
    const unreadable = [
      job('no-log', { table: 'no-delta-log-folder/delta', operation: 'delete', predicate: 'id = 1' }),
      job('bad-protocol', {
        table: 'deltalog-invalid-protocol-version/delta',
        operation: 'optimize',
        predicate: undefined,
      }),
      job('missing', { table: 'no-such-table', operation: 'delete', predicate: 'Vendor = 7' }),
      job('outside', { table: '/etc/racelab', operation: 'optimize', predicate: undefined }),
      job('future', { table: future, operation: 'optimize', predicate: undefined }),
    ];
    const audit = await auditJobs({ jobs: [...onTrips, ...unreadable] }, both);
    const found = audit.findings.filter((f) => f.rule === 'table-unreadable');
    const evidence = Object.fromEntries(found.map((f) => [f.jobs.join(), f.evidence]));
    expect(found.every((f) => f.severity === 'error' && f.jobs.length === 1)).toBe(true);
    expect(Object.keys(evidence)).toEqual(['no-log', 'bad-protocol', 'missing', 'outside', 'future']);
    expect(evidence['no-log']).toBe(
      'no-delta-log-folder/delta is not a Delta table: it has no _delta_log/ folder (it holds 2 Parquet files, which no log names); the predicate of no-log could be checked for syntax only, not against its columns',
    );
    // The engine's own reason, in its words; the table named as the manifest names it.
    expect(evidence['bad-protocol']).toMatch(/^deltalog-invalid-protocol-version\/delta cannot be read: \S/);
    // Its column is unknown here (the table cannot be read): the predicate is no manifest problem, and the finding says why.
    expect(evidence.missing).toBe(
      'no-such-table does not exist: no table at this location; the predicate of missing could be checked for syntax only, not against its columns',
    );
    expect(evidence.outside).toBe("'/etc/racelab' is not inside one of the 2 table roots (LAB_ROOTS)");
    expect(evidence.future).toBe(
      `${future} cannot be read: unsupported reader features required: fancyNewThing; this engine reads none of them, so it refuses rather than misread the table`,
    );
    expect(audit.failed).toBe(true);
    // No server folder the manifest did not name, and no stack.
    expect(JSON.stringify(found)).not.toContain(golden);
    expect(JSON.stringify(found)).not.toMatch(/\n\s+at /);
    // Every finding and forecast of the readable table, as an audit of its jobs alone gives them.
    const alone = await auditJobs({ jobs: onTrips }, both);
    expect(alone.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['no-redo-on-conflict', 'check-then-append', 'predicates-share-files', 'no-vacuum']),
    );
    expect(audit.findings.filter((f) => f.rule !== 'table-unreadable')).toEqual(alone.findings);
    expect(audit.pairs).toEqual(alone.pairs);
  }, 300_000);

  it('a predicate that cannot run on its open table is a manifest problem, every one at once, naming the job and field', async () => {
    const jobs = [
      ...onTrips,
      job('typo', { table: trips, predicate: 'Vendor = 2' }),
      job('text-as-number', { table: trips, operation: 'delete', predicate: "VendorID = 'two'" }),
      job('missing', { table: 'no-such-table', operation: 'delete', predicate: 'Vendor = 7' }),
    ];
    const error = await auditJobs({ jobs }, both).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).problems).toEqual([
      "job 'typo': predicate: unknown column 'Vendor' at position 1 in predicate; columns are: VendorID, tip_amount",
      expect.stringMatching(/^job 'text-as-number': predicate: /),
    ]);
  }, 300_000);
});

describe('schedules-overlap: any pair whose forecast fails, when their runs meet', () => {
  const appender = job('stream-appender', {
    operation: 'append',
    predicate: undefined,
    schedule: { cron: '*/5 * * * *', maxDurationMinutes: 4 },
  });
  const gdpr = job('gdpr-delete', {
    operation: 'delete',
    predicate: 'VendorID = 7',
    onCommitFailed: 'fail',
    schedule: { cron: '0 3 * * *', maxDurationMinutes: 30 },
  });

  it('an every-five-minutes appender against a half-hour delete the forecast fails: both named, and when', async () => {
    const audit = await auditJobs({ jobs: [appender, gdpr, vacuum] }, cfg);
    const lost = audit.pairs.find((p) => p.first === 'stream-appender' && p.second === 'gdpr-delete');
    expect(lost?.secondCommits).toBe(false);
    const found = audit.findings.filter((f) => f.rule === 'schedules-overlap');
    expect(found).toEqual([
      {
        rule: 'schedules-overlap',
        severity: 'warning',
        jobs: ['stream-appender', 'gdpr-delete'],
        table: 'lab:flat@0.01',
        evidence: expect.stringMatching(
          /^stream-appender \('\*\/5 \* \* \* \*', up to 4 min\) and gdpr-delete \('0 3 \* \* \*', up to 30 min\) can run at once, first 03:00–03:04 UTC on Monday 2026-06-01; forecast on lab:flat@0\.01: /,
        ),
        // stream-appender redoes its change (the job's default here); gdpr-delete gives up.
        fix: 'schedule stream-appender and gdpr-delete apart, or give gdpr-delete a redo loop (onCommitFailed: redo-whole-change)',
      },
    ]);
    expect(found[0]?.evidence).toContain(
      `when stream-appender commits first, gdpr-delete fails (${lost?.failedCheck})`,
    );
  }, 300_000);

  it('no finding when the runs never meet, or when both orders commit', async () => {
    // Every hour at :40 for up to 10 minutes: never during the delete's 03:00–03:30.
    const hourly = { ...appender, schedule: { cron: '40 * * * *', maxDurationMinutes: 10 } };
    const apart = await auditJobs({ jobs: [hourly, gdpr, vacuum] }, cfg);
    expect(apart.pairs.some((p) => p.secondCommits === false)).toBe(true);
    expect(apart.findings.map((f) => f.rule)).not.toContain('schedules-overlap');
    // Two appends commit in either order: their runs meet, and nothing fails.
    const other = { ...appender, name: 'second-appender' };
    const appends = await auditJobs({ jobs: [appender, other, vacuum] }, cfg);
    expect(appends.pairs.filter((p) => p.secondCommits !== null).every((p) => p.secondCommits)).toBe(true);
    expect(appends.findings.map((f) => f.rule)).not.toContain('schedules-overlap');
  }, 300_000);
});

describe('bounded pairwise work', () => {
  const vendors = [1, 2, 6, 7];
  /** 500 jobs on one table (the manifest's limit): 249,500 ordered pairs, 124,750 unordered. */
  const many = (make: (i: number) => Partial<Job>) =>
    Array.from({ length: 500 }, (_, i) => job(`j${i}`, { predicate: `VendorID = ${vendors[i % 4]}`, ...make(i) }));

  it(`forecasts at most ${MAX_PAIR_FORECASTS} pairs of 500 jobs on one table, smaller tables first, compares the schedules of the failing ones within a budget of runs, and notes the rest`, async () => {
    const small = ['small-1', 'small-2'].map((name) => job(name, { table: 'lab:partitioned@0.01' }));
    // The worst schedules a manifest may hold: every minute, lasting the whole week (40,320 runs a pair).
    const schedule = { cron: '* * * * *', maxDurationMinutes: 10_080 };
    const audit = await auditJobs({ jobs: [...many(() => ({ schedule })), ...small] }, cfg);
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
    // 99 pairs of the big table were forecast, each failing both ways (every file holds every vendor);
    // their schedules all meet, and the runs they walk stop the comparison after 49 (49 × 40,320 ≤ 2,000,000).
    const overlapping = audit.findings.filter((f) => f.rule === 'schedules-overlap');
    expect(overlapping).toHaveLength(Math.floor(MAX_SCHEDULE_RUNS / 40_320));
    expect(audit.skipped).toEqual([
      {
        check: 'schedule-overlaps',
        checked: 49,
        skipped: 50,
        note: 'compared the schedules of 49 of 99 pairs of scheduled jobs on one table whose forecast fails (at most 2,000,000 runs walked per audit); the 50 after them were left out (tables with fewer jobs first, then jobs in manifest order)',
      },
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
    const commits = (engine: string, isolationLevel: string) => ({
      engine,
      isolationLevel,
      commits: true,
      failedCheck: null,
      message: null,
      exceptionClass: null,
      note: engine === 'delta-rs' ? null : engine === 'delta-spark' ? SPARK_NOT_MEASURED : MODELLED_NOT_MEASURED,
    });
    // Delta Spark has no max_commit_retries: its appends move past the other's commit.
    const spark = [commits('delta-spark', 'Serializable'), commits('databricks', 'WriteSerializable')];
    expect(audit.pairs).toEqual([
      {
        table,
        first: 'a',
        second: 'b',
        secondCommits: false,
        failedCheck: null,
        message: 'Failed to commit transaction: 0',
        byEngine: [
          {
            ...commits('delta-rs', 'Serializable'),
            commits: false,
            message: 'Failed to commit transaction: 0',
            exceptionClass: 'CommitFailedError',
          },
          ...spark,
        ],
        secondEngine: 'delta-rs',
      },
      {
        table,
        first: 'b',
        second: 'a',
        secondCommits: true,
        failedCheck: null,
        message: null,
        byEngine: [commits('delta-rs', 'Serializable'), ...spark],
        secondEngine: 'delta-rs',
      },
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
        'isolation-set-elsewhere',
        'isolation-differs-across-engines',
        'commit-metadata-isolation',
        'no-redo-on-conflict',
        'commit-retries-off',
        'check-then-append',
        'blind-append-reads',
        'predicates-share-files',
        'schedules-overlap',
        'no-vacuum',
        'retry-exhaustion-risk',
        'compaction-starved',
      ]),
    );
    expect(audit.failed).toBe(true);
    // Every ordered pair of the 4 jobs, forecast from the table's data.
    expect(audit.pairs).toHaveLength(12);
    expect(audit.pairs.find((p) => p.first === 'vendor1-tips' && p.second === 'vendor2-tips')?.secondCommits).toBe(
      false,
    );
    // daily-append (delta-rs, isBlindAppend in its commit metadata) then vendor2-tips (Delta Spark), under the
    // capital-W WriteSerializable vendor2-tips declares: Spark honours the blind append, delta-rs reads Serializable.
    const blind = audit.pairs.find((p) => p.first === 'daily-append' && p.second === 'vendor2-tips');
    expect(blind).toMatchObject({ secondEngine: 'delta-spark', secondCommits: false, failedCheck: 'concurrentAppend' });
    expect(blind?.byEngine.map((e) => [e.engine, e.isolationLevel, e.commits, e.note])).toEqual([
      ['delta-rs', 'Serializable', false, null],
      [
        'delta-spark',
        'WriteSerializable',
        true,
        `measured: as the lab's I4@together under WriteSerializable, ${SPARK_RUN}`,
      ],
      ['databricks', 'WriteSerializable', true, MODELLED_NOT_MEASURED],
    ]);
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
    expect(r.stdout).toMatch(/^4 jobs, 14 findings$/m);
    expect(r.stdout).toMatch(/^ERROR {3}check-then-append {2}\[daily-append\] {2}lab:flat@0\.01$/m);
    expect(r.stdout).toMatch(/^ {2}vendor1-tips → vendor2-tips: fails: concurrentAppend$/m);
    const json = JSON.parse(readFileSync(join(work, 'audit.json'), 'utf8')) as JobAudit;
    expect(json.failed).toBe(true);
    // Each pair's forecast by engine, the measured and the modelled ones saying so.
    const pair = json.pairs.find((p) => p.first === 'daily-append' && p.second === 'vendor2-tips');
    expect(pair?.byEngine).toEqual([
      expect.objectContaining({ engine: 'delta-rs', isolationLevel: 'Serializable', commits: false, note: null }),
      {
        engine: 'delta-spark',
        isolationLevel: 'WriteSerializable',
        commits: true,
        failedCheck: null,
        message: null,
        exceptionClass: null,
        note: `measured: as the lab's I4@together under WriteSerializable, ${SPARK_RUN}`,
      },
      expect.objectContaining({ engine: 'databricks', commits: true, note: MODELLED_NOT_MEASURED }),
    ]);
  });

  it('exits 2 naming the job and field of a predicate that cannot be used, before or after its table is open', () => {
    const yaml = join(work, 'predicates.yaml');
    const line = (name: string, predicate: string) =>
      `  - {name: ${name}, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: delete, predicate: "${predicate}"}`;
    writeFileSync(yaml, ['jobs:', line('vendor2', 'VendorID == 2'), line('ok', 'VendorID = 1')].join('\n'));
    const syntax = run([yaml]);
    expect(syntax.status).toBe(2);
    expect(syntax.stderr).toContain("  - job 'vendor2': predicate: unexpected '=' at position 11 in predicate");
    writeFileSync(yaml, ['jobs:', line('vendor2', 'Vendor = 2'), line('ok', 'VendorID = 1')].join('\n'));
    const column = run([yaml]);
    expect(column.status).toBe(2);
    expect(column.stderr).toContain("  - job 'vendor2': predicate: unknown column 'Vendor' at position 1 in predicate");
    for (const r of [syntax, column]) expect(r.stdout + r.stderr).not.toMatch(/^\s+at /m);
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
