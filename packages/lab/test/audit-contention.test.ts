/**
 * The jobs audit's contention findings: manifests (checked by the contract, as the CLI and the API read them)
 * that do and do not produce retry-exhaustion-risk and compaction-starved, the fix each names cleared by
 * forecasting the manifest again with it, the pair forecasts deciding which rewrites refuse which, and an audit
 * of a table that cannot be opened that still forecasts its jobs' contention, the budget of simulated writers
 * that bounds the forecasts before they start, and the recommended policy and its figures taken from the forecast.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkJobsManifest } from '@racelab/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { forecastTable } from '../src/audit/contention-findings';
import {
  auditJobs,
  contentionFindings,
  EXHAUSTION_THRESHOLD,
  type Finding,
  type Job,
  type PairForecast,
} from '../src/audit/index';
import type { LocationConfig } from '../src/index';

const work = join(tmpdir(), `racelab-audit-contention-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The jobs as the contract reads them from a manifest. */
function manifest(jobs: object[]): Job[] {
  const checked = checkJobsManifest({ jobs });
  if (!checked.ok) throw new Error(checked.problems.join('\n'));
  return checked.value.jobs;
}
const job = (name: string, fields: object) => ({
  name,
  table: 's3://lake/events',
  engine: 'delta-rs 1.6.6',
  operation: 'append',
  ...fields,
});
const ingest = (fields: object) => job('ingest', fields);
const compact = job('compact', { operation: 'optimize', commitsPerHour: 1 });
const ofRule = (findings: Finding[], rule: string) => findings.filter((f) => f.rule === rule);

/** The manifest with every job a finding names given the policy it names. */
const withFix = (jobs: Job[], f: Finding): Job[] =>
  jobs.map((j) => (f.jobs.includes(j.name) && f.fixPolicy ? { ...j, retryPolicy: f.fixPolicy } : j));

describe('retry-exhaustion-risk', () => {
  it('appenders with retries off fail whenever another lands first; delta-rs retries fix it', () => {
    const jobs = manifest([
      ingest({ commitsPerHour: 3600, concurrency: 4, commitProperties: { maxCommitRetries: 0 } }),
    ]);
    const [f, ...more] = contentionFindings(jobs);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ rule: 'retry-exhaustion-risk', jobs: ['ingest'], table: 's3://lake/events' });
    expect(f?.exhaustion).toBeGreaterThan(0.2);
    expect(f?.evidence).toContain('"Failed to commit transaction: 0"');
    expect(f?.fixPolicy).toMatchObject({ name: 'delta-rs', maxCommitRetries: 15 });
    expect(contentionFindings(withFix(jobs, f as Finding))).toEqual([]);
  });

  it('the same appenders with delta-rs retries, or without a rate, get none', () => {
    expect(contentionFindings(manifest([ingest({ commitsPerHour: 3600, concurrency: 4 })]))).toEqual([]);
    // No rate: nothing to forecast, and no crash.
    expect(
      contentionFindings(manifest([ingest({ concurrency: 64, commitProperties: { maxCommitRetries: 0 } })])),
    ).toEqual([]);
    // One instance of one job: nothing to contend with.
    expect(contentionFindings(manifest([ingest({ commitsPerHour: 360_000, retryPolicy: 'none' })]))).toEqual([]);
  });

  it('overlapping updates are redone only by the app loop: the fix names a redo with backoff', () => {
    const jobs = manifest([
      job('fix-a', { operation: 'update', predicate: 'kind = 1', commitsPerHour: 360 }),
      job('fix-b', { operation: 'update', predicate: 'kind = 1', commitsPerHour: 360 }),
    ]);
    const [f] = ofRule(contentionFindings(jobs), 'retry-exhaustion-risk');
    expect(f?.jobs).toEqual(['fix-a', 'fix-b']);
    expect(f?.exhaustion).toBeGreaterThan(EXHAUSTION_THRESHOLD);
    // More library retries cannot help a refusal: the fix has app tries with a pause.
    expect(f?.fixPolicy?.appTries).toBeGreaterThan(1);
    expect(f?.fixPolicy?.backoff).not.toBeNull();
    expect(contentionFindings(withFix(jobs, f as Finding))).toEqual([]);
  });

  it("the audit's pair forecast decides: updates it forecasts as not conflicting get none", () => {
    const jobs = manifest([
      job('fix-a', { operation: 'update', predicate: 'kind = 1', commitsPerHour: 360 }),
      job('fix-b', { operation: 'update', predicate: 'kind = 2', commitsPerHour: 360 }),
    ]);
    const pair = (first: string, second: string): PairForecast => ({
      table: 's3://lake/events',
      first,
      second,
      secondCommits: true,
      failedCheck: null,
      message: null,
      byEngine: [],
      secondEngine: null,
    });
    expect(contentionFindings(jobs, [pair('fix-a', 'fix-b'), pair('fix-b', 'fix-a')])).toEqual([]);
    expect(ofRule(contentionFindings(jobs), 'retry-exhaustion-risk')).toHaveLength(1);
  });
});

