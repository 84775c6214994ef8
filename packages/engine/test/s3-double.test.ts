/**
 * The in-process S3 double, driven by the real @aws-sdk/client-s3: put-if-absent, listing order and
 * paging, the 404 shapes, aws-chunked stream bodies, and every fault knob as the SDK sees it.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type S3Double, startS3Double } from './helpers/s3-double';

let s3: S3Double;
let client: S3Client;
const Bucket = 'racelab';

beforeAll(async () => {
  s3 = await startS3Double();
  // maxAttempts 1: the tests look at raw answers, not at what the SDK's retries make of them.
  client = new S3Client({ ...s3.clientConfig(), maxAttempts: 1 });
});

afterEach(() => {
  s3.faults.reset();
});

afterAll(async () => {
  client.destroy();
  await s3.stop();
});

interface SdkFailure {
  name: string;
  status: number | undefined;
  message: string;
}

/** The SDK error a call ends in; fails the test if it succeeds. */
async function failure(call: Promise<unknown>): Promise<SdkFailure> {
  try {
    await call;
  } catch (e) {
    const err = e as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: err.name, status: err.$metadata?.httpStatusCode, message: err.message };
  }
  throw new Error('expected the call to fail');
}

const putIfAbsent = (Key: string, Body: string) =>
  client.send(new PutObjectCommand({ Bucket, Key, Body, IfNoneMatch: '*' }));
const text = (key: string) => s3.objects.get(key)?.body.toString('utf8');

describe('put-if-absent', () => {
  it('creates once, then answers 412 PreconditionFailed and keeps the first bytes', async () => {
    const key = '_delta_log/00000000000000000000.json';
    const first = await putIfAbsent(key, 'first');
    expect(first.$metadata.httpStatusCode).toBe(200);
    expect(first.ETag).toBe(`"${createHash('md5').update('first').digest('hex')}"`);

    const second = await failure(putIfAbsent(key, 'second'));
    expect(second).toMatchObject({ name: 'PreconditionFailed', status: 412 });
    expect(text(key)).toBe('first');

    // After a delete the key is free again.
    const deleted = await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    await putIfAbsent(key, 'third');
    expect(text(key)).toBe('third');
  });

  it('lets exactly one of 16 concurrent put-if-absent calls win', async () => {
    const key = '_delta_log/00000000000000000001.json';
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        putIfAbsent(key, `writer-${i}`).then(
          () => 'won',
          (e: Error) => e.name,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'PreconditionFailed')).toHaveLength(15);
    expect(text(key)).toBe(`writer-${outcomes.indexOf('won')}`);
    const puts = s3.requests.filter((r) => r.key === key);
    expect(puts.map((r) => r.status).sort()).toEqual([200, ...Array<number>(15).fill(412)]);
    expect(puts.every((r) => r.operation === 'PutObject' && r.ifNoneMatch === '*')).toBe(true);
  });

  it('If-Match replaces only the expected version; a missing key is 404 NoSuchKey', async () => {
    const key = 'if-match/a';
    const { ETag } = await client.send(new PutObjectCommand({ Bucket, Key: key, Body: 'v1' }));
    await client.send(new PutObjectCommand({ Bucket, Key: key, Body: 'v2', IfMatch: ETag }));
    expect(text(key)).toBe('v2');
    expect(
      await failure(client.send(new PutObjectCommand({ Bucket, Key: key, Body: 'v3', IfMatch: ETag }))),
    ).toMatchObject({ name: 'PreconditionFailed', status: 412 });
    expect(
      await failure(client.send(new PutObjectCommand({ Bucket, Key: 'if-match/none', Body: 'x', IfMatch: ETag }))),
    ).toMatchObject({ name: 'NoSuchKey', status: 404 });
    expect(text(key)).toBe('v2');
  });
});

