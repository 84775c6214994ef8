/**
 * The differential's comparison on results written by hand: symmetric writers are read from the writer specs and
 * renamed (a run where vendor2 wins reads as one where vendor1 wins), losers' messages are compared with their ids
 * masked, and a planted difference (an isBlindAppend, a message, a row count with the same winner) is reported.
 */
import { describe, expect, it } from 'vitest';
import { recordedPredicateSql } from '../src/audit/history/recorded-predicate';
import type { WriterSpec } from '../src/cases/catalog';
import { compareCase, maskIds, symmetricGroups } from '../src/compare/index';
import { summarizeCommit } from '../src/formats/delta/commit-summary';
import type { CaseResult, CommitSummary, RunResult } from '../src/results/types';
import { writerResult } from './helpers/writer-result';

const update = (vendor: number): WriterSpec => ({
  name: `vendor${vendor}`,
  operation: { kind: 'update', predicate: `VendorID = ${vendor}`, set: { tip_amount: 'tip_amount + 1' } },
});
const B1 = [update(1), update(2)];
const LOST = (uuid: string) =>
  `Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read (staging ${uuid}/part-00001-${uuid}-c000.snappy.parquet)`;

const commit = (writer: string, predicate: string, fields: Partial<CommitSummary> = {}): CommitSummary => ({
  version: 1,
  writer,
  operation: 'UPDATE',
  operationParameters: { predicate },
  readVersion: 0,
  isolationLevel: null,
  isBlindAppend: null,
  files: [
    { role: 'remove', partitionValues: {}, numRecords: null, dataChange: true, deletionVector: false },
    { role: 'add', partitionValues: {}, numRecords: 100, dataChange: true, deletionVector: false },
  ],
  otherActions: [],
  ...fields,
});

/** A B1 run: `winner` commits, the other fails with `message`. */
function b1Run(winner: 1 | 2, opts: { message?: string; predicate?: (v: number) => string; rows?: number } = {}) {
  const loser = winner === 1 ? 2 : 1;
  const predicate = opts.predicate ?? ((v: number) => `VendorID = ${v}`);
  const run: RunResult = {
    index: 1,
    writers: [
      writerResult(`vendor${winner}`, { version: 1 }),
      writerResult(`vendor${loser}`, {
        committed: false,
        errorClass: 'CommitFailedError',
        errorMessage: opts.message ?? LOST('0b7f5a3c-1d2e-4f50-8a9b-0c1d2e3f4a5b'),
      }),
    ],
    table: {
      version: 1,
      rows: opts.rows ?? 1000,
      distinctTripIds: opts.rows ?? 1000,
      tipDeltaByVendor: { [String(winner)]: 10, [String(loser)]: 0 },
      dataFilesOnDisk: 3,
      dataFilesInLog: 2,
    },
    commits: [commit(`vendor${winner}`, predicate(winner))],
  };
  return run;
}
const caseOf = (...runs: RunResult[]): CaseResult => ({ id: 'B1', runs: runs.map((r, i) => ({ ...r, index: i + 1 })) });

describe('symmetric writers come from the specs', () => {
  it('groups writers of one kind that differ in their operation values only, never sequenced ones', () => {
    expect(symmetricGroups(B1)).toEqual([['vendor1', 'vendor2']]);
    const compact: WriterSpec = { name: 'compact', operation: { kind: 'optimize' } };
    expect(symmetricGroups([compact, update(2)])).toEqual([]);
    expect(symmetricGroups([update(1), { ...update(2), startAfter: 'vendor1' }])).toEqual([]);
    expect(symmetricGroups([update(1), { ...update(2), retryLoop: 3 }])).toEqual([]);
  });
});

