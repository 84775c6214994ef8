/**
 * The S3 store against faults a healthy radosgw does not produce, injected by a proxy in front of
 * it (test/helpers/s3-fault-proxy.ts): 409 ConditionalRequestConflict, 503, a connection lost
 * mid-commit with and without the object landing. The claim stays exact: a version is ours only if
 * our bytes are there, and a failed claim leaves no log entry and a readable table.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFLICT_RETRIES,
  DeltaTable,
  latestVersion,
  S3ObjectStore,
  StorageError,
  s3ConfigFromEnv,
  storeFor,
} from '../src/index';
import { createLogOnlyTable } from '../test/helpers/log';
import { type S3FaultProxy, startS3FaultProxy } from '../test/helpers/s3-fault-proxy';
import { TAXI } from '../test/helpers/taxi';
import { s3Env, s3Root } from './env';

const root = s3Root('engine-faults');
let proxy: S3FaultProxy;
beforeAll(async () => {
  proxy = await startS3FaultProxy(s3Env().endpoint);
});
afterAll(async () => {
  await proxy.stop();
});

/** A store through the proxy; `maxAttempts: 1` shows the raw answer, the default lets the SDK retry. */
function storeAt(path: string, maxAttempts?: number): S3ObjectStore {
  const client = new S3Client({ ...s3ConfigFromEnv(), endpoint: proxy.endpoint, ...(maxAttempts && { maxAttempts }) });
  return new S3ObjectStore(`${root}/${path}`, { client, endpoint: proxy.endpoint });
}
const body = (s: string) => new TextEncoder().encode(s);
const key = (v: number) => `_delta_log/${String(v).padStart(20, '0')}.json`;
const puts = (k: string) => proxy.requests.filter((r) => r.method === 'PUT' && r.path.includes(k));
const conflict = { status: 409, code: 'ConditionalRequestConflict' };
const conditionalPut = (path: string) => ({ method: 'PUT', pathIncludes: `/${path}/`, header: 'if-none-match' });
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

describe('S3ObjectStore on faults', () => {
  it('sends the same conditional put again after 409 ConditionalRequestConflict, as AWS documents', async () => {
    const store = storeAt('conflict', 1);
    proxy.failNext({ ...conditionalPut('conflict'), times: 2 }, conflict);
    expect(await store.putIfAbsent(key(0), body('mine'))).toBe(true);
    expect(puts(`/conflict/${key(0)}`).map((r) => r.status)).toEqual([409, 409, 200]);
    // The retried put of a version someone else took answers 412: taken, into conflict checking.
    proxy.failNext(conditionalPut('conflict'), conflict);
    expect(await store.putIfAbsent(key(0), body('theirs'))).toBe(false);
  });

  it(`gives up after ${CONFLICT_RETRIES} retries with the error named`, async () => {
    const store = storeAt('conflict-forever', 1);
    proxy.failNext({ ...conditionalPut('conflict-forever'), times: CONFLICT_RETRIES + 1 }, conflict);
    await expect(store.putIfAbsent(key(0), body('x'))).rejects.toThrow(
      new StorageError(`S3 failed to create ${root}/conflict-forever/${key(0)}: ConditionalRequestConflict (HTTP 409)`),
    );
    expect(await store.head(key(0))).toBeNull();
  });

  it('rides out a 503 with the SDK retry', async () => {
    const store = storeAt('slowdown');
    proxy.failNext({ method: 'PUT', pathIncludes: '/slowdown/' }, { status: 503, code: 'SlowDown' });
    expect(await store.putIfAbsent(key(0), body('once'))).toBe(true);
    expect(puts(`/slowdown/${key(0)}`).map((r) => r.status)).toEqual([503, 200]);
  });

  it('knows its own version when the answer was lost but the object landed (the resent put gets 412)', async () => {
    const store = storeAt('lost-answer');
    proxy.failNext({ method: 'PUT', pathIncludes: '/lost-answer/' }, 'drop-after-forwarding');
    expect(await store.putIfAbsent(key(0), body('ours'))).toBe(true);
    expect(puts(`/lost-answer/${key(0)}`).map((r) => r.status)).toEqual([0, 412]);
    // Someone else's bytes at the key are never taken for ours.
    await storeFor(`${root}/lost-answer`).put(key(1), body('theirs'));
    proxy.failNext({ method: 'PUT', pathIncludes: '/lost-answer/' }, 'drop-before-forwarding');
    expect(await store.putIfAbsent(key(1), body('ours'))).toBe(false);
  });

  it('a server that stops answering mid-commit: a clear error, no log entry, the table still readable', async () => {
    const store = storeAt('mid-commit', 1);
    await createLogOnlyTable(store, TAXI);
    const table = await DeltaTable.open(store);
    proxy.failNext({ method: 'PUT', pathIncludes: '/mid-commit/' }, 'drop-before-forwarding');
    await expect(store.putIfAbsent(key(1), body('{}'))).rejects.toThrow(
      new RegExp(`^cannot reach S3 to create ${escaped(`${root}/mid-commit/`)}`),
    );
    expect(await latestVersion(store, -1)).toBe(0);
    expect((await DeltaTable.open(store)).version).toBe(table.version);
  });
});
