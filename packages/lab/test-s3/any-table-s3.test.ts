/**
 * A race on copies of a table of one's own that lives on S3 (radosgw): the deletion-vector golden table put in
 * the bucket, raced by two updates whose run tables are server-side copies under a table root in the same bucket.
 * The source's objects (keys and bytes) are the same afterwards, the run copies are gone, and a table whose
 * copies would be made outside its bucket is refused before anything is copied.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DeltaTable, storeFor } from '@racelab/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { s3Env, s3Root } from '../../engine/test-s3/env';
import { CaseInputError } from '../src/cases/custom';
import { locationCase } from '../src/cases/location';
import { runLab } from '../src/lab';
import { copyRefusals } from '../src/tables/copy-refusals';
import type { LocationConfig } from '../src/tables/locations';

const DV_TABLE = fixture('delta-golden', 'table-with-dv-small');
const work = join(tmpdir(), `racelab-any-table-s3-${process.pid}`);
const root = s3Root('any-table');
const source = `${root}/tables/dv`;
const tableRoot = `${root}/runs-root`;
let cfg: LocationConfig;

/** Every object under `location`: its key and a hash of its bytes. */
async function objectHashes(location: string): Promise<Record<string, string>> {
  const store = storeFor(location);
  const out: Record<string, string> = {};
  for (const { key } of await store.list('', { recursive: true })) {
    out[key] = createHash('sha256')
      .update(await store.get(key))
      .digest('hex');
  }
  return out;
}

beforeAll(async () => {
  mkdirSync(work, { recursive: true, mode: 0o755 });
  cfg = { roots: [join(work, 'tables')], workDir: work, buckets: [s3Env().bucket] };
  const store = storeFor(source);
  for (const name of readdirSync(DV_TABLE, { recursive: true, encoding: 'utf8' })) {
    const path = join(DV_TABLE, name);
    if (statSync(path).isFile()) await store.put(relative(DV_TABLE, path), readFileSync(path));
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('S3: two updates race on server-side copies in the same bucket; verdicts, the source objects unchanged', async () => {
  const before = await objectHashes(source);
  const c = await locationCase(
    {
      location: source,
      writers: [
        { name: 'low', operation: 'update', predicate: 'value = 1', set: { value: 'value + 100' } },
        { name: 'high', operation: 'update', predicate: 'value = 8', set: { value: 'value + 200' } },
      ],
    },
    cfg,
    { tableRoot },
  );
  const results = await runLab({ cases: [c], runs: 1, scale: 0.01, workDir: work, tableRoot, roots: cfg.roots });
  const run = results.cases[0]?.runs[0];
  expect(run?.writers.map((w) => w.name).sort()).toEqual(['high', 'low']);
  expect(run?.writers.some((w) => w.committed)).toBe(true);
  expect(run?.verdict?.status).toBeDefined();
  // The table's 10 written rows less the 2 its deletion vector deletes; an update keeps the row count.
  expect(run?.table.rows).toBe(8);
  expect(await objectHashes(source)).toEqual(before);
  const left = (await storeFor(tableRoot).list('', { recursive: true })).map((o) => o.key);
  expect(left.filter((k) => k.startsWith('runs/'))).toEqual([]);
});

it('S3: copies outside the table bucket are refused up front, naming what to change', async () => {
  const table = await DeltaTable.open(source);
  const problems = await copyRefusals(table, { runsDir: join(work, 'runs'), display: 's3 dv' });
  expect(problems.join(' ')).toMatch(/s3 dv.*bucket/);
  await expect(
    locationCase(
      {
        location: source,
        writers: [
          { name: 'a', operation: 'optimize' },
          { name: 'b', operation: 'optimize' },
        ],
      },
      cfg,
    ),
  ).rejects.toBeInstanceOf(CaseInputError);
});