describe('the comparison', () => {
  it('reads a run where vendor2 wins as one where vendor1 wins, figures and predicate renamed with it', () => {
    const v = compareCase(B1, caseOf(b1Run(1), b1Run(1)), caseOf(b1Run(2), b1Run(1)));
    expect(v).toEqual({ id: 'B1', agree: true, differences: [], timing: [] });
  });

  it("masks ids in losers' messages but keeps versions", () => {
    expect(maskIds(LOST('0b7f5a3c-1d2e-4f50-8a9b-0c1d2e3f4a5b'))).toBe(
      'Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read (staging <uuid>/<file>)',
    );
    expect(
      maskIds('Overwrite of __delta_rs_write_insert_0b7f5a3c-1d2e-4f50-8a9b-0c1d2e3f4a5b failed at version 3'),
    ).toBe('Overwrite of __delta_rs_write_insert_<uuid> failed at version 3');
    expect(maskIds('snapshot 7839163548215733512 at version 2')).toBe('snapshot <id> at version 2');
    const other = caseOf(b1Run(1, { message: LOST('ffffffff-1d2e-4f50-8a9b-0c1d2e3f4a5b') }));
    expect(compareCase(B1, caseOf(b1Run(2)), other).agree).toBe(true);
  });

  it("reports a loser's different message, naming the field and both values", () => {
    const v = compareCase(B1, caseOf(b1Run(1)), caseOf(b1Run(2, { message: 'Version 1 already exists' })));
    expect(v.agree).toBe(false);
    expect(v.differences).toHaveLength(2);
    expect(v.differences[0]).toMatch(
      /^emulated only \(1 run\): vendor1 committed; vendor2 failed \(CommitFailedError\)/,
    );
    expect(v.differences[0]).toContain('writers[1].errorMessage: emulated "Failed to commit transaction');
    expect(v.differences[0]).toContain('real "Version 1 already exists"');
  });

  it('reports a planted difference in a commit (isBlindAppend) and in the table with the same winner', () => {
    const blind = b1Run(1);
    blind.commits = [commit('vendor1', 'VendorID = 1', { isBlindAppend: true })];
    const v = compareCase(B1, caseOf(b1Run(1)), caseOf(blind));
    expect(v.differences.join('\n')).toContain('commits[0].isBlindAppend: emulated null, real true');
    const rows = compareCase(B1, caseOf(b1Run(1)), caseOf(b1Run(1, { rows: 999 })));
    expect(rows.agree).toBe(false);
    expect(rows.differences.join('\n')).toContain('table.rows: emulated 1000, real 999');
  });

  it('reports an outcome seen on one side only', () => {
    const both = b1Run(1);
    both.writers = both.writers.map((w) => ({ ...w, committed: true, errorClass: null, errorMessage: null }));
    const v = compareCase(B1, caseOf(b1Run(1)), caseOf(both));
    expect(v.agree).toBe(false);
    expect(v.differences[1]).toMatch(/^real only \(1 run\): vendor1 committed; vendor2 committed/);
  });

  it('says another winner with other figures is timing when symmetric writers differ in their data', () => {
    const days: WriterSpec[] = ['2025-02-01', '2025-02-02'].map((day, i) => ({
      name: `feb0${i + 1}`,
      operation: { kind: 'append', day: day as '2025-02-01' },
      maxCommitRetries: 0,
    }));
    const run = (winner: string, rows: number): RunResult => ({
      index: 1,
      writers: [
        writerResult(winner, { operation: 'append', version: 1 }),
        writerResult(winner === 'feb01' ? 'feb02' : 'feb01', {
          operation: 'append',
          committed: false,
          errorClass: 'CommitFailedError',
          errorMessage: 'Version 1 already exists',
        }),
      ],
      table: { version: 1, rows, distinctTripIds: rows, dataFilesOnDisk: 2, dataFilesInLog: 2 },
      commits: [
        commit(winner, '', {
          operation: 'WRITE',
          operationParameters: { mode: 'Append' },
          readVersion: null,
          files: [
            { role: 'add', partitionValues: {}, numRecords: rows - 1000, dataChange: true, deletionVector: false },
          ],
        }),
      ],
    });
    const v = compareCase(days, caseOf(run('feb01', 7000)), caseOf(run('feb02', 8000)));
    expect(v.agree).toBe(true);
    expect(v.timing).toEqual([
      "emulated saw feb01 commit where real saw feb02 (same outcome up to renaming; the figures follow the winners' data)",
      "real saw feb02 commit where emulated saw feb01 (same outcome up to renaming; the figures follow the winners' data)",
    ]);
    // The same winner with other figures is no timing: it is a difference.
    expect(compareCase(days, caseOf(run('feb01', 7000)), caseOf(run('feb01', 8000))).agree).toBe(false);
  });
});

