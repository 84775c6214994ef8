/**
 * The jobs audit's isolation rules, over the manifest alone: a value a job's own engine reads
 * otherwise (isolation-not-parsed), a value its engine reads as meant but cannot set
 * (isolation-set-elsewhere, a note), a table whose engines read its value, or its unset level,
 * differently (isolation-differs-across-engines). Every fix names the one spelling to write, from
 * the engine's recommendSpelling, and the example manifest in docs/ is read as a team would.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Finding, type Job, manifestFindings } from '../src/audit/index';
import { readManifest } from '../src/audit/manifest';

const KEY = 'delta.isolationLevel';

/** A job on table `t`, on `engine`, setting the isolation level to `value` (undefined: not at all). */
const on = (name: string, engine: string, value?: string, table = 't'): Job => ({
  name,
  table,
  engine,
  operation: 'append',
  onCommitFailed: 'redo-whole-change',
  ...(value !== undefined && { tableProperties: { [KEY]: value } }),
});
const RS = 'delta-rs 1.6.6';
const SPARK = 'Delta Spark 3.2';
const DATABRICKS = 'Databricks 14.3';

const isolationFindings = (jobs: Job[]): Finding[] =>
  manifestFindings(jobs).filter((f) => f.rule.startsWith('isolation'));
const find = (jobs: Job[], rule: string) => isolationFindings(jobs).filter((f) => f.rule === rule);

describe('isolation-not-parsed: the job’s own engine reads the value otherwise', () => {
  it('capital-W on delta-rs: an error whose fix names the camelCase spelling', () => {
    expect(find([on('a', RS, 'WriteSerializable')], 'isolation-not-parsed')).toEqual([
      {
        rule: 'isolation-not-parsed',
        severity: 'error',
        jobs: ['a'],
        table: 't',
        evidence:
          "a (delta-rs 1.6.6) sets delta.isolationLevel = 'WriteSerializable': delta-rs does not parse 'WriteSerializable' (its parser is case-sensitive camelCase), silently falls back to Serializable, and so fails commits that WriteSerializable would let through.",
        fix: "set delta.isolationLevel = 'writeSerializable': delta-rs 1.2–1.6.x reads it as WriteSerializable at commit",
      },
    ]);
  });

  it('the camelCase spelling is flagged on no engine', () => {
    for (const engine of [RS, SPARK, DATABRICKS, 'delta-rs 1.1.4']) {
      expect(find([on('a', engine, 'writeSerializable')], 'isolation-not-parsed'), engine).toEqual([]);
    }
  });

  it('when no spelling works for every engine here, the fix names the jobs that read it differently', () => {
    const [f] = find([on('rs', RS, 'snapshot_isolation'), on('dbx', DATABRICKS)], 'isolation-not-parsed');
    expect(f?.fix).toBe(
      "no spelling of SnapshotIsolation is read as SnapshotIsolation at commit by every engine here: with 'snapshotIsolation', Databricks (dbx) does not accept it",
    );
  });

  it('a value that names no level: remove it, or one of the spellings every engine here reads as meant', () => {
    const [f] = find([on('rs', RS, 'RepeatableRead'), on('dbx', DATABRICKS)], 'isolation-not-parsed');
    expect(f?.fix).toBe("remove delta.isolationLevel, or set the level you mean: 'serializable', 'writeSerializable'");
  });
});

describe('isolation-set-elsewhere: read as meant at commit, but the job’s engine cannot set it', () => {
  it("a note (info), not a flag, naming the spelling and where to set it from, for Spark's Serializable-only DDL", () => {
    for (const value of ['WriteSerializable', 'writeSerializable']) {
      const jobs = [on('s', SPARK, value), on('rs', RS)];
      expect(find(jobs, 'isolation-set-elsewhere'), value).toMatchObject([
        {
          severity: 'info',
          jobs: ['s'],
          fix: "set delta.isolationLevel = 'writeSerializable': every engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from delta-rs 1.2–1.6.x)",
        },
      ]);
      expect(find(jobs, 'isolation-not-parsed'), value).toEqual([]);
    }
    // Alone on its table: no engine here can set it, so every engine that can is named.
    expect(find([on('s', SPARK, 'writeSerializable')], 'isolation-set-elsewhere')[0]?.fix).toBe(
      "set delta.isolationLevel = 'writeSerializable': Delta Spark reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from delta-rs 1.2–1.6.x, delta-rs ≤ 1.1.4 or Databricks)",
    );
    expect(isolationFindings([on('s', SPARK, 'serializable')])).toEqual([]);
  });
});

describe('isolation-differs-across-engines: one table, engines reading its level differently', () => {
  it('one value read as two levels: the evidence names the jobs, the fix the spelling', () => {
    const [f] = find(
      [on('rs', RS, 'WriteSerializable'), on('spark', SPARK, 'WriteSerializable')],
      'isolation-differs-across-engines',
    );
    expect(f).toMatchObject({
      severity: 'warning',
      jobs: ['rs', 'spark'],
      evidence: "'WriteSerializable' means Serializable for rs; WriteSerializable for spark",
      fix: "set delta.isolationLevel = 'writeSerializable': every engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from delta-rs 1.2–1.6.x)",
    });
    expect(isolationFindings([on('rs', RS, 'serializable'), on('spark', SPARK)])).toEqual([]);
  });

  it('unset on a table whose engines’ defaults differ: names the engines, their defaults and their jobs', () => {
    const jobs = [on('rs', RS), on('spark', SPARK), on('dbx', DATABRICKS), on('other', RS, undefined, 'u')];
    expect(isolationFindings(jobs)).toEqual([
      {
        rule: 'isolation-differs-across-engines',
        severity: 'warning',
        jobs: ['rs', 'spark', 'dbx'],
        table: 't',
        evidence:
          'delta.isolationLevel is unset: delta-rs 1.2–1.6.x (rs) and Delta Spark (spark) commit at Serializable; Databricks (dbx) commits at WriteSerializable',
        fix: "set delta.isolationLevel to the level you mean, 'serializable' or 'writeSerializable', so that every engine commits at one level",
      },
    ]);
  });

  it('unset on a table whose engines share a default: nothing to report', () => {
    expect(isolationFindings([on('rs', RS), on('spark', SPARK), on('old', 'delta-rs 1.1.4')])).toEqual([]);
    expect(isolationFindings([on('dbx', DATABRICKS), on('dbx2', DATABRICKS)])).toEqual([]);
  });
});

describe('the example manifest in docs/', () => {
  it('names the one spelling in every isolation fix, and notes (not flags) the Spark job that cannot set it', async () => {
    const manifest = await readManifest(join(import.meta.dirname, '../../../docs/jobs-manifest.example.yaml'));
    const spelling =
      "set delta.isolationLevel = 'writeSerializable': every engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from delta-rs 1.2–1.6.x)";
    expect(isolationFindings(manifest.jobs).map((f) => [f.rule, f.severity, f.jobs, f.fix])).toEqual([
      ['isolation-not-parsed', 'error', ['vendor1-tips'], spelling],
      ['isolation-set-elsewhere', 'info', ['vendor2-tips'], spelling],
      [
        'isolation-differs-across-engines',
        'warning',
        ['vendor1-tips', 'daily-append', 'nightly-compaction', 'vendor2-tips'],
        spelling,
      ],
    ]);
  });
});
