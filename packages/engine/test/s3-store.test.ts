/**
 * The S3 store against faults a real server (radosgw, in `npm run test:s3`) does not produce, on
 * an in-process S3 double: 409 ConditionalRequestConflict, 503, a connection lost mid-commit with
 * and without the object landing. The claim stays exact: a version is ours only if our bytes are
 * there, and a failed claim leaves no log entry and a readable table.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_RETRIES, DeltaTable, latestVersion, S3ObjectStore, StorageError } from '../src/index';
import { createLogOnlyTable } from './helpers/log';
import { type S3Double, startS3Double } from './helpers/s3-double';
import { TAXI } from './helpers/taxi';

let double: S3Double;
beforeAll(async () => {
  double = await startS3Double();
});
afterAll(async () => {
  await double.stop();
});

/** A store on the double; `maxAttempts: 1` shows the raw answer, the default lets the SDK retry. */
function storeAt(path: string, maxAttempts?: number): S3ObjectStore {
  const client = new S3Client({
    ...double.clientConfig(),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(maxAttempts && { maxAttempts }),
  });
  return new S3ObjectStore(`s3://${double.bucket}/${path}`, { client, endpoint: double.endpoint });
}
const body = (s: string) => new TextEncoder().encode(s);
const key = (v: number) => `_delta_log/${String(v).padStart(20, '0')}.json`;
const puts = (k: string) => double.requests.filter((r) => r.operation === 'PutObject' && r.key.endsWith(k));

describe('S3ObjectStore on faults', () => {
  it('sends the same conditional put again after 409 ConditionalRequestConflict, as AWS documents', async () => {
    const store = storeAt('conflict', 1);
    double.faults.conflictNextConditionalPuts(2);
    expect(await store.putIfAbsent(key(0), body('mine'))).toBe(true);
    expect(puts(`conflict/${key(0)}`).map((r) => r.status)).toEqual([409, 409, 200]);
    // The retried put of a version someone else took answers 412: taken, into conflict checking.
    double.faults.conflictNextConditionalPuts(1);
    expect(await store.putIfAbsent(key(0), body('theirs'))).toBe(false);
  });

  it(`gives up after ${CONFLICT_RETRIES} retries with the error named`, async () => {
    const store = storeAt('conflict-forever', 1);
    double.faults.conflictNextConditionalPuts(CONFLICT_RETRIES + 1);
    await expect(store.putIfAbsent(key(0), body('x'))).rejects.toThrow(
      new StorageError(
        `S3 failed to create s3://racelab/conflict-forever/${key(0)}: ConditionalRequestConflict (HTTP 409)`,
      ),
    );
    expect(double.objects.has(`conflict-forever/${key(0)}`)).toBe(false);
  });

  it('rides out a 503 with the SDK retry', async () => {
    const store = storeAt('slowdown');
    double.faults.failNext(1, 503, 'SlowDown');
    expect(await store.putIfAbsent(key(0), body('once'))).toBe(true);
    expect(puts(`slowdown/${key(0)}`).map((r) => r.status)).toEqual([503, 200]);
  });

  it('knows its own version when the answer was lost but the object landed (the resent put gets 412)', async () => {
    const store = storeAt('lost-answer');
    double.faults.dropConnectionOnNextPut({ afterStoring: true });
    expect(await store.putIfAbsent(key(0), body('ours'))).toBe(true);
    expect(puts(`lost-answer/${key(0)}`).map((r) => r.status)).toEqual([0, 412]);
    // Someone else's bytes at the key are never taken for ours.
    double.put(`lost-answer/${key(1)}`, 'theirs');
    double.faults.dropConnectionOnNextPut();
    expect(await store.putIfAbsent(key(1), body('ours'))).toBe(false);
  });

  it('a server that stops answering mid-commit: a clear error, no log entry, the table still readable', async () => {
    const store = storeAt('mid-commit', 1);
    await createLogOnlyTable(store, TAXI);
    const table = await DeltaTable.open(store);
    double.faults.dropConnectionOnNextPut();
    await expect(store.putIfAbsent(key(1), body('{}'))).rejects.toThrow(
      /^cannot reach S3 to create s3:\/\/racelab\/mid-commit\//,
    );
    expect(await latestVersion(store, -1)).toBe(0);
    expect((await DeltaTable.open(store)).version).toBe(table.version);
  });
});