describe('timing between writers that are not symmetric', () => {
  it('lists another winner in the same outcome as timing, but another outcome as a difference', () => {
    const c1: WriterSpec[] = [{ name: 'compact', operation: { kind: 'optimize' } }, update(2)];
    const run = (winner: string, loser: string, bothCommit = false): RunResult => ({
      index: 1,
      writers: [
        writerResult(winner, { version: 1 }),
        writerResult(
          loser,
          bothCommit ? { version: 2 } : { committed: false, errorClass: 'CommitFailedError', errorMessage: 'lost' },
        ),
      ],
      table: { version: bothCommit ? 2 : 1, rows: 10, distinctTripIds: 10, dataFilesOnDisk: 1, dataFilesInLog: 1 },
      commits: [commit(winner, 'p')],
    });
    const v = compareCase(
      c1,
      caseOf(run('compact', 'vendor2'), run('compact', 'vendor2')),
      caseOf(run('vendor2', 'compact')),
    );
    expect(v.agree).toBe(true);
    expect(v.timing.join('\n')).toContain(
      'real saw compact failed (CommitFailedError); vendor2 committed (1 run); emulated never saw vendor2 win',
    );
    const both = compareCase(c1, caseOf(run('compact', 'vendor2')), caseOf(run('vendor2', 'compact', true)));
    expect(both.agree).toBe(false);
  });
});

describe("a commit's actions as parsed values", () => {
  it('keeps roles, partition values, record counts and commitInfo fields, not names, sizes or times', () => {
    const s = summarizeCommit(3, [
      {
        commitInfo: {
          timestamp: 1,
          operation: 'WRITE',
          operationParameters: { mode: 'Append', partitionBy: '["day"]' },
          writer: 'w',
          clientVersion: 'delta-rs.1.6.6',
        },
      },
      {
        add: {
          path: 'day=1/part-1.parquet',
          partitionValues: { day: '1' },
          size: 10,
          modificationTime: 2,
          dataChange: true,
          stats: '{"numRecords":5}',
        },
      },
      { remove: { path: 'part-0.parquet', dataChange: false, deletionTimestamp: 3 } },
      { txn: { appId: 'job', version: 4 } },
    ]);
    expect(s).toEqual({
      version: 3,
      writer: 'w',
      operation: 'WRITE',
      operationParameters: { mode: 'Append', partitionBy: ['day'] },
      readVersion: null,
      isolationLevel: null,
      isBlindAppend: null,
      files: [
        { role: 'add', partitionValues: { day: '1' }, numRecords: 5, dataChange: true, deletionVector: false },
        { role: 'remove', partitionValues: {}, numRecords: null, dataChange: false, deletionVector: false },
      ],
      otherActions: ['txn job 4'],
    });
  });
});

describe("delta-rs's recorded predicates read back by the history audit", () => {
  it("turns arrow_cast(x, 'Date32') and '…'::date into the SQL the parser reads, and leaves the rest", () => {
    expect(recordedPredicateSql("arrow_cast(tpep_pickup_datetime, 'Date32') = '2025-02-14'::date")).toBe(
      "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'",
    );
    expect(recordedPredicateSql('"VendorID" = 1')).toBe('"VendorID" = 1');
  });
});
