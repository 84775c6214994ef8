/**
 * A sweep on radosgw: N = 1, 2 writer processes, K = 2 one-row appends each, under delta-rs's policy, on tables
 * under an S3 table root. Every commit lands once at the version its writer was told, the versions are contiguous,
 * the rows replay serially, and each point's table is gone afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSweepResults } from '@racelab/contracts';
import { storeFor } from '@racelab/engine';
import { afterAll, expect, it } from 'vitest';
import { s3Root } from '../../engine/test-s3/env';
import { runSweep } from '../src/sweep/index';

const work = mkdtempSync(join(tmpdir(), 'racelab-sweep-s3-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('S3: a sweep at N = 1, 2 with K = 2 lands every commit exactly once and leaves no table', async () => {
  const tableRoot = s3Root('sweep');
  const r = await runSweep(
    { writers: [1, 2], commitsPerWriter: 2, operation: 'append-row', policy: 'delta-rs' },
    { workDir: work, tableRoot },
  );
  expect(checkSweepResults(r)).toMatchObject({ ok: true });
  expect(r.store).toBe('s3');
  for (const p of r.points) {
    expect(p.commits).toEqual({ acknowledged: p.writers * 2, failed: 0, intended: p.writers * 2 });
    expect(p.checks).toMatchObject({ versionsContiguous: true, exactlyOnce: true, verdict: 'serial' });
    // An attempt on S3 is a real round trip (list, then put-if-absent), never free.
    expect(p.measured.attemptMs.p50).toBeGreaterThan(0);
  }
  expect(await storeFor(tableRoot).list('', { recursive: true })).toEqual([]);
});
