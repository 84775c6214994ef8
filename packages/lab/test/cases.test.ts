/**
 * Every case of docs/lab-cases.md at a small scale (2 runs each), through the real runner: separate
 * writer processes behind the barrier on fresh table copies, and a real Postgres. The expected
 * outcomes and exact messages live here (and in the report checker), never in the runner.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_INFO } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledFigures, type Vendor } from '../src/data/index';
import { type CaseResult, type LabResults, type RunResult, runLab, type WriterResult } from '../src/index';
import { checkResults } from '../src/report/index';

const SCALE = 0.01;
const F = scaledFigures(SCALE);
const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const DELETED_READ =
  "Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read.\nHelp: This transaction's query must be rerun to exclude the removed data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

// One shared work folder (data set and base tables built once), under a 0755 parent for Postgres.
const work = join(tmpdir(), `racelab-lab-test-${process.pid}`);
let results: LabResults;

const caseOf = (id: string): CaseResult => {
  const c = results.cases.find((x) => x.id === id);
  if (!c) throw new Error(`case ${id} did not run`);
  return c;
};
const writer = (run: RunResult, name: string): WriterResult => {
  const w = run.writers.find((x) => x.name === name);
  if (!w) throw new Error(`no writer ${name}`);
  return w;
};
const eachRun = (id: string, check: (run: RunResult) => void) => {
  const c = caseOf(id);
  expect(c.runs).toHaveLength(2);
  for (const run of c.runs) check(run);
};
const winnerAndLoser = (run: RunResult) => {
  const winners = run.writers.filter((w) => w.committed);
  const losers = run.writers.filter((w) => !w.committed);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(1);
  return { winner: winners[0] as WriterResult, loser: losers[0] as WriterResult };
};
const near = (a: number | undefined, b: number) =>
  expect(Math.abs((a ?? Number.NaN) - b)).toBeLessThan(1e-6 * Math.max(1, b));

beforeAll(async () => {
  mkdirSync(work, { recursive: true, mode: 0o755 });
  results = await runLab({ runs: 2, scale: SCALE, workDir: work });
}, 900_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('A: appends', () => {
  it('A1: both commit, at versions 1 and 2, every trip once', () =>
    eachRun('A1', (run) => {
      expect(run.writers.every((w) => w.committed && w.errorMessage === null)).toBe(true);
      expect(run.writers.map((w) => w.version).sort()).toEqual([1, 2]);
      expect(run.table.rows).toBe(F.januaryTrips + F.feb01 + F.feb02);
      expect(run.table.distinctTripIds).toBe(run.table.rows);
    }));

  it('A2: with retries off one fails with "Failed to commit transaction: 0"', () =>
    eachRun('A2', (run) => {
      const { winner, loser } = winnerAndLoser(run);
      expect(winner.version).toBe(1);
      expect(loser).toMatchObject({ errorClass: 'CommitFailedError', errorMessage: 'Failed to commit transaction: 0' });
      expect(run.table.rows).toBe(F.januaryTrips + (winner.name === 'feb01' ? F.feb01 : F.feb02));
    }));
});

describe('B: updates and deletes', () => {
  it('B1: one update commits, the other gets "added new data"; 11 files on disk, 1 in the log', () =>
    eachRun('B1', (run) => {
      const { winner, loser } = winnerAndLoser(run);
      expect(loser).toMatchObject({ errorClass: 'CommitFailedError', errorMessage: ADDED });
      const v = winner.name.replace('vendor', '');
      near(run.table.tipDeltaByVendor?.[v], F.vendors[Number(v) as Vendor]);
      near(run.table.tipDeltaByVendor?.[v === '1' ? '2' : '1'] ?? 0, 0);
      expect(run.table.dataFilesOnDisk).toBe(11);
      expect(run.table.dataFilesInLog).toBe(1);
    }));

  it('B2: one delete commits, the other gets "added new data"', () =>
    eachRun('B2', (run) => {
      const { winner, loser } = winnerAndLoser(run);
      expect(loser.errorMessage).toBe(ADDED);
      expect(run.table.rows).toBe(F.januaryTrips - (winner.name === 'fare' ? F.negativeFares : F.zeroDistance));
    }));

  it('B3: on the partitioned copy both commit and every VendorID 1 and 2 tip is +1', () =>
    eachRun('B3', (run) => {
      expect(run.writers.every((w) => w.committed)).toBe(true);
      near(run.table.tipDeltaByVendor?.['1'], F.vendors[1]);
      near(run.table.tipDeltaByVendor?.['2'], F.vendors[2]);
      expect(run.table.tipChangedByVendor).toMatchObject({ '1': F.vendors[1], '2': F.vendors[2] });
      expect(run.table.tipDeltaValues).toEqual([1]);
    }));
});

describe('C: compaction against an update', () => {
  it('C1: whichever commits second fails, with the message its order implies', () =>
    eachRun('C1', (run) => {
      const { winner, loser } = winnerAndLoser(run);
      expect(loser.errorMessage).toBe(winner.name === 'compact' ? ADDED : DELETED_READ);
      expect(run.table.rows).toBe(F.januaryTrips);
      expect(run.table.distinctTripIds).toBe(F.januaryTrips);
    }));

  it('C2: the compaction commits first, then the update fails with "added new data"', () =>
    eachRun('C2', (run) => {
      expect(writer(run, 'compact').committed).toBe(true);
      expect(writer(run, 'vendor2').errorMessage).toBe(ADDED);
      expect(run.table.distinctTripIds).toBe(F.januaryTrips);
    }));

  it('C3: the update commits first, then the compaction fails with "deleted data this operation read"', () =>
    eachRun('C3', (run) => {
      expect(writer(run, 'vendor2').committed).toBe(true);
      expect(writer(run, 'compact').errorMessage).toBe(DELETED_READ);
      expect(run.table.rows).toBe(F.januaryTrips);
    }));
});

describe('I: the isolation matrix', () => {
  it.each(['I1', 'I2', 'I3', 'I4', 'I6'])('%s: the append commits, the update that read v0 fails', (id) =>
    eachRun(id, (run) => {
      expect(writer(run, 'append')).toMatchObject({ committed: true, version: 1 });
      expect(writer(run, 'vendor2')).toMatchObject({ committed: false, errorMessage: ADDED });
    }),
  );

  it('I5: small-w writeSerializable and a blind append: the update commits; appended rows keep their tips', () =>
    eachRun('I5', (run) => {
      expect(writer(run, 'vendor2')).toMatchObject({ committed: true, version: 2 });
      near(run.table.tipDeltaByVendor?.['2'], F.vendors[2]);
      expect(run.table.rows).toBe(F.januaryTrips + F.feb01);
    }));
});

describe('D1: four updates with a retry loop', () => {
  it('all commit, every trip of every vendor +1 once, attempts as the commit order implies', () =>
    eachRun('D1', (run) => {
      expect(run.writers.every((w) => w.committed)).toBe(true);
      for (const v of [1, 2, 6, 7] as const) near(run.table.tipDeltaByVendor?.[String(v)], F.vendors[v]);
      expect(run.table.tipDeltaValues).toEqual([1]);
      const order = run.commitOrder ?? [];
      expect([...order].sort()).toEqual(['vendor1', 'vendor2', 'vendor6', 'vendor7']);
      // The first to commit needed one attempt; every refused attempt was "added new data".
      expect(writer(run, order[0] as string).attempts).toBe(1);
      for (const w of run.writers) {
        expect(w.attempts).toBe(w.attemptErrors.length + 1);
        for (const e of w.attemptErrors) expect(e.errorMessage).toBe(ADDED);
      }
      // Which versions each retry read is timing; the report checker derives the attempts from
      // those reads and the commit order (see the last test).
    }));
});

describe('E: check-then-append against overwrite with a predicate', () => {
  it('E1: both jobs see 0 trips, both append: every trip of the day twice', () =>
    eachRun('E1', (run) => {
      expect(run.writers.every((w) => w.committed && w.observed?.['2025-02-14'] === 0)).toBe(true);
      expect(run.table.tripsOnDay?.['2025-02-14']).toBe(2 * F.feb14);
    }));

  it('E2: one job commits first try, the other fails once, reopens and replaces: 1 remove + 1 add', () =>
    eachRun('E2', (run) => {
      const first = run.writers.find((w) => w.attempts === 1);
      const second = run.writers.find((w) => w.attempts === 2);
      expect(first?.committed).toBe(true);
      expect(second).toMatchObject({ committed: true, filesRemoved: 1, filesAdded: 1 });
      expect(second?.attemptErrors.map((e) => e.errorMessage)).toEqual([ADDED]);
      expect(run.table.tripsOnDay?.['2025-02-14']).toBe(F.feb14);
      expect(run.table.rows).toBe(F.januaryTrips + F.feb14);
      expect(run.table.distinctTripIds).toBe(run.table.rows);
    }));
});

describe('F: Iceberg appends through a SQL catalog', () => {
  it("F1: both commit; the later one logs pyiceberg's retry warning once", () =>
    eachRun('F1', (run) => {
      expect(run.writers.every((w) => w.committed)).toBe(true);
      const warnings = run.writers.flatMap((w) => w.warnings);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^Commit failed due to a concurrent update, retrying \(1\/4\) in \d+ ms$/);
      expect(run.table.rows).toBe(F.jan15 + F.feb01 + F.feb02);
      expect(run.table.distinctTripIds).toBe(run.table.rows);
      // The engine ran pyiceberg's commit and retry: its writers say so.
      for (const w of run.writers)
        expect(w).toMatchObject({ library: 'pyiceberg', libraryVersion: ENGINE_INFO, run: 'emulated' });
    }));

  it('F2: with no retries the second, committing after the first, fails: branch main has changed', () =>
    eachRun('F2', (run) => {
      expect(writer(run, 'feb01').committed).toBe(true);
      const loser = writer(run, 'feb02');
      expect(loser).toMatchObject({ committed: false, errorClass: 'CommitFailedException' });
      expect(loser.errorMessage).toMatch(/^Requirement failed: branch main has changed: expected id \d+, found \d+$/);
      expect(run.table.rows).toBe(F.jan15 + F.feb01);
    }));
});

describe('P: Postgres row locks', () => {
  it('P1: different rows: B never waits, both commit', () =>
    eachRun('P1', (run) => {
      expect(writer(run, 'B').waitedOnLock).toBe(false);
      expect(run.writers.every((w) => w.committed)).toBe(true);
    }));

  it('P2: same rows, READ COMMITTED: B waits, both land, +2 per trip', () =>
    eachRun('P2', (run) => {
      expect(writer(run, 'B').waitedOnLock).toBe(true);
      expect(run.writers.every((w) => w.committed)).toBe(true);
      near(run.table.tipDeltaByVendor?.['2'], 2 * F.vendors[2]);
    }));

  it('P3: same rows, REPEATABLE READ: B waits, then fails with a serialization error', () =>
    eachRun('P3', (run) => {
      expect(writer(run, 'B')).toMatchObject({ waitedOnLock: true, committed: false });
      expect(writer(run, 'B').errorMessage).toContain('could not serialize access due to concurrent update');
      near(run.table.tipDeltaByVendor?.['2'], F.vendors[2]);
    }));
});

it('the report checker, which shares no code with the runner, finds no mismatch in these results', async () => {
  const report = await checkResults(results);
  expect(report.cases.flatMap((c) => c.mismatches)).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.checked).toHaveLength(22);
});

it('every commit in every Delta run names its writer in commitInfo, so the log says who won', () => {
  for (const c of results.cases.filter((x) => !x.id.startsWith('P') && !x.id.startsWith('F'))) {
    for (const run of c.runs) {
      const committed = run.writers.filter((w) => w.committed).map((w) => w.name);
      expect([...(run.commitOrder ?? [])].sort()).toEqual(committed.sort());
    }
  }
});
