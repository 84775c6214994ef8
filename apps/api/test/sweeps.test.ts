/**
 * Sweeps over the API, against real Postgres with the API and a worker as separate processes: a sweep beyond the
 * bounds is refused with every problem before anything is stored or queued; a mutation without a token is
 * refused; a small real sweep (N = 1, 2, K = 2, append-row) runs in the worker's writer processes, streams its
 * progress, and its stored results read back through `sweep(id)` and `sweeps` with the numbers the row holds.
 */

import { type AddressInfo, createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import type { SweepPoint, SweepResults } from '@racelab/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const START = `mutation($input: StartSweepInput!) { startSweep(input: $input) { id status done total input {
  writers commitsPerWriter operation seed policy { name maxCommitRetries appTries backoff { baseMs capMs jitter } } } } }`;
const PROGRESS = `subscription($id: ID!) { sweepProgress(id: $id) { status done total writers reason } }`;
const SWEEP = `query($id: ID!) { sweep(id: $id) { id status reason done total worker onS3 results { store
  points { writers durationMs commitsPerSec commits { acknowledged failed intended } failures { message count }
    attempts { total successPerAttempt histogram { attempts commits } } latencyMs { p50 p99 mean }
    wasted { bytes files orphanFiles } checks { versionsContiguous exactlyOnce lost duplicated verdict verdictNote } }
  forecast { model curve { writers successPerAttempt } error { successPerAttemptMeanAbs commitsPerSecMeanRel } } } } }`;

interface Progress {
  status: string;
  done: number;
  total: number;
  writers: number | null;
  reason: string | null;
}

/** What SWEEP selects of the results: a subset of the lab's, so the lab's types describe it. */
type ReadPoint = Pick<
  SweepPoint,
  'writers' | 'durationMs' | 'commitsPerSec' | 'commits' | 'failures' | 'attempts' | 'latencyMs' | 'wasted' | 'checks'
>;
interface ReadSweep {
  status: string;
  onS3: boolean;
  worker: string;
  results: { store: string; points: ReadPoint[]; forecast: { model: string } | null };
}

let stack: Stack;
/** An "S3 endpoint" that drops every connection: a sweep on a table root there fails inside the worker. */
let deadStore: Server;
const BUCKET = 'sweep-api-test';

beforeAll(async () => {
  deadStore = createServer((socket) => socket.destroy());
  await new Promise<void>((r) => deadStore.listen(0, '127.0.0.1', r));
  stack = await startStack({
    LAB_S3_BUCKETS: BUCKET,
    AWS_ENDPOINT_URL: `http://127.0.0.1:${(deadStore.address() as AddressInfo).port}`,
    AWS_ACCESS_KEY_ID: 'sweep-test',
    AWS_SECRET_ACCESS_KEY: 'sweep-test',
    AWS_REGION: 'us-east-1',
  });
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => deadStore?.close(r));
});

async function start(input: Record<string, unknown>): Promise<string> {
  const r = await gql<{ startSweep: { id: string } }>(stack.apiUrl, START, { input }, stack.token);
  expect(r.errors).toBeUndefined();
  return r.data?.startSweep.id as string;
}

/** The sweep's progress until it ends, or until `until` holds for an update (returned with all before it). */
async function follow(id: string, until: (p: Progress) => boolean = () => false): Promise<Progress[]> {
  const seen: Progress[] = [];
  for await (const d of subscribe<{ sweepProgress: Progress }>(stack.apiUrl, PROGRESS, { id })) {
    seen.push(d.sweepProgress);
    if (until(d.sweepProgress)) break;
  }
  return seen;
}

const stored = async () => {
  const [sweeps] = await stack.sql<{ n: number }>('SELECT count(*)::int AS n FROM "Sweep"');
  const [jobs] = await stack.sql<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'sweep'");
  return { sweeps: sweeps?.n, jobs: jobs?.n };
};