describe('listing', () => {
  /** Every key of a ListObjectsV2 walk, following continuation tokens. */
  async function listAll(input: { Prefix?: string; StartAfter?: string; MaxKeys?: number; Delimiter?: string }) {
    const pages: ListObjectsV2CommandOutput[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, ...input, ContinuationToken }));
      pages.push(page);
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken !== undefined);
    return {
      pages,
      keys: pages.flatMap((p) => (p.Contents ?? []).map((c) => c.Key)),
      prefixes: pages.flatMap((p) => (p.CommonPrefixes ?? []).map((c) => c.Prefix)),
    };
  }

  it('returns keys after start-after under a prefix, in byte order, across small pages', async () => {
    const log = Array.from({ length: 7 }, (_, v) => `tbl/_delta_log/${String(v).padStart(20, '0')}.json`);
    // Insert out of order; add neighbours the prefix must exclude.
    for (const key of [...log].reverse()) s3.put(key, key);
    s3.put('tbl/_delta_log/_last_checkpoint', '{}');
    s3.put('tbl/part-0.parquet', 'x');
    s3.put('tbl2/_delta_log/00000000000000000000.json', 'x');

    const { pages, keys } = await listAll({ Prefix: 'tbl/_delta_log/', StartAfter: log[2], MaxKeys: 2 });
    expect(keys).toEqual([...log.slice(3), 'tbl/_delta_log/_last_checkpoint']);
    expect(pages.map((p) => p.KeyCount)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.IsTruncated)).toEqual([true, true, false]);
    const first = pages[0]?.Contents?.[0];
    expect(first).toMatchObject({ Key: log[3], Size: log[3]?.length, StorageClass: 'STANDARD' });
    expect(first?.ETag).toBe(s3.objects.get(log[3] as string)?.etag);
    expect(first?.LastModified).toBeInstanceOf(Date);
  });

  it('orders by UTF-8 bytes, not UTF-16 code units', async () => {
    // '\u{1F600}' is a surrogate pair (0xD83D…) so JS sorts it before '\uFF61'; in UTF-8 it comes after.
    for (const k of ['utf/\uFF61', 'utf/\u{1F600}', 'utf/Z', 'utf/a', 'utf/\u00E9']) s3.put(k, 'x');
    const { keys } = await listAll({ Prefix: 'utf/', MaxKeys: 2 });
    expect(keys).toEqual(['utf/Z', 'utf/a', 'utf/\u00E9', 'utf/\uFF61', 'utf/\u{1F600}']);
  });

  it('rolls sub-folders up into CommonPrefixes with a delimiter, paging through both', async () => {
    for (const k of ['dl/a.json', 'dl/b/1', 'dl/b/2', 'dl/c.json', 'dl/d/1', 'dl/e.json']) s3.put(k, 'x');
    const { keys, prefixes, pages } = await listAll({ Prefix: 'dl/', Delimiter: '/', MaxKeys: 2 });
    expect(keys).toEqual(['dl/a.json', 'dl/c.json', 'dl/e.json']);
    expect(prefixes).toEqual(['dl/b/', 'dl/d/']);
    expect(pages.map((p) => p.KeyCount)).toEqual([2, 2, 1]);
  });
});

