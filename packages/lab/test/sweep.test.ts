/**
 * Sweeps of real writer processes on real local tables: every commit of a small append sweep lands once, at the
 * version its writer was told; with retries off, what fails carries delta-rs's exact text and each commit is one
 * attempt; overlapping updates under delta-rs's policy lose by the conflict checker's text and the table still
 * replays serially; disjoint updates and day-sized appends land every commit and replay serially; input beyond
 * the bounds is refused before any table exists.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSweepResults } from '@racelab/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { runSweep, SweepInputError, type SweepProgress } from '../src/sweep/index';

const work = mkdtempSync(join(tmpdir(), 'racelab-sweep-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** delta-rs's refusal with max_commit_retries 0, and its conflict texts (kernel CommitConflictError's Display). */
const RETRIES_OFF = 'Failed to commit transaction: 0';
const CONFLICT_TEXTS = [
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.",
  "Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read.\nHelp: This transaction's query must be rerun to exclude the removed data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.",
];

describe('runSweep', () => {
  it('N = 1, 2, 4 appending one row each, K = 3, delta-rs: every commit lands once, versions contiguous', async () => {
    const progress: SweepProgress[] = [];
    const r = await runSweep(
      { writers: [1, 2, 4], commitsPerWriter: 3, operation: 'append-row', policy: 'delta-rs' },
      { workDir: work, onProgress: (p) => progress.push(p) },
    );
    expect(checkSweepResults(r)).toMatchObject({ ok: true });
    expect(r.store).toBe('local');
    expect(r.points.map((p) => p.writers)).toEqual([1, 2, 4]);
    for (const p of r.points) {
      expect(p.commits).toEqual({ acknowledged: p.writers * 3, failed: 0, intended: p.writers * 3 });
      expect(p.failures).toEqual([]);
      expect(p.checks).toMatchObject({
        versionsContiguous: true,
        exactlyOnce: true,
        lost: 0,
        duplicated: 0,
        verdict: 'serial',
      });
      // Every attempt is counted once: the histogram's attempts add up to the total.
      expect(p.attempts.histogram.reduce((s, h) => s + h.attempts * h.commits, 0)).toBe(p.attempts.total);
      expect(p.attempts.successPerAttempt).toBeCloseTo(p.commits.acknowledged / p.attempts.total, 5);
      expect(p.wasted.orphanFiles).toBe(0);
      expect(p.measured.attemptMs.p50).toBeGreaterThanOrEqual(0);
    }
    // One event per commit, numbered through the sweep, and a start and an end per point.
    const commits = progress.filter((p) => p.kind === 'commit');
    expect(commits.map((p) => p.done)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(progress.filter((p) => p.kind !== 'commit').map((p) => `${p.kind}:${p.writers}`)).toEqual([
      'point-start:1',
      'point-done:1',
      'point-start:2',
      'point-done:2',
      'point-start:4',
      'point-done:4',
    ]);
  });

  it("policy none at N = 4: failures carry delta-rs's exact text, and each commit is exactly one attempt", async () => {
    const r = await runSweep(
      { writers: [4], commitsPerWriter: 5, operation: 'append-row', policy: 'none' },
      { workDir: work },
    );
    const [p] = r.points;
    if (!p) throw new Error('no point');
    expect(p.commits.acknowledged + p.commits.failed).toBe(20);
    // Four writers released together with retries off: someone loses (the first round alone has four claimants).
    expect(p.commits.failed).toBeGreaterThan(0);
    expect(p.failures).toEqual([{ message: RETRIES_OFF, count: p.commits.failed }]);
    // A lost claim or a refusal before one: one attempt per commit, landed or not.
    expect(p.attempts.total).toBe(20);
    expect(p.attempts.histogram).toEqual([{ attempts: 1, commits: p.commits.acknowledged }]);
    // A failed commit's one file is written and never referenced.
    expect(p.wasted.files).toBe(p.commits.failed);
    expect(p.wasted.orphanFiles).toBe(p.commits.failed);
    expect(p.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, verdict: 'serial' });
  });

  it("update-overlap under delta-rs: losers fail by the conflict checker's text; the table replays serially", async () => {
    const r = await runSweep(
      { writers: [4], commitsPerWriter: 2, operation: 'update-overlap', policy: 'delta-rs' },
      { workDir: work },
    );
    const [p] = r.points;
    if (!p) throw new Error('no point');
    expect(p.commits.failed).toBeGreaterThan(0);
    for (const f of p.failures) expect(CONFLICT_TEXTS).toContain(f.message);
    expect(p.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, verdict: 'serial' });
    expect(p.checks.verdictNote).toContain(`${p.commits.acknowledged} committed updates`);
  });

  it('update-disjoint: each writer its own partition, no winner conflicts; the table replays serially', async () => {
    const r = await runSweep(
      { writers: [3], commitsPerWriter: 2, operation: 'update-disjoint', policy: 'delta-rs' },
      { workDir: work },
    );
    const [p] = r.points;
    if (!p) throw new Error('no point');
    expect(p.commits).toEqual({ acknowledged: 6, failed: 0, intended: 6 });
    expect(p.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, verdict: 'serial' });
    expect(p.checks.verdictNote).toContain('6 committed updates');
  });

  it('append-day: a day-sized file per commit; the rows are the day file once per committed append', async () => {
    const r = await runSweep(
      { writers: [2], commitsPerWriter: 2, operation: 'append-day', policy: 'delta-rs' },
      { workDir: work },
    );
    const [p] = r.points;
    if (!p) throw new Error('no point');
    expect(p.commits).toEqual({ acknowledged: 4, failed: 0, intended: 4 });
    expect(p.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, verdict: 'serial' });
    expect(p.checks.verdictNote).toContain('10,000 rows once per committed append (4)');
  });

  it('compaction: the compactor is recorded apart; the appenders are paced at their rate', async () => {
    const rate = 20;
    const r = await runSweep(
      { writers: [2], commitsPerWriter: 3, operation: 'compaction', appendRatePerSec: rate, policy: 'delta-rs' },
      { workDir: work },
    );
    const [p] = r.points;
    if (!p?.compactor) throw new Error('no compactor');
    expect(p.commits.intended).toBe(6);
    // Three appends each, the last due (3 - 1) / rate seconds after the release.
    expect(p.durationMs).toBeGreaterThanOrEqual((2 * 1000) / rate);
    const c = p.compactor;
    expect(c.acknowledged + c.failures.reduce((s, f) => s + f.count, 0)).toBe(3);
    expect(p.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, verdict: 'serial' });
  });

  it('refuses input beyond the bounds before any work: no table, every problem', async () => {
    const refused = runSweep(
      { writers: [65], commitsPerWriter: 51, operation: 'append-row', policy: 'none' },
      { workDir: join(work, 'refused') },
    );
    await expect(refused).rejects.toBeInstanceOf(SweepInputError);
    await expect(refused).rejects.toMatchObject({
      problems: [
        'writers[0] must be a whole number from 1 to 64, got 65',
        'commitsPerWriter must be a whole number from 1 to 50, got 51',
        'the sweep makes 3315 commits (N x K over the points); at most 2000',
      ],
    });
    expect(existsSync(join(work, 'refused'))).toBe(false);
  });
});
