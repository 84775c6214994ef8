/**
 * F1 and F2 raced by the real pyiceberg 0.12.0: `npm run lab -- F1 F2 --real` runs the Python side's writer program
 * on each run's SQLite catalog (pyiceberg's SqlCatalog over the engine's catalog rows), and the checks, the commit
 * order (read from the writer named in each snapshot's summary), the verdict and the report checker judge it as they
 * judge the engine. This needs the Python side that the test command installs (`npm run setup:python`): without it the
 * test fails with the message that says what is missing.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaledFigures } from '../src/data/index';
import type { LabResults } from '../src/index';
import { pythonEnv } from '../src/real/python-env';
import { checkResults } from '../src/report/index';
import { runLab } from './helpers/lab-cli';

const SCALE = 0.05;
const F = scaledFigures(SCALE);
const RETRY = /^Commit failed due to a concurrent update, retrying \(1\/4\) in \d+ ms$/;
const CHANGED = /^Requirement failed: branch main has changed: expected id \d+, found \d+$/;

const work = join(tmpdir(), `racelab-real-iceberg-test-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('F1 and F2 with the real pyiceberg (needs the Python side: npm run setup:python)', () => {
  it("race on the engine's catalog, retry in pyiceberg's own loop, name their writers, and agree with the lesson", async () => {
    // Fails here, with what is missing and the command that adds it, when the Python side is not installed.
    const env = await pythonEnv('pyiceberg');
    const r = runLab(
      ['F1', 'F2', '--real', '--scale', String(SCALE), '--runs', '2', '--json', '-', '--work-dir', work],
      {},
      600_000,
    );
    expect(r.status, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout) as LabResults;
    // The versions name pyiceberg, the library the run used, and not delta-rs's deltalake.
    expect(results.versions).toMatchObject({ pyiceberg: '0.12.0', python: env.versions.python });
    expect(Object.keys(results.versions)).not.toContain('deltalake');
    const [f1, f2] = results.cases;
    expect(f1?.runs).toHaveLength(2);
    expect(f2?.runs).toHaveLength(2);
    for (const run of [...(f1?.runs ?? []), ...(f2?.runs ?? [])])
      for (const w of run.writers)
        expect(w).toMatchObject({ library: 'pyiceberg', libraryVersion: '0.12.0', run: 'real' });

    for (const run of f1?.runs ?? []) {
      // F1: both land; whichever committed second saw the first's snapshot and pyiceberg retried it once, logged.
      expect(run.writers.every((w) => w.committed && w.errorClass === null && w.attempts === 1)).toBe(true);
      const order = run.commitOrder ?? [];
      expect([...order].sort()).toEqual(['feb01', 'feb02']);
      const [first, second] = order.map((name) => run.writers.find((w) => w.name === name));
      expect(second?.commitRetries).toBe(1);
      expect(second?.warnings.filter((w) => w.startsWith('Commit failed'))).toEqual([expect.stringMatching(RETRY)]);
      expect(first).toMatchObject({ commitRetries: 0, warnings: [] });
      expect(run.table.rows).toBe(F.jan15 + F.feb01 + F.feb02);
      expect(run.verdict?.status).toBe('serializable');
    }
    for (const run of f2?.runs ?? []) {
      // F2: without retries the second fails with pyiceberg's own exception and leaves nothing in the table.
      expect(run.commitOrder).toEqual(['feb01']);
      const loser = run.writers.find((w) => w.name === 'feb02');
      expect(loser).toMatchObject({ committed: false, errorClass: 'CommitFailedException', commitRetries: null });
      expect(loser?.errorMessage).toMatch(CHANGED);
      expect(run.table.rows).toBe(F.jan15 + F.feb01);
    }

    // The report checker holds the real runs to the lesson's expectations, as it holds the engine's.
    const report = await checkResults(results, { baseDir: process.env.INIT_CWD ?? process.cwd() });
    expect(report.cases.map((c) => c.id)).toEqual(['F1', 'F2']);
    expect(report.cases.flatMap((c) => c.mismatches)).toEqual([]);
  }, 900_000);
});
