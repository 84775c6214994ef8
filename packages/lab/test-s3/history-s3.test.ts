/**
 * The history audit on S3 (radosgw): a golden table written by Databricks put in the bucket reads as the same
 * history as its local copy (the commit files read with parallel GETs), and a commit file missing from the bucket
 * is a log-gap finding naming the object under the s3:// location as the user gave it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { storeFor } from '@racelab/engine';
import { beforeAll, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { s3Env, s3Root } from '../../engine/test-s3/env';
import { tableHistory } from '../src/audit/history/index';
import type { LocationConfig } from '../src/tables/locations';

const TABLE = fixture('delta-golden', 'checkpoints');
const root = s3Root('history');
let cfg: LocationConfig;

async function put(location: string): Promise<void> {
  const store = storeFor(location);
  for (const name of readdirSync(TABLE, { recursive: true, encoding: 'utf8' })) {
    const path = join(TABLE, name);
    if (statSync(path).isFile() && name !== 'expected.json') await store.put(relative(TABLE, path), readFileSync(path));
  }
}

beforeAll(async () => {
  cfg = { roots: [fixture('delta-golden')], workDir: fixture('delta-golden'), buckets: [s3Env().bucket] };
  await put(`${root}/whole`);
  await put(`${root}/gapped`);
  await storeFor(`${root}/gapped`).delete('_delta_log/00000000000000000005.json');
});

it('S3: the history of a table in the bucket is the history of its local copy', async () => {
  const local = await tableHistory(TABLE, { locations: cfg });
  const s3 = await tableHistory(`${root}/whole`, { locations: cfg });
  expect(s3.commits).toEqual(local.commits);
  expect(s3.summary).toEqual(local.summary);
  expect(s3.location).toBe(`${root}/whole`);
  expect(s3.commits.length).toBe(13);
  expect(s3.commits[1]?.writer).toMatchObject({ library: 'databricks' });
});

it('S3: a commit object missing from the bucket is a log-gap naming it', async () => {
  const h = await tableHistory(`${root}/gapped`, { locations: cfg });
  const gap = h.findings.find((f) => f.rule === 'log-gap');
  expect(gap).toMatchObject({ severity: 'error', versions: [5] });
  expect(gap?.evidence).toContain(`${root}/gapped/_delta_log/00000000000000000005.json`);
  expect(h.commits.map((c) => c.version)).not.toContain(5);
  expect(h.failed).toBe(true);
});
