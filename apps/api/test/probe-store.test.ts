/**
 * probeStore over the real API process, without an S3 server (the probe on radosgw is run by the
 * S3 suite through the engine and the CLI, which share the code this field calls): it needs a
 * token; a location outside LAB_S3_BUCKETS, a local path and numbers over the API's bounds are
 * refused before any request reaches a store; a store that drops every connection gives a kept
 * report whose verdict is could-not-run, listed by storeProbes.
 *
 * "The store" is a TCP server of the test's own that counts connections and closes each at once,
 * so "before any request" is a count, not a belief.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const BUCKET = 'probe-bucket';
const PROBE = `mutation($location: String!, $rounds: Int, $writers: Int) {
  probeStore(location: $location, rounds: $rounds, writers: $writers) {
    id location verdict summary rounds writers leftover checks { id outcome } latency { call }
  } }`;
const LIST = `{ storeProbes { id verdict location summary } }`;

let stack: Stack;
let store: Server;
let connections = 0;

beforeAll(async () => {
  store = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => store.listen(0, '127.0.0.1', r));
  const { port } = store.address() as { port: number };
  stack = await startStack({
    LAB_S3_BUCKETS: BUCKET,
    AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'probe-test',
    AWS_SECRET_ACCESS_KEY: 'probe-test',
    AWS_REGION: 'us-east-1',
  });
});
afterAll(async () => {
  await stack?.stop();
  await new Promise((r) => store.close(r));
});

const rows = async () => Number((await stack.sql<{ n: string }>('SELECT count(*) AS n FROM "StoreProbe"'))[0]?.n);

describe('probeStore', () => {
  it('needs a token: refused, nothing probed or kept', async () => {
    const r = await gql(stack.apiUrl, PROBE, { location: `s3://${BUCKET}/x` });
    expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect([connections, await rows()]).toEqual([0, 0]);
  });

  it('refuses a location outside LAB_S3_BUCKETS, a local path and numbers over its bounds before any request', async () => {
    const refusals = await Promise.all(
      [
        { location: 's3://someone-elses-bucket/x' },
        { location: 'tables/x' },
        { location: `s3://${BUCKET}/x`, rounds: 201 },
        { location: `s3://${BUCKET}/x`, writers: 1 },
      ].map((v) => gql(stack.apiUrl, PROBE, v, stack.token)),
    );
    expect(refusals.map((r) => [r.errors?.[0]?.extensions?.code, r.errors?.[0]?.message])).toEqual([
      [
        'BAD_USER_INPUT',
        `location: bucket 'someone-elses-bucket' is not configured; the configured buckets are ${BUCKET}`,
      ],
      ['BAD_USER_INPUT', 'probeStore needs an s3:// location in a configured bucket (LAB_S3_BUCKETS), got tables/x'],
      ['BAD_USER_INPUT', 'rounds: at most 200 over the API, got 201'],
      ['BAD_USER_INPUT', 'writers must be a whole number from 2 to 32, got 1'],
    ]);
    expect([connections, await rows()]).toEqual([0, 0]);
  });

  it('a store that drops every connection: a kept report, could-not-run, every check not run', async () => {
    const r = await gql<{ probeStore: Record<string, unknown> }>(
      stack.apiUrl,
      PROBE,
      { location: `s3://${BUCKET}/team/probe`, rounds: 2 },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    const probe = r.data?.probeStore ?? {};
    expect(probe).toMatchObject({
      location: `s3://${BUCKET}/team/probe`,
      verdict: 'could-not-run',
      rounds: 2,
      writers: 8,
    });
    expect(probe.summary).toMatch(/^could not run: writing team\/probe\/racelab-probe-[^/]+\/hello: cannot reach /);
    expect(probe.checks).toEqual(
      ['existing-key-refused', 'one-winner', 'refused-put-keeps-bytes', 'read-after-write'].map((id) => ({
        id,
        outcome: 'not-run',
      })),
    );
    expect(connections).toBeGreaterThan(0);
    const list = await gql<{ storeProbes: { id: string; verdict: string }[] }>(stack.apiUrl, LIST);
    expect(list.data?.storeProbes.map((p) => [p.id, p.verdict])).toEqual([[probe.id, 'could-not-run']]);
  });
});
