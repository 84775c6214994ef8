/**
 * G1–G3 at a small scale (2 runs each) through the real runner: writer processes whose store loses the answer to
 * their first landed commit (the engine's LostAnswerStore, given through the writer's spec). The expected outcomes
 * live here and in the report checker; the runner and the engine only follow their rules.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledFigures } from '../src/data/index';
import { selectCases } from '../src/formats/registry';
import { type LabResults, type RunResult, runLab, type WriterResult } from '../src/index';
import { checkResults } from '../src/report/index';

const SCALE = 0.01;
const F = scaledFigures(SCALE);
const work = join(tmpdir(), `racelab-ambiguous-test-${process.pid}`);
let results: LabResults;

const runsOf = (id: string): RunResult[] => {
  const runs = results.cases.find((c) => c.id === id)?.runs ?? [];
  expect(runs).toHaveLength(2);
  return runs;
};
const writer = (run: RunResult, name: string): WriterResult => {
  const w = run.writers.find((x) => x.name === name);
  if (!w) throw new Error(`no writer ${name}`);
  return w;
};

beforeAll(async () => {
  mkdirSync(work, { recursive: true, mode: 0o755 });
  results = await runLab({ cases: ['G1', 'G2', 'G3'], runs: 2, scale: SCALE, workDir: work });
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the catalog', () => {
  it('keeps G1–G3 out of the default lab and finds them by id', () => {
    const all = selectCases([]).map((c) => c.id);
    expect(all).not.toContain('G1');
    expect(selectCases(['g1', 'G2', 'G3']).map((c) => c.id)).toEqual(['G1', 'G2', 'G3']);
  });
});

describe('G1: the answer lost as a closed connection (object_store resends; told "already exists")', () => {
  it("delta-rs's default writes its own entry again at the next version; own-bytes recognises its entry", () => {
    for (const run of runsOf('G1')) {
      expect(run.commitOrder).toEqual(['default', 'default', 'own-bytes']);
      expect(writer(run, 'default')).toMatchObject({ committed: true, version: 2, attempts: 1, commitRetries: 1 });
      expect(writer(run, 'own-bytes')).toMatchObject({ committed: true, version: 3, attempts: 1 });
      expect(writer(run, 'own-bytes').warnings.join('\n')).toContain("found taken by this commit's own bytes");
      expect(writer(run, 'default').warnings.join('\n')).not.toContain('own bytes');
      // The repeated entry re-adds the same file: the snapshot holds each day once, and the oracle agrees.
      expect(run.table.rows).toBe(F.januaryTrips + F.feb01 + F.feb02);
      expect(run.table.distinctTripIds).toBe(run.table.rows);
      expect(run.table.version).toBe(3);
      expect(run.verdict).toMatchObject({ status: 'serializable', order: ['default', 'own-bytes'] });
    }
  });
});

describe('G2, G3: the answer lost as a timeout (the error reaches the job, which is run again)', () => {
  it('G2, without a txn: the job appends Feb 14 again, and the verdict finds its rows twice', () => {
    for (const run of runsOf('G2')) {
      const job = writer(run, 'job');
      expect(job).toMatchObject({ committed: true, version: 2, attempts: 2, readVersion: 1 });
      expect(job.attemptErrors).toMatchObject([{ attempt: 1, errorClass: 'AnswerLostError', readVersion: 0 }]);
      expect(run.table.tripsOnDay?.['2025-02-14']).toBe(2 * F.feb14);
      expect(run.verdict).toMatchObject({ status: 'not-serializable', rowsDuplicated: F.feb14 });
      expect(run.verdict?.summary.startsWith(`${F.feb14.toLocaleString('en-US')} rows written twice`)).toBe(true);
    }
  });

  it('G3, with txn (appId, version): the rerun finds its batch committed, skips it, and the data is right', () => {
    for (const run of runsOf('G3')) {
      const job = writer(run, 'job');
      expect(job).toMatchObject({ committed: true, version: 1, attempts: 2, readVersion: 1, commitRetries: null });
      expect(job.attemptErrors).toMatchObject([{ attempt: 1, errorClass: 'AnswerLostError', readVersion: 0 }]);
      expect(job.warnings.join('\n')).toContain('batch already committed');
      expect(run.table.tripsOnDay?.['2025-02-14']).toBe(F.feb14);
      expect(run.table.version).toBe(1);
      expect(run.verdict).toMatchObject({ status: 'serializable' });
    }
  });
});

it('lab:report checks G1–G3 with no mismatch, and does not list them as skipped when absent', async () => {
  const report = await checkResults(results);
  expect(report.cases.flatMap((c) => c.mismatches)).toEqual([]);
  expect(report.checked).toEqual(['G1', 'G2', 'G3']);
  expect(report.ok).toBe(true);
  const lesson = await checkResults({ ...results, cases: results.cases.filter((c) => c.id !== 'G2') });
  expect(lesson.skipped).not.toContain('G2');
});

it('lab:report catches a G2 run whose job landed once, or a G1 run whose default writer was told the truth', async () => {
  const planted = structuredClone(results);
  const g1 = planted.cases.find((c) => c.id === 'G1')?.runs[0] as RunResult;
  writer(g1, 'default').version = 1;
  const g2 = planted.cases.find((c) => c.id === 'G2')?.runs[0] as RunResult;
  if (g2.verdict) g2.verdict.rowsDuplicated = 0;
  const report = await checkResults(planted);
  const lines = report.cases.flatMap((c) => c.mismatches);
  expect(lines).toContainEqual(expect.stringMatching(/^G1 run 1: default's version differs: expected 2/));
  expect(lines).toContainEqual(expect.stringMatching(/^G2 run 1: verdict rowsDuplicated differs/));
  expect(report.ok).toBe(false);
});
