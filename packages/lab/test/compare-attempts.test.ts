/**
 * Attempts of retry loops racing each other are compared as distributions (compare/attempts.ts): D1-like runs whose
 * attempts jitter differently on the two sides agree, and the same runs compared exactly (writers without a retry
 * loop) differ; another landing order, with what its commits read and rewrote, is timing when all else is equal, but
 * a retrying writer's commit parameters are still compared; a side that goes beyond the retry loop's bound, a first committer that needed a retry, a retry with
 * no commit to lose to, a side that never retries, and a writer that never commits are differences. Which writers
 * this applies to comes from the specs.
 */
import { describe, expect, it } from 'vitest';
import type { WriterSpec } from '../src/cases/catalog';
import { compareCase, timingAttemptWriters } from '../src/compare/index';
import type { CaseResult, CommitSummary, RunResult, WriterResult } from '../src/results/types';
import { writerResult } from './helpers/writer-result';

const VENDORS = [1, 2, 6, 7] as const;
const update = (vendor: number, retryLoop?: number): WriterSpec => ({
  name: `vendor${vendor}`,
  operation: { kind: 'update', predicate: `VendorID = ${vendor}`, set: { tip_amount: 'tip_amount + 1' } },
  ...(retryLoop !== undefined && { retryLoop }),
});
const D1 = VENDORS.map((v) => update(v, 10));

const commit = (vendor: number, version: number): CommitSummary => ({
  version,
  writer: `vendor${vendor}`,
  operation: 'UPDATE',
  operationParameters: { predicate: `"VendorID" = ${vendor}` },
  // The first two land on the version they read (delta-rs rebases the second); each later one read the one before.
  readVersion: version <= 2 ? 0 : version - 1,
  isolationLevel: null,
  isBlindAppend: null,
  files: [
    { role: 'remove', partitionValues: {}, numRecords: null, dataChange: true, deletionVector: false },
    { role: 'add', partitionValues: {}, numRecords: 100, dataChange: true, deletionVector: false },
  ],
  otherActions: [],
});

/**
 * A D1 run: the writers commit in `order` (versions 1, 2, …) with `attempts` in that order; `fields` overrides a
 * writer's result by vendor (a writer made to fail).
 */
function d1Run(
  order: readonly number[],
  attempts: readonly number[],
  fields: Record<number, Partial<WriterResult>> = {},
): RunResult {
  const writers = order.map((vendor, i) =>
    writerResult(`vendor${vendor}`, { version: i + 1, attempts: attempts[i] as number, ...fields[vendor] }),
  );
  const committed = writers.filter((w) => w.committed);
  return {
    index: 1,
    writers,
    table: {
      version: committed.length,
      rows: 1000,
      distinctTripIds: 1000,
      tipDeltaByVendor: Object.fromEntries(
        order.map((v) => [String(v), committed.some((w) => w.name === `vendor${v}`) ? 10 : 0]),
      ),
      dataFilesOnDisk: 5,
      dataFilesInLog: 4,
    },
    commits: order.filter((v) => committed.some((w) => w.name === `vendor${v}`)).map((v, i) => commit(v, i + 1)),
  };
}
const caseOf = (...runs: RunResult[]): CaseResult => ({ id: 'D1', runs: runs.map((r, i) => ({ ...r, index: i + 1 })) });

const emulated = caseOf(d1Run([6, 7, 1, 2], [1, 1, 2, 3]), d1Run([6, 7, 2, 1], [1, 1, 3, 4]));
const jittered = caseOf(d1Run([6, 7, 1, 2], [1, 1, 2, 4]), d1Run([7, 6, 2, 1], [1, 1, 3, 3]));

describe('which writers have attempts that are timing, from their specs', () => {
  it('retry loops racing one another; not a lone writer, a sequenced one, a lost answer, or no loop', () => {
    expect([...timingAttemptWriters(D1)]).toEqual([
      ['vendor1', 10],
      ['vendor2', 10],
      ['vendor6', 10],
      ['vendor7', 10],
    ]);
    expect(timingAttemptWriters([update(1, 3)]).size).toBe(0);
    expect(timingAttemptWriters([update(1, 3), { ...update(2, 3), startAfter: 'vendor1' }]).size).toBe(0);
    expect(timingAttemptWriters([update(1, 3), { ...update(2, 3), lostAnswer: 'timeout' }])).toEqual(
      new Map([['vendor1', 3]]),
    );
    expect(timingAttemptWriters([update(1), update(2), update(6, 1)]).size).toBe(0);
  });
});

