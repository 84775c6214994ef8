/**
 * The table check counts what writers killed at work leave beside a run's table: files in `_staging/`
 * folders and `_delta_log` files under a temporary name, apart from the data files (zombies included) and
 * from each other; the results validator keeps the counts; vacuum takes them away once they are older than
 * the retention.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeltaTable, fromLogPath, vacuum } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../src/data/index';
import { checkTable } from '../src/formats/delta/table-check';
import { validateResults } from '../src/report/validate';
import { freshCopy } from '../src/tables/fresh-copy';
import { smallBase, tempDir } from './helpers/small-base';

const work = tempDir('table-check');
let dataset: Dataset;
let table: string;

beforeAll(async () => {
  const base = await smallBase(work);
  dataset = base.dataset;
  table = join(work, 'run');
  await freshCopy(base.tables.flat, table);
});

describe('the table check', () => {
  it('counts staging files and temporary log files apart from data files, and vacuum reclaims them', async () => {
    const clean = await checkTable(table, { januaryFile: dataset.january });
    expect(clean).toMatchObject({ stagingFilesOnDisk: 0, tempLogFilesOnDisk: 0 });
    expect(clean.dataFilesOnDisk).toBe(clean.dataFilesInLog);

    // What a writer killed mid-write leaves: a partial data file and a row file in its staging folder,
    // and its log entry under the temporary name link() would have replaced.
    const staging = join(table, '_staging', 'killed-writer');
    mkdirSync(staging, { recursive: true });
    const [first] = (await DeltaTable.open(table)).activeFiles();
    copyFileSync(join(table, fromLogPath(first?.path as string)), join(staging, 'f0.parquet'));
    writeFileSync(join(staging, 'rows.json'), '{"trip_id": 1}\n');
    writeFileSync(join(table, '_delta_log', '00000000000000000001.json#killed-writer'), '{}');

    const dirty = await checkTable(table, { januaryFile: dataset.january });
    expect(dirty).toMatchObject({
      stagingFilesOnDisk: 2,
      tempLogFilesOnDisk: 1,
      dataFilesOnDisk: clean.dataFilesOnDisk,
      rows: clean.rows,
      version: clean.version,
    });

    const results = validateResults(
      {
        createdAt: '2025-01-01T00:00:00Z',
        scale: 0.01,
        dataSource: 'synthetic',
        versions: {},
        dataDir: '.',
        cases: [{ id: 'B1', runs: [{ index: 1, writers: [], table: dirty }] }],
      },
      'results.json',
    );
    expect(results.cases[0]?.runs[0]?.table).toMatchObject({ stagingFilesOnDisk: 2, tempLogFilesOnDisk: 1 });

    const v = await vacuum(await DeltaTable.open(table), {
      retentionHours: 0,
      enforceRetentionDuration: false,
      dryRun: false,
    });
    expect(v.leftovers).toHaveLength(3);
    expect(await checkTable(table, { januaryFile: dataset.january })).toEqual(clean);
  });
});
