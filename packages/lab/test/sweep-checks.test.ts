/**
 * A point's table checks read the log itself: a commit file copied to the next version is a duplicated commit, a
 * missing version breaks contiguity and loses its commit, a failed commit found in the log is named, and a data
 * file no version references is an orphan. Tables written through the engine, the log then broken by hand.
 */
import { copyFileSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitKey, writeDeltaTable } from '@racelab/engine';
import { afterAll, expect, it } from 'vitest';
import { checkPoint } from '../src/sweep/checks';
import type { SweepCommitRecord } from '../src/sweep/job';
import { appendRow, createSweepTable, SWEEP_SCHEMA } from '../src/sweep/table';

const work = mkdtempSync(join(tmpdir(), 'racelab-sweep-checks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const record = (writer: number, seq: number, version: number | null): SweepCommitRecord => ({
  writer: `w${writer}`,
  seq,
  acknowledged: version !== null,
  version,
  readVersion: null,
  tries: 1,
  attempts: 1,
  startedAt: 0,
  endedAt: 1,
  error: version === null ? 'Failed to commit transaction: 0' : null,
  wastedFiles: 0,
  wastedBytes: 0,
  prepareMs: [],
  attemptMs: [],
  pauseMs: [],
});

/** An append-row table with `commits` (writer, seq) committed in order at versions 1.. */
async function appendTable(name: string, commits: [number, number][]): Promise<string> {
  const dir = join(work, name);
  await createSweepTable(dir, 'append-row', 2);
  for (const [w, seq] of commits) {
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema: SWEEP_SCHEMA, rows: [appendRow(w, seq)] },
      { mode: 'append', customMetadata: { writer: `w${w}`, seq } },
    );
  }
  return dir;
}

it('a sound table passes; a commit copied to the next version is duplicated and breaks the replay', async () => {
  const dir = await appendTable('dup', [
    [0, 1],
    [1, 1],
  ]);
  const records = [record(0, 1, 1), record(1, 1, 2)];
  const sound = await checkPoint(dir, 'append-row', 2, records);
  expect(sound.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, lost: 0, duplicated: 0 });
  expect(sound.checks.verdict).toBe('serial');
  expect(sound.orphanFiles).toBe(0);

  copyFileSync(join(dir, commitKey(2)), join(dir, commitKey(3)));
  const broken = await checkPoint(dir, 'append-row', 2, records);
  expect(broken.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: false, lost: 0, duplicated: 1 });
  // The copy names the same file twice: the replay wants w1's row twice, the table reads it once.
  expect(broken.checks.verdict).toBe('not-serial');
});

it('a missing version loses its commit and breaks contiguity; a failed commit in the log is named', async () => {
  const dir = await appendTable('lost', [
    [0, 1],
    [1, 1],
    [0, 2],
  ]);
  unlinkSync(join(dir, commitKey(2)));
  const r = await checkPoint(dir, 'append-row', 2, [record(0, 1, 1), record(1, 1, 2), record(0, 2, null)]);
  expect(r.checks).toMatchObject({ versionsContiguous: false, exactlyOnce: false, lost: 1, failedPresent: 1 });
  // w1's file is still there, and no version names it any more.
  expect(r.orphanFiles).toBe(1);
});

it('an acknowledged commit found at another version than its writer was told', async () => {
  const dir = await appendTable('moved', [[0, 1]]);
  const r = await checkPoint(dir, 'append-row', 1, [record(0, 1, 2)]);
  expect(r.checks).toMatchObject({ exactlyOnce: false, wrongVersion: 1, lost: 0 });
});

it('a data file no version references is an orphan', async () => {
  const dir = await appendTable('orphan', [[0, 1]]);
  writeFileSync(join(dir, 'part-lost-attempt.parquet'), 'x');
  expect((await checkPoint(dir, 'append-row', 1, [record(0, 1, 1)])).orphanFiles).toBe(1);
});
