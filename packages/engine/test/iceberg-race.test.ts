/**
 * The lesson's race for real: two node processes append to the same table through one SQLite catalog
 * file. Both load and write their data file, wait at a stdin barrier, then commit.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendParquetToIcebergTable, createIcebergTable } from '../src/ops/iceberg/append';
import { scanIcebergTable } from '../src/ops/iceberg/scan';
import { SqliteCatalog } from '../src/ops/iceberg/sqlite-catalog';
import { openIcebergTable } from '../src/ops/iceberg/table';
import { writeTripsParquet } from './helpers/iceberg';
import { raceProcesses, releaseInOrder } from './helpers/processes';
import { tempDir } from './helpers/tmp';

const WORKER = fileURLToPath(new URL('./helpers/iceberg-append-worker.ts', import.meta.url));
const dir = tempDir('iceberg-race');
const db = join(dir, 'catalog.db');
let catalog: SqliteCatalog;
let source: string;
let other: string;

beforeAll(async () => {
  catalog = await SqliteCatalog.open({ path: db, warehouse: join(dir, 'wh') });
  source = await writeTripsParquet(join(dir, 'jan15.parquet'), 1, 10);
  other = await writeTripsParquet(join(dir, 'other.parquet'), 100, 4);
});
afterAll(() => catalog.close());

/** The base table (the Jan 15 trips), so the loser's message is "has changed" rather than "created concurrently". */
async function baseTable(id: string, properties: Record<string, string>): Promise<string> {
  await createIcebergTable(catalog, id, { schemaFrom: source, properties });
  return (await appendParquetToIcebergTable(catalog, id, [source])).snapshotId;
}

type Out = { snapshotId: string; attempts?: number; warnings?: string[]; error?: string; name?: string };
const parse = (r: { code: number | null; out: string[] }): Out => {
  expect(r.code).toBe(0);
  return JSON.parse(r.out[0] as string) as Out;
};

describe('two processes on a SQLite catalog', () => {
  it('with default retries both commit and exactly one warns', async () => {
    const base = await baseTable('lab.race_default', {});
    const outs = (await raceProcesses(WORKER, () => [db, 'lab.race_default', source], 2)).map(parse);
    expect(outs.map((o) => o.error)).toEqual([undefined, undefined]);
    const warnings = outs.flatMap((o) => o.warnings ?? []);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Commit failed due to a concurrent update, retrying \(1\/4\) in 1(0\d|10) ms$/);
    expect(outs.map((o) => o.attempts).sort()).toEqual([1, 2]);
    const t = await openIcebergTable(catalog, 'lab.race_default');
    expect(t.metadata.snapshots.map((s) => String(s['snapshot-id'])).sort()).toEqual(
      [base, ...outs.map((o) => o.snapshotId)].sort(),
    );
    expect((await scanIcebergTable(t)).rowCount).toBe(30);
  });

  it.each([0, 1])(
    'with commit.retry.num-retries 0 the later committer fails with "branch main has changed" (order %i)',
    async (order) => {
      const id = `lab.race_zero_${order}`;
      const base = await baseTable(id, { 'commit.retry.num-retries': '0' });
      // Worker i commits only after worker i-1 has; swapping the sources swaps which day arrives first.
      const days = order === 0 ? [source, other] : [other, source];
      const [first, second] = (await releaseInOrder(WORKER, (i) => [db, id, days[i] as string], 2)).map(parse) as [
        Out,
        Out,
      ];
      expect(first.error).toBeUndefined();
      expect(first.attempts).toBe(1);
      expect(second.name).toBe('CommitFailedException');
      expect(second.error).toBe(
        `Requirement failed: branch main has changed: expected id ${base}, found ${first.snapshotId}`,
      );
      const t = await openIcebergTable(catalog, id);
      expect(String(t.metadata['current-snapshot-id'])).toBe(first.snapshotId);
      expect((await scanIcebergTable(t)).rowCount).toBe(10 + (days[0] === source ? 10 : 4));
    },
  );
});