describe('startSweep', () => {
  it('refuses a sweep beyond the bounds with every problem, before anything is stored or queued', async () => {
    const before = await stored();
    const r = await gql(
      stack.apiUrl,
      START,
      { input: { writers: [65, 2], commitsPerWriter: 51, operation: 'append-row' } },
      stack.token,
    );
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.extensions?.problems).toEqual([
      'writers[0] must be a whole number from 1 to 64, got 65',
      'commitsPerWriter must be a whole number from 1 to 50, got 51',
      'the sweep makes 3417 commits (N x K over the points); at most 2000',
    ]);
    // Each bound within itself, over 2,000 commits in all.
    const total = await gql(
      stack.apiUrl,
      START,
      { input: { writers: [64, 32], commitsPerWriter: 50, operation: 'append-row', policy: { name: 'none' } } },
      stack.token,
    );
    expect(total.errors?.[0]?.extensions?.problems).toEqual([
      'the sweep makes 4800 commits (N x K over the points); at most 2000',
    ]);
    const custom = await gql(
      stack.apiUrl,
      START,
      { input: { writers: [2], operation: 'update-overlap', policy: { name: 'custom', maxCommitRetries: 3 } } },
      stack.token,
    );
    expect(custom.errors?.[0]?.extensions?.problems).toEqual([
      'policy.appTries must be a whole number from 1 to 1000, got nothing',
    ]);
    const bucket = await gql(
      stack.apiUrl,
      START,
      { input: { writers: [2], operation: 'append-row', tableRoot: 's3://someone-elses/sweeps' } },
      stack.token,
    );
    expect(bucket.errors?.[0]?.message).toMatch(/^tableRoot: /);
    // A scenario fixes writers, commits and operation: another writer count is refused, naming what it fixes.
    const scenario = await gql(
      stack.apiUrl,
      START,
      { input: { scenario: 'delta-rs-3736', writers: [4], policy: { name: 'none' } } },
      stack.token,
    );
    expect(scenario.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(scenario.errors?.[0]?.extensions?.problems).toEqual([
      'scenario delta-rs-3736 fixes writers [10], commitsPerWriter 50, operation "append-row": writers [4] conflicts with it (leave it out, or run without the scenario)',
    ]);
    expect(await stored()).toEqual(before);
  });

  it('needs a token, like startRace', async () => {
    const r = await gql(stack.apiUrl, START, { input: { writers: [1], operation: 'append-row' } });
    expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await stored()).toEqual({ sweeps: 0, jobs: 0 });
  });

  it('runs N = 1, 2 x K = 2 append-row in the worker: progress streams, results are stored and read back', async () => {
    const input = { writers: [1, 2], commitsPerWriter: 2, operation: 'append-row', policy: { name: 'delta-rs' } };
    const r = await gql<{ startSweep: { id: string; status: string; total: number; input: unknown } }>(
      stack.apiUrl,
      START,
      { input },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    const started = r.data?.startSweep;
    expect(started?.status).toBe('QUEUED');
    expect(started?.total).toBe(6);
    // Stored as checked: the preset resolved to its numbers, the seed defaulted.
    expect(started?.input).toEqual({
      writers: [1, 2],
      commitsPerWriter: 2,
      operation: 'append-row',
      seed: 1,
      policy: { name: 'delta-rs', maxCommitRetries: 15, appTries: 1, backoff: null },
    });
    const id = started?.id as string;
    const seen = await follow(id);
    const last = seen.at(-1);
    expect(last).toMatchObject({ status: 'DONE', done: 6, total: 6, writers: null, reason: null });
    expect(seen.some((p) => p.status === 'RUNNING')).toBe(true);
    // Progress only grows, and names the point that runs.
    const dones = seen.map((p) => p.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    expect(
      seen
        .filter((p) => p.status === 'RUNNING' && p.writers !== null)
        .every((p) => [1, 2].includes(p.writers as number)),
    ).toBe(true);

    const read = await gql<{ sweep: ReadSweep }>(stack.apiUrl, SWEEP, { id });
    expect(read.errors).toBeUndefined();
    const sweep = read.data?.sweep;
    expect(sweep?.status).toBe('DONE');
    expect(sweep?.onS3).toBe(false);
    const results = sweep?.results as ReadSweep['results'];
    expect(results.store).toBe('local');
    expect(results.points.map((p) => p.writers)).toEqual([1, 2]);
    expect(results.points.map((p) => p.commits)).toEqual([
      { acknowledged: 2, failed: 0, intended: 2 },
      { acknowledged: 4, failed: 0, intended: 4 },
    ]);
    for (const p of results.points) {
      expect(p.checks).toMatchObject({
        versionsContiguous: true,
        exactlyOnce: true,
        lost: 0,
        duplicated: 0,
        verdict: 'serial',
      });
      // Every acknowledged commit took at least one attempt, and the histogram counts each once.
      expect(p.attempts.histogram.reduce((n, b) => n + b.commits, 0)).toBe(p.commits.acknowledged);
      expect(p.attempts.total).toBeGreaterThanOrEqual(p.commits.acknowledged);
      expect(p.commitsPerSec).toBeGreaterThan(0);
    }
    // One writer never contends: every commit on its first attempt.
    expect(results.points[0]?.attempts).toMatchObject({
      total: 2,
      successPerAttempt: 1,
      histogram: [{ attempts: 1, commits: 2 }],
    });

    // What the API read is what the row holds, number for number.
    const [row] = await stack.sql<{ results: SweepResults; status: string }>(
      'SELECT results, status FROM "Sweep" WHERE id = $1',
      [id],
    );
    expect(row?.status).toBe('DONE');
    expect(row?.results.kind).toBe('racelab-sweep');
    expect(results.points.map((p) => [p.commitsPerSec, p.latencyMs, p.wasted])).toEqual(
      row?.results.points.map((p) => [p.commitsPerSec, p.latencyMs, p.wasted]),
    );
    expect(results.forecast?.model ?? null).toBe(row?.results.forecast?.model ?? null);

    const listed = await gql<{ sweeps: { id: string; status: string }[] }>(
      stack.apiUrl,
      '{ sweeps(last: 5) { id status } }',
    );
    expect(listed.data?.sweeps[0]).toEqual({ id, status: 'DONE' });
  });

  it('cancels a running sweep: its writers stop and it ends CANCELLED with the reason', async () => {
    const id = await start({ writers: [16, 32], commitsPerWriter: 40, operation: 'append-row' });
    await follow(id, (p) => p.status === 'RUNNING' && p.done > 0);
    const c = await gql<{ cancelSweep: { id: string } }>(
      stack.apiUrl,
      'mutation($id: ID!) { cancelSweep(id: $id) { id } }',
      { id },
      stack.token,
    );
    expect(c.errors).toBeUndefined();
    const last = (await follow(id)).at(-1);
    expect(last?.status).toBe('CANCELLED');
    expect(last?.reason).toBe("cancelled on request; the sweep's writer processes were killed");
    expect(last?.done).toBeLessThan(1920);
    const again = await gql(stack.apiUrl, 'mutation($id: ID!) { cancelSweep(id: $id) { id } }', { id }, stack.token);
    expect(again.errors?.[0]?.message).toBe(`sweep ${id} has already ended (CANCELLED)`);
  });

  it('a sweep that fails in its worker says why without the server’s folders or a stack trace', async () => {
    const id = await start({
      writers: [1],
      commitsPerWriter: 1,
      operation: 'append-row',
      tableRoot: `s3://${BUCKET}/sweeps`,
    });
    const last = (await follow(id)).at(-1);
    expect(last?.status).toBe('FAILED');
    const reason = last?.reason ?? '';
    // It says what it could not do, where: the bucket's location, never a local folder.
    expect(reason).toMatch(new RegExp(`^cannot reach S3 to list s3://${BUCKET}/sweeps/`));
    expect(reason).not.toContain(stack.dir);
    expect(reason).not.toContain(resolve(import.meta.dirname, '../../..'));
    expect(reason).not.toMatch(/\n\s+at /);
    const read = await gql<{ sweep: { status: string; reason: string; onS3: boolean } }>(
      stack.apiUrl,
      'query($id: ID!) { sweep(id: $id) { status reason onS3 } }',
      { id },
    );
    expect(read.data?.sweep).toEqual({ status: 'FAILED', reason, onS3: true });
  });
});
