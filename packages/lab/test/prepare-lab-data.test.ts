/**
 * What `npm start` builds ahead of the first races: the data set, the base tables and the Iceberg
 * contrast's January 15 file, with progress for a terminal. Watching a build must not change a byte of it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { prepareDataset, scaledFigures } from '../src/data/index';
import type { StepProgress } from '../src/data/sql';
import { prepareLabData } from '../src/tables/base-tables';

const root = mkdtempSync(join(tmpdir(), 'lab-prepare-test-'));
const noTlc = join(root, 'no-tlc');
mkdirSync(noTlc);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const FILES = ['january.parquet', 'feb-2025-02-01.parquet', 'feb-2025-02-02.parquet', 'feb-2025-02-14.parquet'];

it('builds the data set and base tables once, reporting rows and tables, and the same bytes as an unwatched build', async () => {
  const workDir = join(root, 'work');
  const events: { step: string; p: StepProgress }[] = [];
  const { dataset, tables } = await prepareLabData({
    workDir,
    scale: 0.01,
    dataDir: noTlc,
    onProgress: (step, p) => events.push({ step, p: { ...p } }),
  });

  const f = scaledFigures(0.01);
  const rows = f.januaryTrips + f.feb01 + f.feb02 + f.feb14;
  const data = events.filter((e) => e.step === 'data set').map((e) => e.p);
  expect(data[0]).toEqual({ done: 0, total: rows, detail: 'writing january' });
  expect(data.at(-1)).toEqual({ done: rows, total: rows, detail: 'counting the figures' });
  for (let i = 1; i < data.length; i++) expect(data[i]?.done).toBeGreaterThanOrEqual(data[i - 1]?.done ?? 0);
  const bases = events.filter((e) => e.step === 'base tables').map((e) => `${e.p.done}/${e.p.total} ${e.p.detail}`);
  expect(bases).toEqual(['0/2 writing flat', '1/2 writing partitioned', '2/2 written']);
  // The data set comes first, entirely.
  expect(events.findIndex((e) => e.step === 'base tables')).toBe(data.length);
  expect(existsSync(join(tables.flat, '_delta_log'))).toBe(true);
  expect(existsSync(join(tables.partitioned, '_delta_log'))).toBe(true);
  expect(existsSync(join(workDir, 'base', 'synthetic-0.01', 'jan15.parquet'))).toBe(true);

  const unwatched = await prepareDataset({ scale: 0.01, cacheDir: join(root, 'unwatched'), dataDir: noTlc });
  for (const file of FILES) expect(digest(join(dataset.dir, file)), file).toBe(digest(join(unwatched.dir, file)));

  // Everything is there now: a second start builds nothing and reports nothing.
  const again: string[] = [];
  await prepareLabData({ workDir, scale: 0.01, dataDir: noTlc, onProgress: (step) => again.push(step) });
  expect(again).toEqual([]);
});
