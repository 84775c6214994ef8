/**
 * The fault proxy's lying modes in front of radosgw: what a client sees of a conditional put on a
 * key that already exists, and what the key holds afterwards. radosgw itself refuses with 412 and
 * keeps the first bytes; each mode must break exactly that, the way a lying store would.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ConfigFromEnv } from '../src/index';
import { type LyingMode, type S3FaultProxy, startS3FaultProxy } from '../test/helpers/s3-fault-proxy';
import { s3Env } from './env';

const prefix = `engine-lying-${process.pid}-${Date.now()}`;
let proxy: S3FaultProxy;
let client: S3Client;
beforeAll(async () => {
  proxy = await startS3FaultProxy(s3Env().endpoint);
  // One attempt: the raw answer, not the SDK's retry of it.
  client = new S3Client({ ...s3ConfigFromEnv(), endpoint: proxy.endpoint, maxAttempts: 1 });
});
afterAll(async () => {
  proxy.lie(null);
  await proxy.stop();
});

const put = (key: string, body: string, conditional: boolean) =>
  client
    .send(
      new PutObjectCommand({
        Bucket: s3Env().bucket,
        Key: `${prefix}/${key}`,
        Body: body,
        ...(conditional && { IfNoneMatch: '*' }),
      }),
    )
    .then(
      () => 200,
      (e: { $metadata?: { httpStatusCode?: number } }) => e.$metadata?.httpStatusCode ?? 0,
    );
const read = async (key: string) => {
  const got = await client.send(new GetObjectCommand({ Bucket: s3Env().bucket, Key: `${prefix}/${key}` }));
  return got.Body?.transformToString();
};

/** The mode under test, then a conditional put over an existing key: its answer and what the key holds. */
async function overwriteAttempt(mode: LyingMode | null, key: string) {
  proxy.lie(null);
  expect(await put(key, 'first', true)).toBe(200);
  proxy.lie(mode);
  const status = await put(key, 'second', true);
  proxy.lie(null);
  return { status, holds: await read(key) };
}

describe('the S3 fault proxy in front of radosgw', () => {
  it('honest (no lie): radosgw refuses the second conditional put with 412 and keeps the first bytes', async () => {
    expect(await overwriteAttempt(null, 'honest')).toEqual({ status: 412, holds: 'first' });
  });

  it('lying (ignore-if-none-match): the header is dropped and re-signed, radosgw overwrites and answers 200', async () => {
    expect(await overwriteAttempt('ignore-if-none-match', 'ignore')).toEqual({ status: 200, holds: 'second' });
    // Only conditional requests are touched: a plain put still passes the signature check.
    proxy.lie('ignore-if-none-match');
    expect(await put('ignore-plain', 'x', false)).toBe(200);
  });

  it('lying (precondition-failed-as-ok): the refusal reaches the client as 200, the bytes stay', async () => {
    expect(await overwriteAttempt('precondition-failed-as-ok', 'as-ok')).toEqual({ status: 200, holds: 'first' });
  });

  it('lying (lose-answer-after-write): a new key lands but its answer never arrives', async () => {
    proxy.lie('lose-answer-after-write');
    expect(await put('lost', 'landed', true)).toBe(0);
    proxy.lie(null);
    expect(await read('lost')).toBe('landed');
    expect(proxy.requests.filter((r) => r.path.includes(`${prefix}/lost`)).map((r) => r.status)).toEqual([0, 200]);
  });
});