describe("the recommendation is the forecast's", () => {
  /** What the forecast drops of ingest's commits an hour under `policy`, as the fix says it (one decimal). */
  const drops = (jobs: Job[], policy: NonNullable<Finding['fixPolicy']>) => {
    const [o] = forecastTable(jobs, [policy], []).outcomes;
    return ((360_000 * (o?.failed ?? 0)) / (o?.intended ?? 1)).toFixed(1);
  };

  it('more appenders on delta-rs defaults: another policy, each with the drops its forecast gives', () => {
    const at = (concurrency: number) => manifest([ingest({ commitsPerHour: 360_000, concurrency })]);
    const fixes = [32, 64].map((n) => {
      const jobs = at(n);
      const [f] = ofRule(contentionFindings(jobs), 'retry-exhaustion-risk');
      const fixPolicy = f?.fixPolicy as NonNullable<Finding['fixPolicy']>;
      // The figures are the forecast's for the named policy and for the job's own (delta-rs's 15 retries).
      expect(f?.fix).toContain(`ingest drops ${drops(jobs, fixPolicy)} of its 360000 commits an hour`);
      expect(f?.fix).toContain(
        `with ${n} writers on the table, against ${drops(jobs, { name: 'delta-rs', maxCommitRetries: 15, appTries: 1, backoff: null })} (`,
      );
      expect(f?.fix).toContain('with delta-rs (15 library retries, 1 try, no pause)');
      expect(contentionFindings(withFix(jobs, f as Finding))).toEqual([]);
      return f;
    });
    // 32 writers: 50 library retries are enough, spelled as the sweep takes them; 64 need the app loop's redo.
    expect(fixes[0]?.fixPolicy).toMatchObject({ maxCommitRetries: 50, appTries: 1, backoff: null });
    expect(fixes[0]?.fix).toContain('the retry policy delta-rs:50 (50 library retries');
    expect(fixes[1]?.fixPolicy?.appTries).toBeGreaterThan(1);
    expect(fixes[0]?.fix).not.toEqual(fixes[1]?.fix);
  });
});

describe('compaction-starved', () => {
  it('a compaction against 64 fast appenders loses its claims; the named fix lands it', () => {
    const jobs = manifest([ingest({ commitsPerHour: 360_000, concurrency: 64 }), compact]);
    const findings = contentionFindings(jobs);
    const [f] = ofRule(findings, 'compaction-starved');
    expect(f).toMatchObject({ jobs: ['compact'] });
    expect(f?.exhaustion).toBeGreaterThan(EXHAUSTION_THRESHOLD);
    expect(f?.evidence).toContain('"Failed to commit transaction: 15"');
    // The appenders themselves run out too, a finding of their own.
    expect(ofRule(findings, 'retry-exhaustion-risk')[0]?.jobs).toEqual(['ingest']);
    let fixed = jobs;
    for (const x of findings) fixed = withFix(fixed, x);
    expect(contentionFindings(fixed)).toEqual([]);
  });

  it('the same compaction against a slow stream lands', () => {
    expect(contentionFindings(manifest([ingest({ commitsPerHour: 600, concurrency: 2 }), compact]))).toEqual([]);
  });
});

describe('in the audit', () => {
  it('forecasts contention on a table it cannot open, beside the table-unreadable finding', async () => {
    const cfg: LocationConfig = { roots: [join(work, 'tables')], workDir: work };
    const table = join(work, 'tables', 'missing');
    const audit = await auditJobs(
      { jobs: manifest([ingest({ table, commitsPerHour: 3600, concurrency: 4, retryPolicy: 'none' })]) },
      cfg,
    );
    const rules = audit.findings.map((f) => f.rule);
    expect(rules).toContain('table-unreadable');
    expect(rules).toContain('retry-exhaustion-risk');
    expect(audit.findings.find((f) => f.rule === 'retry-exhaustion-risk')?.evidence).toContain('local disk');
  });
});

describe('the contention budget', () => {
  it('forecasts the tables that fit in 512 simulated writers, fewest first, and reports the one left out', async () => {
    const { auditBudgets, MAX_SIMULATED_WRITERS } = await import('../src/audit/limits');
    const crowd = Array.from({ length: 20 }, (_, i) =>
      job(`crowd-${i}`, {
        table: 's3://lake/crowded',
        commitsPerHour: 360_000,
        concurrency: 1000,
        commitProperties: { maxCommitRetries: 0 },
      }),
    );
    const small = ingest({ commitsPerHour: 3600, concurrency: 4, commitProperties: { maxCommitRetries: 0 } });
    const budget = auditBudgets().contention;
    // The crowded table first in the manifest: the small one is still forecast, being the lighter.
    const findings = contentionFindings(manifest([...crowd, small]), [], budget);
    expect(findings.map((f) => [f.rule, f.table])).toEqual([['retry-exhaustion-risk', 's3://lake/events']]);
    expect(budget.used).toBe(4);
    expect(budget.used).toBeLessThanOrEqual(MAX_SIMULATED_WRITERS);
    expect(budget.skippedWork()).toMatchObject({ check: 'contention-forecasts', checked: 1, skipped: 1 });
  });
});
