/**
 * A1 and B1 raced by the real delta-rs 1.6.6: `npm run lab -- A1 B1 --real` runs the Python side's writer program
 * (python -m racelab_writer over fd 3) on the same fresh copies as the emulated runs, and the checks, the verdict
 * and the report checker judge it as they judge the engine. This needs the Python side that the test command
 * installs (`npm run setup:python`): without it the test fails with the message that says what is missing.
 * Beside it, an emulated run of A1 names its writers' library as the engine's emulation of delta-rs.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_INFO } from '@racelab/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { scaledFigures } from '../src/data/index';
import { type LabResults, runLab } from '../src/index';
import { pythonEnv } from '../src/real/python-env';
import { checkResults } from '../src/report/index';
import { runLab as runLabCommand } from './helpers/lab-cli';

const SCALE = 0.05;
const F = scaledFigures(SCALE);
const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

// One work folder for both runs: the data set and base tables are built once, under a 0755 parent.
const work = join(tmpdir(), `racelab-real-test-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the writers name their library', () => {
  it('emulated: delta-rs as the engine runs it, and the versions claim no real library and no Iceberg', async () => {
    const results = await runLab({ cases: ['A1'], runs: 1, scale: SCALE, workDir: work });
    for (const w of results.cases[0]?.runs[0]?.writers ?? [])
      expect(w).toMatchObject({ library: 'delta-rs', libraryVersion: ENGINE_INFO, run: 'emulated' });
    expect(Object.keys(results.versions)).not.toContain('deltalake');
    expect(Object.keys(results.versions)).not.toContain('iceberg');
  }, 600_000);
});

describe('A1 and B1 with the real delta-rs (needs the Python side: npm run setup:python)', () => {
  it('race, are checked and judged as the emulated runs are, and agree with the lesson', async () => {
    // Fails here, with what is missing and the command that adds it, when the Python side is not installed.
    const env = await pythonEnv('delta-rs');
    const r = runLabCommand(
      ['A1', 'B1', '--real', '--scale', String(SCALE), '--runs', '1', '--json', '-', '--work-dir', work],
      {},
      600_000,
    );
    expect(r.status, r.stderr).toBe(0);
    // Standard output is the results file alone: the writers' own output is their log, never printed.
    const results = JSON.parse(r.stdout) as LabResults;
    expect(results.versions).toMatchObject({ deltalake: '1.6.6', python: env.versions.python });
    expect(Object.keys(results.versions)).not.toContain('iceberg');
    const [a1, b1] = results.cases.map((c) => c.runs[0]);
    for (const w of [...(a1?.writers ?? []), ...(b1?.writers ?? [])])
      expect(w).toMatchObject({ library: 'delta-rs', libraryVersion: '1.6.6', run: 'real' });

    // A1: both appends commit, at versions 1 and 2, and the log's tags name them.
    expect(a1?.writers.every((w) => w.committed && w.errorMessage === null)).toBe(true);
    expect(a1?.writers.map((w) => w.version).sort()).toEqual([1, 2]);
    expect([...(a1?.commitOrder ?? [])].sort()).toEqual(['feb01', 'feb02']);
    expect(a1?.table.rows).toBe(F.januaryTrips + F.feb01 + F.feb02);
    expect(a1?.verdict?.status).toBe('serializable');

    // B1: one update commits, the other fails with delta-rs's own "added new data".
    const losers = b1?.writers.filter((w) => !w.committed) ?? [];
    expect(losers).toHaveLength(1);
    expect(losers[0]).toMatchObject({ errorClass: 'CommitFailedError', errorMessage: ADDED });
    expect(b1?.commitOrder).toEqual(b1?.writers.filter((w) => w.committed).map((w) => w.name));

    // The report checker holds the real runs to the lesson's expectations, as it holds the engine's.
    // Its data folder is relative to where the command ran (INIT_CWD under npm, as userPath reads it).
    const report = await checkResults(results, { baseDir: process.env.INIT_CWD ?? process.cwd() });
    expect(report.cases.flatMap((c) => c.mismatches)).toEqual([]);
  }, 900_000);
});