describe('attempts under racing retry loops, compared as distributions', () => {
  it('agree when the attempts jitter differently on each side, and say what each side saw', () => {
    const v = compareCase(D1, emulated, jittered);
    expect(v.differences).toEqual([]);
    expect(v.agree).toBe(true);
    expect(v.timing).toContain(
      'attempts under the retry loop, per run (compared as distributions): emulated {1,1,2,3} {1,1,3,4}; real {1,1,2,4} {1,1,3,3}',
    );
  });

  it('the same runs compared exactly (no retry loop in the specs) differ: the rule is what makes them agree', () => {
    const v = compareCase(
      VENDORS.map((vendor) => update(vendor)),
      emulated,
      jittered,
    );
    expect(v.agree).toBe(false);
    expect(v.differences.join('\n')).toContain('attempts');
  });

  it("differ when the real side goes beyond the retry loop's bound", () => {
    const v = compareCase(D1, emulated, caseOf(d1Run([6, 7, 1, 2], [1, 1, 2, 11]), jittered.runs[1] as RunResult));
    expect(v.agree).toBe(false);
    expect(v.differences).toContain("real run 1: vendor2 made 11 attempts, outside its retry loop's 1…10");
  });

  it('differ when the first committer needed a retry, or a writer lost more tries than there were commits', () => {
    const v = compareCase(D1, emulated, caseOf(d1Run([6, 7, 1, 2], [2, 1, 2, 3]), d1Run([6, 7, 2, 1], [1, 1, 4, 3])));
    expect(v.agree).toBe(false);
    expect(v.differences).toEqual([
      "real run 1: vendor6 landed the run's first commit but took 2 attempts",
      'real run 1: vendor6 lost 1 tries with only 0 other commit(s) before its own',
      'real run 2: vendor2 lost 3 tries with only 2 other commit(s) before its own',
    ]);
  });

  it('differ when one side never retries in any run', () => {
    const v = compareCase(D1, emulated, caseOf(d1Run([6, 7, 1, 2], [1, 1, 1, 1]), d1Run([7, 6, 2, 1], [1, 1, 1, 1])));
    expect(v.agree).toBe(false);
    expect(v.differences).toEqual(['retries under the retry loop: emulated retried in 2 of 2 runs, real in 0 of 2']);
  });

  it('differ when a writer never commits, its tries spent', () => {
    const spent = {
      2: {
        committed: false,
        version: null,
        attempts: 10,
        errorClass: 'CommitFailedError',
        errorMessage: 'Failed to commit transaction: Commit failed: a concurrent transactions added new data.',
      },
    };
    const v = compareCase(
      D1,
      emulated,
      caseOf(d1Run([6, 7, 1, 2], [1, 1, 2, 10], spent), jittered.runs[1] as RunResult),
    );
    expect(v.agree).toBe(false);
    expect(v.differences.join('\n')).toContain('real only (1 run)');
    expect(v.differences.join('\n')).toContain('failed (CommitFailedError)');
    expect(v.differences).toContain('real run 1: vendor2 lost 9 tries with only 3 other commit(s) in the run');
  });

  it('another landing order, whose commits read and rewrote other files, is timing when all else is equal', () => {
    const run = d1Run([2, 6, 1, 7], [1, 2, 3, 4]);
    const first = run.commits?.[0] as CommitSummary;
    const wide = { ...first, files: [...first.files, ...first.files] };
    const v = compareCase(D1, emulated, caseOf({ ...run, commits: [wide, ...(run.commits ?? []).slice(1)] }));
    expect(v.differences).toEqual([]);
    expect(v.timing.join('\n')).toContain("real saw the retrying writers' commits land as [v0+4 v0+2 v2+2 v3+2]");
  });

  it("a retrying writer's commit with other parameters is still a difference", () => {
    const run = d1Run([6, 7, 1, 2], [1, 1, 2, 3]);
    const commits = (run.commits ?? []).map((c) =>
      c.writer === 'vendor1' ? { ...c, operationParameters: { predicate: 'VendorID = 1' } } : c,
    );
    const v = compareCase(D1, emulated, caseOf({ ...run, commits }));
    expect(v.agree).toBe(false);
    expect(v.differences.join('\n')).toContain('operationParameters.predicate');
  });

  it('differ when the log holds another number of commits than the writers that committed', () => {
    const extra = d1Run([6, 7, 1, 2], [1, 1, 2, 3]);
    const run = { ...extra, commits: [...(extra.commits ?? []), commit(7, 5)] };
    const v = compareCase(D1, emulated, caseOf(run, jittered.runs[1] as RunResult));
    expect(v.differences).toContain('real run 1: 5 commit(s) in the log for 4 writer(s) that committed');
  });
});