describe('reads and the 404 shapes', () => {
  it('HeadObject of a missing key is NotFound; GetObject is NoSuchKey', async () => {
    expect(await failure(client.send(new HeadObjectCommand({ Bucket, Key: 'missing' })))).toMatchObject({
      name: 'NotFound',
      status: 404,
    });
    expect(await failure(client.send(new GetObjectCommand({ Bucket, Key: 'missing' })))).toMatchObject({
      name: 'NoSuchKey',
      status: 404,
    });
  });

  it('serves body, ETag, length, Last-Modified and ranges', async () => {
    const key = 'read/obj';
    const { ETag } = await client.send(
      new PutObjectCommand({ Bucket, Key: key, Body: 'hello world', ContentType: 'text/plain' }),
    );
    const got = await client.send(new GetObjectCommand({ Bucket, Key: key }));
    expect(await got.Body?.transformToString()).toBe('hello world');
    expect(got).toMatchObject({ ETag, ContentLength: 11, ContentType: 'text/plain' });
    expect(got.LastModified?.getTime()).toBe(s3.objects.get(key)?.lastModified.getTime());

    const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
    expect(head).toMatchObject({ ETag, ContentLength: 11 });

    const part = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: 'bytes=6-' }));
    expect(part.$metadata.httpStatusCode).toBe(206);
    expect(part.ContentRange).toBe('bytes 6-10/11');
    expect(await part.Body?.transformToString()).toBe('world');
  });

  it('stores a stream body (aws-chunked with a CRC32 trailer) decoded', async () => {
    const key = 'stream/obj';
    const Body = Readable.from([Buffer.from('hello '), Buffer.from('stream')]);
    // The SDK needs the length of a stream up front (x-amz-decoded-content-length).
    await client.send(new PutObjectCommand({ Bucket, Key: key, Body, ContentLength: 12 }));
    expect(text(key)).toBe('hello stream');
    expect(s3.objects.get(key)?.checksumCrc32).toBeDefined();
    // The SDK validates the CRC32 the double returns on a checksum-mode read.
    const got = await client.send(new GetObjectCommand({ Bucket, Key: key }));
    expect(await got.Body?.transformToString()).toBe('hello stream');
  });

  it('copies, deletes in bulk, and answers DeleteObject 204 for absent keys', async () => {
    s3.put('copy/src', 'payload');
    await client.send(new CopyObjectCommand({ Bucket, Key: 'copy/dst', CopySource: `${Bucket}/copy/src` }));
    expect(text('copy/dst')).toBe('payload');
    const gone = await client.send(new DeleteObjectCommand({ Bucket, Key: 'copy/never-there' }));
    expect(gone.$metadata.httpStatusCode).toBe(204);
    const bulk = await client.send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'copy/src' }, { Key: 'copy/dst' }] } }),
    );
    expect(bulk.Deleted?.map((d) => d.Key)).toEqual(['copy/src', 'copy/dst']);
    expect(s3.objects.has('copy/src') || s3.objects.has('copy/dst')).toBe(false);
  });

  it('answers NoSuchBucket for an unknown bucket, and creates buckets', async () => {
    expect(
      await failure(client.send(new PutObjectCommand({ Bucket: 'nope', Key: 'k', Body: 'x', IfNoneMatch: '*' }))),
    ).toMatchObject({ name: 'NoSuchBucket', status: 404 });
    expect(await failure(client.send(new ListObjectsV2Command({ Bucket: 'nope' })))).toMatchObject({
      name: 'NoSuchBucket',
      status: 404,
    });
    await client.send(new CreateBucketCommand({ Bucket: 'second' }));
    await client.send(new HeadBucketCommand({ Bucket: 'second' }));
    await client.send(new PutObjectCommand({ Bucket: 'second', Key: 'k', Body: 'x' }));
    expect(s3.objectsIn('second').get('k')?.body.toString()).toBe('x');
    expect(s3.buckets).toEqual(['racelab', 'second']);
  });
});

