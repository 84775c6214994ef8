/**
 * Iceberg sweeps of real writer processes on a real SQLite SQL catalog: every fast append lands once, in the
 * snapshot whose metadata version its writer was told, as the snapshots and manifests show; with retries off a
 * lost compare-and-swap is one attempt and carries pyiceberg's text; the forecast is there for every point; and
 * what Iceberg cannot do is refused before any work, naming what it supports. The table a person reads shows a
 * point's five most frequent failure messages and counts the rest (Iceberg's carry snapshot ids).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSweepResults } from '@racelab/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { runSweep, SweepInputError, sweepTable } from '../src/sweep/index';

const work = mkdtempSync(join(tmpdir(), 'racelab-sweep-iceberg-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('runSweep on Iceberg', () => {
  it('N = 1, 3 appending one row each, K = 3, delta-rs retries: every append once, the forecast at every point', async () => {
    const r = await runSweep(
      { writers: [1, 3], commitsPerWriter: 3, operation: 'append-row', policy: 'delta-rs', tableFormat: 'iceberg' },
      { workDir: work },
    );
    expect(checkSweepResults(r)).toMatchObject({ ok: true });
    expect(r.input).toMatchObject({ tableFormat: 'iceberg', catalog: 'sqlite' });
    for (const p of r.points) {
      expect(p.commits).toEqual({ acknowledged: p.writers * 3, failed: 0, intended: p.writers * 3 });
      expect(p.checks).toMatchObject({
        versionsContiguous: true,
        exactlyOnce: true,
        lost: 0,
        duplicated: 0,
        wrongVersion: 0,
        failedPresent: 0,
        verdict: 'serial',
      });
      expect(p.checks.verdictNote).toContain(`one row per committed append on branch main (${p.writers * 3})`);
      expect(p.wasted.orphanFiles).toBe(0);
      expect(p.attempts.histogram.reduce((s, h) => s + h.attempts * h.commits, 0)).toBe(p.attempts.total);
    }
    expect(r.forecast?.atPoints.map((f) => f.writers)).toEqual([1, 3]);
    for (const f of r.forecast?.atPoints ?? []) expect(f.successPerAttempt).toBeGreaterThan(0);
  }, 120_000);

  it("retries off at N = 4: each commit is one attempt; a lost commit fails with pyiceberg's text, not in the table", async () => {
    const r = await runSweep(
      { writers: [4], commitsPerWriter: 4, operation: 'append-row', policy: 'none', tableFormat: 'iceberg' },
      { workDir: work },
    );
    const [p] = r.points;
    if (!p) throw new Error('no point');
    expect(p.attempts.total).toBe(16);
    expect(p.commits.acknowledged + p.commits.failed).toBe(16);
    expect(p.checks).toMatchObject({
      exactlyOnce: true,
      failedPresent: 0,
      verdict: 'serial',
      versionsContiguous: true,
    });
    // pyiceberg's texts of a lost commit: the requirement checked on the catalog's metadata (main moved, or was
    // created by another writer while this one read an empty table), or the swap itself.
    for (const f of p.failures) {
      expect(f.message).toMatch(
        /^(Requirement failed: branch main (has changed|was created concurrently)|Table has been updated by another process: sweep\.rows$)/,
      );
    }
    // A lost append's data file stays behind, named by no manifest: one orphan per failure.
    expect(p.wasted.orphanFiles).toBe(p.commits.failed);
    // Messages carrying snapshot ids are many: the table shows five per point and counts the rest on one line.
    const many = Array.from({ length: 8 }, (_, i) => ({
      message: `Requirement failed: branch main has changed ${i}`,
      count: 8 - i,
    }));
    const lines = sweepTable({ ...r, points: [{ ...p, failures: many }] })
      .split('\n')
      .filter((l) => l.startsWith('  N=4 failed'));
    expect(lines).toEqual([
      ...many.slice(0, 5).map((f) => `  N=4 failed ${f.count}x: ${f.message}`),
      '  N=4 failed 6x more, with 3 other messages (all in the results file)',
    ]);
  }, 120_000);

  it('refuses what Iceberg cannot do before any work, naming what it supports', async () => {
    const refused = await runSweep(
      { writers: [2], operation: 'update-overlap', tableFormat: 'iceberg', catalog: 'postgres' },
      { workDir: work },
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SweepInputError);
    expect((refused as SweepInputError).problems).toEqual([
      'operation update-overlap is not supported on Iceberg: Iceberg sweeps support append-row',
      'catalog postgres is not supported by sweeps yet: Iceberg sweeps commit through the SQLite catalog',
    ]);
    const delta = await runSweep({ writers: [2], operation: 'append-row', catalog: 'sqlite' }, { workDir: work }).catch(
      (e: unknown) => e,
    );
    expect((delta as SweepInputError).problems).toEqual(['catalog applies to tableFormat iceberg only']);
  });
});
