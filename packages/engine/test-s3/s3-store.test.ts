/**
 * Tables on a real S3 server (radosgw): the version claim by PutObject with If-None-Match: *,
 * raced by 16 OS processes; the commit loop's retries across processes; every operation,
 * checkpoints and vacuum on an S3 table; and clear errors for a missing bucket and bad keys.
 */
import { fileURLToPath } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import {
  DeltaTable,
  deleteRows,
  field,
  optimize,
  S3ObjectStore,
  StorageError,
  type StructType,
  s3ConfigFromEnv,
  storeFor,
  update,
  vacuum,
  writeDeltaTable,
} from '../src/index';
import { expectEveryAppendOnce, expectNoRetryFailure } from '../test/helpers/commit-races';
import { raceProcesses } from '../test/helpers/processes';
import { s3Env, s3Root } from './env';

const helper = (name: string) => fileURLToPath(new URL(`../test/helpers/${name}`, import.meta.url));
const root = s3Root('engine');
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('S3ObjectStore on radosgw', () => {
  it('claims a key once: the second put-if-absent gets 412 and leaves the first bytes', async () => {
    const store = storeFor(`${root}/once`);
    expect(store).toBeInstanceOf(S3ObjectStore);
    const key = '_delta_log/00000000000000000000.json';
    expect(await store.putIfAbsent(key, new TextEncoder().encode('first'))).toBe(true);
    expect(await store.putIfAbsent(key, new TextEncoder().encode('second'))).toBe(false);
    expect(text(await store.get(key))).toBe('first');
    expect((await store.list('_delta_log/')).map((o) => o.key)).toEqual([key]);
  });

  it('lists after a key, in order, and only one folder deep unless asked', async () => {
    const store = storeFor(`${root}/listing`);
    for (const k of ['_delta_log/00000000000000000002.json', '_delta_log/00000000000000000000.json', 'a/b.parquet']) {
      await store.put(k, new Uint8Array([1]));
    }
    const after = await store.list('_delta_log/', { startAfter: '_delta_log/00000000000000000000.json' });
    expect(after.map((o) => o.key)).toEqual(['_delta_log/00000000000000000002.json']);
    expect((await store.list('')).map((o) => o.key)).toEqual([]);
    expect((await store.list('', { recursive: true })).map((o) => o.key)).toHaveLength(3);
  });

  it('lets exactly one of 16 processes claim a version', async () => {
    const location = `${root}/race16`;
    const results = await raceProcesses(
      helper('put-worker.ts'),
      (i) => [location, '_delta_log/00000000000000000001.json', `writer-${i}`],
      16,
    );
    expect(results.map((r) => r.code)).toEqual(Array(16).fill(0));
    const outcomes = results.map((r) => r.out[0]);
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'lost')).toHaveLength(15);
    const winner = outcomes.indexOf('won');
    expect(text(await storeFor(location).get('_delta_log/00000000000000000001.json'))).toBe(`writer-${winner}`);
  });

  it('moves each of 8 racing appenders to a free version: contiguous versions, every append once', () =>
    expectEveryAppendOnce(`${root}/append8`, 8));

  it('fails at once with "Failed to commit transaction: 0" when retries are off and the table moved', () =>
    expectNoRetryFailure(`${root}/noretry`));
});

describe('a Delta table on S3', () => {
  const schema: StructType = {
    type: 'struct',
    fields: [field('id', 'long'), field('VendorID', 'integer'), field('tip', 'double')],
  };
  const rows = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: from + i, VendorID: (i % 2) + 1, tip: 1 }));

  it('writes, appends, updates, deletes, compacts, checkpoints, time-travels and vacuums', async () => {
    const location = `${root}/ops`;
    await writeDeltaTable(
      location,
      { kind: 'rows', schema, rows: rows(0, 10) },
      {
        configuration: { 'delta.checkpointInterval': '3' },
      },
    );
    await writeDeltaTable(location, { kind: 'rows', schema, rows: rows(10, 10) }, { mode: 'append' });
    let t = await DeltaTable.open(location);
    await update(t, { predicate: 'VendorID = 1', set: { tip: 'tip + 1' } });
    t = await DeltaTable.open(location);
    await deleteRows(t, 'id >= 18');
    t = await DeltaTable.open(location);
    expect(t.version).toBe(3);
    // Checkpoints (every 3rd version here) are written to S3, _last_checkpoint names the newest.
    const store = storeFor(location);
    const checkpoints = (await store.list('_delta_log/'))
      .map((o) => /^_delta_log\/(\d{20})\.checkpoint\.parquet$/.exec(o.key)?.[1])
      .filter((v) => v !== undefined)
      .map(Number);
    expect(checkpoints.length).toBeGreaterThan(0);
    expect(JSON.parse(text(await store.get('_delta_log/_last_checkpoint'))).version).toBe(Math.max(...checkpoints));
    expect(await t.count()).toBe(18);
    expect(await t.count('tip = 2')).toBe(9);
    await optimize(t);
    t = await DeltaTable.open(location);
    expect(t.activeFiles()).toHaveLength(1);
    expect(await t.count()).toBe(18);
    const v0 = await DeltaTable.open(location, { version: 0 });
    expect(await v0.count()).toBe(10);
    // Every file the log removed is still there until vacuum with no retention deletes it.
    // Data files only: vacuum's own commits may bring a new checkpoint into _delta_log.
    const dataFiles = async () =>
      (await store.list('', { recursive: true })).filter(
        (o) => o.key.endsWith('.parquet') && !o.key.startsWith('_delta_log/'),
      ).length;
    const before = await dataFiles();
    const result = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    const after = await dataFiles();
    expect(result.files.length).toBeGreaterThan(0);
    expect(after).toBe(before - result.files.length);
    expect(await (await DeltaTable.open(location)).count()).toBe(18);
  });
});

describe('refused with a clear error, nothing half written', () => {
  it('a bucket that does not exist', async () => {
    const store = storeFor('s3://no-such-bucket-racelab/t');
    await expect(store.putIfAbsent('_delta_log/00000000000000000000.json', new Uint8Array([1]))).rejects.toThrow(
      new StorageError(
        "bucket 'no-such-bucket-racelab' does not exist (create s3://no-such-bucket-racelab/t/_delta_log/00000000000000000000.json)",
      ),
    );
  });

  it('wrong credentials', async () => {
    const client = new S3Client({
      ...s3ConfigFromEnv(),
      credentials: { accessKeyId: 'nobody', secretAccessKey: 'wrong' },
    });
    const store = new S3ObjectStore(`s3://${s3Env().bucket}/creds`, { client, endpoint: s3Env().endpoint });
    await expect(store.list('_delta_log/')).rejects.toThrow(
      /^S3 refused the credentials for s3:\/\/\S+\/creds\/_delta_log\/ \(InvalidAccessKeyId\) while trying to list$/,
    );
  });
});
