/**
 * The lab's real data set and base tables at scale 0.01, built in a temp folder of the test file's
 * own (synthetic data even where TLC files are installed: the data folder given is empty).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withConnection } from '@racelab/engine';
import { afterAll } from 'vitest';
import { type Dataset, prepareDataset } from '../../src/data/index';
import { type BaseTables, ensureBaseTables } from '../../src/tables/base-tables';

export const SMALL_SCALE = 0.01;

/** A fresh folder for this test file, removed when its tests end. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `racelab-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty folder to pass as dataDir, so prepareDataset never picks up real TLC files. */
export function noTlcDir(work: string): string {
  const dir = join(work, 'no-tlc');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function smallBase(work: string): Promise<{ dataset: Dataset; tables: BaseTables }> {
  const dataset = await prepareDataset({ scale: SMALL_SCALE, cacheDir: join(work, 'data'), dataDir: noTlcDir(work) });
  return { dataset, tables: await ensureBaseTables(work, dataset) };
}

/** All rows of a query, BIGINTs as numbers. */
export async function query(sql: string): Promise<unknown[][]> {
  return withConnection(async (c) => {
    const r = await c.runAndReadAll(sql);
    return (r.getRows() as unknown[][]).map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  });
}