describe('faults', () => {
  it('conflictNextConditionalPuts: 409 ConditionalRequestConflict, nothing stored, then normal', async () => {
    const key = 'fault/conflict';
    s3.faults.conflictNextConditionalPuts(2);
    // An unconditional PUT does not use up the budget.
    await client.send(new PutObjectCommand({ Bucket, Key: 'fault/plain', Body: 'x' }));
    for (let i = 0; i < 2; i++) {
      expect(await failure(putIfAbsent(key, `try-${i}`))).toMatchObject({
        name: 'ConditionalRequestConflict',
        status: 409,
      });
    }
    expect(s3.objects.has(key)).toBe(false);
    await putIfAbsent(key, 'try-2');
    expect(text(key)).toBe('try-2');
  });

  it('failNext: the next n requests of any kind fail with the given status and code', async () => {
    s3.put('fault/fail', 'x');
    s3.faults.failNext(2);
    expect(await failure(client.send(new GetObjectCommand({ Bucket, Key: 'fault/fail' })))).toMatchObject({
      name: 'SlowDown',
      status: 503,
    });
    expect(await failure(putIfAbsent('fault/fail-new', 'x'))).toMatchObject({ name: 'SlowDown', status: 503 });
    expect(s3.objects.has('fault/fail-new')).toBe(false);
    await putIfAbsent('fault/fail-new', 'x');

    s3.faults.failNext(1, 500, 'InternalError');
    expect(await failure(client.send(new ListObjectsV2Command({ Bucket })))).toMatchObject({
      name: 'InternalError',
      status: 500,
    });

    // The SDK's default retry strategy (3 attempts) rides over one 503.
    const retrying = new S3Client(s3.clientConfig());
    try {
      s3.faults.failNext(1);
      const before = s3.requests.length;
      const got = await retrying.send(new GetObjectCommand({ Bucket, Key: 'fault/fail' }));
      expect(await got.Body?.transformToString()).toBe('x');
      expect(got.$metadata.attempts).toBe(2);
      expect(s3.requests.slice(before).map((r) => r.status)).toEqual([503, 200]);
    } finally {
      retrying.destroy();
    }
  });

  it('delay: adds latency to every answer', async () => {
    s3.put('fault/slow', 'x');
    s3.faults.delay(250);
    const started = performance.now();
    await client.send(new HeadObjectCommand({ Bucket, Key: 'fault/slow' }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(245);
    s3.faults.reset();
    const again = performance.now();
    await client.send(new HeadObjectCommand({ Bucket, Key: 'fault/slow' }));
    expect(performance.now() - again).toBeLessThan(245);
  });

  it('dropConnectionOnNextPut: no answer and nothing stored; with afterStoring the write lands unseen', async () => {
    s3.faults.dropConnectionOnNextPut();
    const dropped = await failure(putIfAbsent('fault/drop', 'lost'));
    expect(dropped.status).toBeUndefined(); // no HTTP answer at all
    expect(s3.objects.has('fault/drop')).toBe(false);
    expect(s3.requests.at(-1)).toMatchObject({ key: 'fault/drop', operation: 'PutObject', status: 0 });
    await putIfAbsent('fault/drop', 'second try'); // only one PUT is dropped
    expect(text('fault/drop')).toBe('second try');

    s3.faults.dropConnectionOnNextPut({ afterStoring: true });
    await failure(putIfAbsent('fault/drop-late', 'landed'));
    expect(text('fault/drop-late')).toBe('landed');
    // The ambiguous commit: the writer's retry now finds its own object in the way.
    expect(await failure(putIfAbsent('fault/drop-late', 'landed'))).toMatchObject({ name: 'PreconditionFailed' });
  });

  it('reset turns every knob off', async () => {
    s3.faults.conflictNextConditionalPuts(5);
    s3.faults.failNext(5);
    s3.faults.delay(1000);
    s3.faults.dropConnectionOnNextPut();
    s3.faults.reset();
    const started = performance.now();
    await putIfAbsent('fault/reset', 'ok');
    expect(performance.now() - started).toBeLessThan(500);
    expect(text('fault/reset')).toBe('ok');
  });
});

describe('stop', () => {
  it('closes open connections and frees the port', async () => {
    const own = await startS3Double({ buckets: ['b'] });
    const c = new S3Client({ ...own.clientConfig(), maxAttempts: 1 });
    try {
      await c.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: 'x' })); // leaves a keep-alive socket
      await own.stop();
      await expect(c.send(new HeadObjectCommand({ Bucket: 'b', Key: 'k' }))).rejects.toThrow();
      const probe = createServer();
      await new Promise<void>((resolve, reject) => {
        probe.once('error', reject);
        probe.listen(own.port, '127.0.0.1', resolve);
      });
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    } finally {
      c.destroy();
    }
  });
});
