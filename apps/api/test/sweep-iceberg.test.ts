/**
 * Iceberg sweeps over the API, against real Postgres with the API and a worker as separate processes: startSweep
 * takes `tableFormat` and `catalog`; what Iceberg cannot do (an operation other than append-row, the Postgres
 * catalog, an S3 table root) is refused with every problem before anything is stored or queued; a small Iceberg sweep runs in the
 * worker, and its input and checked results read back with the format and catalog it ran on.
 */
import type { SweepPoint } from '@racelab/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const START = `mutation($input: StartSweepInput!) { startSweep(input: $input) { id status total input {
  operation tableFormat catalog policy { name } } } }`;
const PROGRESS = `subscription($id: ID!) { sweepProgress(id: $id) { status reason } }`;
const SWEEP = `query($id: ID!) { sweep(id: $id) { status input { tableFormat catalog } results { points { writers
  commits { acknowledged failed intended } attempts { total } checks { versionsContiguous exactlyOnce lost duplicated
  wrongVersion failedPresent verdict verdictNote } } forecast { model atPoints { writers successPerAttempt } } } } }`;

type ReadPoint = Pick<SweepPoint, 'writers' | 'commits' | 'attempts' | 'checks'>;

let stack: Stack;
const BUCKET = 'iceberg-sweep-test';
beforeAll(async () => {
  // A configured bucket, so that a tableRoot there passes its own check and only the format refuses it.
  stack = await startStack({
    LAB_S3_BUCKETS: BUCKET,
    AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
    AWS_ACCESS_KEY_ID: 'sweep-test',
    AWS_SECRET_ACCESS_KEY: 'sweep-test',
    AWS_REGION: 'us-east-1',
  });
});
afterAll(async () => {
  await stack?.stop();
});

const stored = async () => {
  const [sweeps] = await stack.sql<{ n: number }>('SELECT count(*)::int AS n FROM "Sweep"');
  const [jobs] = await stack.sql<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'sweep'");
  return { sweeps: sweeps?.n, jobs: jobs?.n };
};

describe('startSweep with tableFormat iceberg', () => {
  it('refuses what Iceberg cannot do, naming what it supports, before anything is stored or queued', async () => {
    const before = await stored();
    const r = await gql(
      stack.apiUrl,
      START,
      { input: { writers: [2], operation: 'compaction', tableFormat: 'iceberg', catalog: 'postgres' } },
      stack.token,
    );
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.extensions?.problems).toEqual([
      'operation compaction is not supported on Iceberg: Iceberg sweeps support append-row',
      'catalog postgres is not supported by sweeps yet: Iceberg sweeps commit through the SQLite catalog',
    ]);
    const unknown = await gql(
      stack.apiUrl,
      START,
      { input: { writers: [2], operation: 'append-row', tableFormat: 'hudi' } },
      stack.token,
    );
    expect(unknown.errors?.[0]?.extensions?.problems).toEqual([
      "tableFormat must be one of delta, iceberg, got 'hudi'",
    ]);
    expect(await stored()).toEqual(before);
  });

  it('runs N = 2 x K = 2 Iceberg appends in the worker: every append once, the forecast beside them', async () => {
    const input = { writers: [2], commitsPerWriter: 2, operation: 'append-row', policy: { name: 'delta-rs' } };
    const r = await gql<{ startSweep: { id: string; input: unknown } }>(
      stack.apiUrl,
      START,
      { input: { ...input, tableFormat: 'iceberg' } },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.startSweep.input).toEqual({
      operation: 'append-row',
      tableFormat: 'iceberg',
      catalog: 'sqlite',
      policy: { name: 'delta-rs' },
    });
    const id = r.data?.startSweep.id as string;
    for await (const d of subscribe<{ sweepProgress: { status: string; reason: string | null } }>(
      stack.apiUrl,
      PROGRESS,
      { id },
    )) {
      if (['DONE', 'FAILED', 'CANCELLED'].includes(d.sweepProgress.status)) {
        expect(d.sweepProgress).toEqual({ status: 'DONE', reason: null });
      }
    }
    const read = await gql<{
      sweep: {
        status: string;
        input: unknown;
        results: { points: ReadPoint[]; forecast: { model: string; atPoints: { writers: number }[] } | null };
      };
    }>(stack.apiUrl, SWEEP, { id });
    expect(read.errors).toBeUndefined();
    expect(read.data?.sweep.input).toEqual({ tableFormat: 'iceberg', catalog: 'sqlite' });
    const [point] = read.data?.sweep.results.points ?? [];
    expect(point?.commits).toEqual({ acknowledged: 4, failed: 0, intended: 4 });
    expect(point?.checks).toMatchObject({
      versionsContiguous: true,
      exactlyOnce: true,
      lost: 0,
      duplicated: 0,
      wrongVersion: 0,
      failedPresent: 0,
      verdict: 'serial',
    });
    expect(point?.checks.verdictNote).toContain('on branch main (4)');
    expect(read.data?.sweep.results.forecast?.atPoints.map((f) => f.writers)).toEqual([2]);

    // A Delta sweep's input reads back as Delta, with no catalog.
    const delta = await gql<{ startSweep: { id: string; input: unknown } }>(
      stack.apiUrl,
      START,
      { input },
      stack.token,
    );
    expect(delta.data?.startSweep.input).toMatchObject({ tableFormat: 'delta', catalog: null });
    const cancelled = await gql(
      stack.apiUrl,
      'mutation($id: ID!) { cancelSweep(id: $id) { id } }',
      { id: delta.data?.startSweep.id },
      stack.token,
    );
    expect(cancelled.errors).toBeUndefined();
  }, 180_000);
});
