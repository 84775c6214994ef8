/**
 * Custom races: a user's writers are validated as a whole (every problem named, nothing run), then
 * race like any preset; and a race can be cancelled, which kills its writer processes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scaledFigures } from '../src/data/index';
import { CASES, CaseInputError, customCase, RaceCancelledError, runLab, withProperties } from '../src/index';

const work = join(tmpdir(), `racelab-custom-test-${process.pid}`);
mkdirSync(work, { recursive: true, mode: 0o755 });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const problemsOf = (f: () => unknown): string[] => {
  try {
    f();
  } catch (e) {
    if (e instanceof CaseInputError) return e.problems;
    throw e;
  }
  throw new Error('no CaseInputError');
};

/** PIDs of this process's living children (the writer processes while a race runs). */
const children = (): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

describe('custom races: validation', () => {
  it('names every problem at once and parses expressions against the table schema', () => {
    const problems = problemsOf(() =>
      customCase({
        writers: [
          { name: 'a', operation: 'update', predicate: 'VendorId2 = 1', set: { tip_amount: 'tip_amount + 1' } },
          { name: 'b', operation: 'delete', predicate: "fare_amount < 'x' OR" },
          { name: 'c', operation: 'append', day: '2025-03-01' },
          { name: 'd', operation: 'update', predicate: 'VendorID = 2', set: { nope: '1' } },
          { name: 'e', operation: 'drop table' },
        ],
      }),
    );
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^writer a: predicate: .*VendorId2/);
    expect(problems[1]).toMatch(/^writer b: predicate: /);
    expect(problems[2]).toBe("writer c: day must be one of 2025-02-01, 2025-02-02, 2025-02-14, got '2025-03-01'");
    expect(problems[3]).toMatch(/^writer d: set nope: .*nope/);
    expect(problems[4]).toMatch(/^writer e: unknown operation 'drop table'/);
  });

  it('refuses cycles, unknown leaders, duplicate names, bad counts and foreign table properties', () => {
    const upd = (name: string, startAfter?: string) => ({
      name,
      operation: 'delete',
      predicate: 'VendorID = 1',
      ...(startAfter && { startAfter }),
    });
    expect(problemsOf(() => customCase({ writers: [upd('a', 'b'), upd('b', 'a')] }))).toEqual([
      'writers a, b wait for each other in a cycle',
    ]);
    expect(problemsOf(() => customCase({ writers: [upd('a', 'zz'), upd('b')] }))).toEqual([
      "writer a: startAfter names no other writer ('zz')",
    ]);
    expect(problemsOf(() => customCase({ writers: [upd('a'), upd('a')] }))).toEqual(['writer name a is used twice']);
    expect(problemsOf(() => customCase({ writers: [upd('a')] }))).toEqual(['a race needs 2 to 8 writers']);
    expect(
      problemsOf(() =>
        customCase({ writers: [upd('a'), { ...upd('b'), maxCommitRetries: -1 }], properties: { 'x.y': '1' } }),
      ),
    ).toEqual([
      'writer b: maxCommitRetries must be a whole number from 0 to 100',
      "table property 'x.y' is not one a race can set (delta.isolationLevel, delta.appendOnly, delta.checkpointInterval, delta.targetFileSize)",
    ]);
    const p1 = CASES.find((c) => c.id === 'P1');
    if (!p1) throw new Error('no P1');
    expect(problemsOf(() => withProperties(p1, { 'delta.isolationLevel': 'serializable' }))).toEqual([
      'P1 is not a Delta case: table properties do not apply',
    ]);
  });
});

describe('custom races: running and cancelling', () => {
  it('a custom race runs like a preset: two deletes on the partitioned table both commit', async () => {
    const c = customCase({
      table: 'partitioned',
      writers: [
        { name: 'v1', operation: 'delete', predicate: 'VendorID = 1' },
        { name: 'v2', operation: 'delete', predicate: 'VendorID = 2' },
      ],
    });
    const results = await runLab({ cases: [c], runs: 1, scale: 0.01, workDir: work });
    const run = results.cases[0]?.runs[0];
    expect(run?.writers.map((w) => w.committed)).toEqual([true, true]);
    const F = scaledFigures(0.01);
    expect(run?.table.rows).toBe(F.januaryTrips - F.vendors[1] - F.vendors[2]);
  }, 300_000);

  it('aborting kills the writer processes and rejects with RaceCancelledError', async () => {
    const controller = new AbortController();
    let writersAtAbort: number[] = [];
    const ran = runLab({
      cases: ['B1'],
      runs: 3,
      scale: 0.01,
      workDir: work,
      signal: controller.signal,
      onProgress: (p) => {
        // Both writers hold the table at the barrier: cancel there, before either is released.
        if (p.kind === 'writer' && p.event === 'ready' && !controller.signal.aborted) {
          writersAtAbort = children();
          controller.abort();
        }
      },
    });
    await expect(ran).rejects.toBeInstanceOf(RaceCancelledError);
    expect(writersAtAbort.length).toBeGreaterThanOrEqual(2);
    const alive = writersAtAbort.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 300_000);
});
