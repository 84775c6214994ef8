/**
 * The lesson's A1, A2 and B1 with every run's table on S3 (radosgw): the base tables are copied up
 * once, each run gets server-side copies and its own version 0, the writers are separate
 * processes committing with put-if-absent on S3, and the outcomes and messages are those the same
 * cases give on a local disk.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeFor } from '@racelab/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { s3Root } from '../../engine/test-s3/env';
import { scaledFigures } from '../src/data/index';
import { type LabResults, runLab } from '../src/index';

const SCALE = 0.01;
const F = scaledFigures(SCALE);
const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const work = join(tmpdir(), `racelab-lab-s3-${process.pid}`);
const tableRoot = s3Root('lab');
let results: LabResults;

beforeAll(async () => {
  mkdirSync(work, { recursive: true, mode: 0o755 });
  results = await runLab({ cases: ['A1', 'A2', 'B1'], runs: 1, scale: SCALE, workDir: work, tableRoot });
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (id: string) => {
  const r = results.cases.find((c) => c.id === id)?.runs[0];
  if (!r) throw new Error(`no run of ${id}`);
  return r;
};

it('A1 on S3: both appends commit, at versions 1 and 2, every trip once', () => {
  const r = run('A1');
  expect(r.writers.map((w) => w.committed)).toEqual([true, true]);
  expect(r.writers.map((w) => w.version).sort()).toEqual([1, 2]);
  expect(r.table.rows).toBe(F.januaryTrips + F.feb01 + F.feb02);
  expect(r.table.distinctTripIds).toBe(r.table.rows);
});

it('A2 on S3: with retries off the second append fails with "Failed to commit transaction: 0"', () => {
  const r = run('A2');
  const loser = r.writers.find((w) => !w.committed);
  expect(r.writers.filter((w) => w.committed)).toHaveLength(1);
  expect(loser).toMatchObject({ errorClass: 'CommitFailedError', errorMessage: 'Failed to commit transaction: 0' });
});

it('B1 on S3: one update commits, the other gets "added new data"; 11 Parquet objects, 1 in the log', () => {
  const r = run('B1');
  expect(r.writers.filter((w) => w.committed)).toHaveLength(1);
  expect(r.writers.find((w) => !w.committed)).toMatchObject({ errorClass: 'CommitFailedError', errorMessage: ADDED });
  expect(r.table).toMatchObject({ rows: F.januaryTrips, dataFilesOnDisk: 11, dataFilesInLog: 1 });
});

it('keeps the base tables on S3 and removes every run table afterwards', async () => {
  const keys = (await storeFor(tableRoot).list('', { recursive: true })).map((o) => o.key);
  expect(keys.some((k) => k.startsWith('base/') && k.endsWith('/flat/_delta_log/00000000000000000000.json'))).toBe(
    true,
  );
  expect(keys.filter((k) => k.startsWith('runs/'))).toEqual([]);
});
