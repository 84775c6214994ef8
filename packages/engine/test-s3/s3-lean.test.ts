/**
 * The lean sender of the commit path's requests (src/storage/s3-lean.ts) on radosgw: it answers as the SDK does,
 * the SDK sends none of what it handles, and whatever it cannot answer (refused credentials, a 503, a lost
 * answer) is left to the SDK, with the outcomes s3-faults.test.ts holds the SDK alone to.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ObjectStore, s3ConfigFromEnv } from '../src/index';
import { LeanS3, leanFromEnv } from '../src/storage/s3-lean';
import { type S3FaultProxy, startS3FaultProxy } from '../test/helpers/s3-fault-proxy';
import { s3Env, s3Root } from './env';

const root = s3Root('engine-lean');
const body = (s: string) => new TextEncoder().encode(s);
const key = (v: number) => `_delta_log/${String(v).padStart(20, '0')}.json`;
let proxy: S3FaultProxy;
beforeAll(async () => {
  proxy = await startS3FaultProxy(s3Env().endpoint);
});
afterAll(async () => {
  await proxy.stop();
});

/** An SDK client that counts the requests it sends (every attempt passes its finalizeRequest step). */
function countingClient(endpoint?: string): { client: S3Client; sent: () => number } {
  let sent = 0;
  const client = new S3Client({ ...s3ConfigFromEnv(), ...(endpoint && { endpoint }) });
  client.middlewareStack.add(
    (next) => (args) => {
      sent++;
      return next(args);
    },
    { step: 'finalizeRequest', name: 'countSends' },
  );
  return { client, sent: () => sent };
}

function leanAt(endpoint: string, secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY as string): LeanS3 {
  return new LeanS3(new URL(endpoint), process.env.AWS_REGION ?? 'us-east-1', {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID as string,
    secretAccessKey,
  });
}

describe('the lean sender', () => {
  it('is what the environment of these tests gives the shared client', () => {
    expect(leanFromEnv()).toBeInstanceOf(LeanS3);
    expect(leanFromEnv({ ...process.env, AWS_ENDPOINT_URL: undefined, AWS_ENDPOINT_URL_S3: undefined })).toBeNull();
    expect(leanFromEnv({ ...process.env, AWS_SECRET_ACCESS_KEY: undefined })).toBeNull();
  });

  it('answers the commit path as the SDK does, and the SDK sends none of it', async () => {
    const sdk = countingClient();
    const endpoint = s3Env().endpoint;
    const plain = new S3ObjectStore(`${root}/same`, { client: new S3Client(s3ConfigFromEnv()), endpoint });
    const lean = new S3ObjectStore(`${root}/same`, { client: sdk.client, endpoint, lean: leanAt(endpoint) });
    // Keys that need escaping in the URL, the signature and the listing's XML.
    for (const k of ['_delta_log/a&b <c>.json', '_delta_log/sp ace+plus%.json', 'part=ü/x.parquet']) {
      await plain.put(k, body(k));
    }
    expect(await lean.putIfAbsent(key(0), body('zero'))).toBe(true);
    expect(await lean.putIfAbsent(key(0), body('again'))).toBe(false);
    expect(await lean.putIfAbsent(key(1), body('one'))).toBe(true);
    for (const options of [{}, { startAfter: key(0) }, { recursive: true }]) {
      expect(await lean.list('_delta_log/', options)).toEqual(await plain.list('_delta_log/', options));
    }
    expect(await lean.list('', { recursive: true })).toEqual(await plain.list('', { recursive: true }));
    for (const k of [key(0), '_delta_log/a&b <c>.json', 'part=ü/x.parquet']) {
      expect(await lean.head(k)).toEqual(await plain.head(k));
      expect(Buffer.from(await lean.get(k))).toEqual(Buffer.from(await plain.get(k)));
    }
    expect(await lean.head(key(7))).toBeNull();
    expect(sdk.sent()).toBe(0);
  });

  it('leaves to the SDK what it cannot answer: refused credentials', async () => {
    const sdk = countingClient();
    const endpoint = s3Env().endpoint;
    const store = new S3ObjectStore(`${root}/refused`, {
      client: sdk.client,
      endpoint,
      lean: leanAt(endpoint, 'wrong'),
    });
    expect(await store.putIfAbsent(key(0), body('zero'))).toBe(true);
    expect(await store.putIfAbsent(key(0), body('zero'))).toBe(false);
    expect((await store.list('_delta_log/')).map((o) => o.key)).toEqual([key(0)]);
    expect(new TextDecoder().decode(await store.get(key(0)))).toBe('zero');
    expect((await store.head(key(0)))?.size).toBe(4);
    expect(sdk.sent()).toBe(5);
  });

  describe('through the fault proxy', () => {
    const storeAt = (path: string) => {
      const sdk = countingClient(proxy.endpoint);
      return new S3ObjectStore(`${root}/${path}`, {
        client: sdk.client,
        endpoint: proxy.endpoint,
        lean: leanAt(proxy.endpoint),
      });
    };
    const puts = (k: string) => proxy.requests.filter((r) => r.method === 'PUT' && r.path.includes(k));

    it('sends the same conditional put again after 409, and a 503 goes to the SDK, which sends it again', async () => {
      const store = storeAt('conflict');
      proxy.failNext(
        { method: 'PUT', pathIncludes: '/conflict/', times: 2 },
        { status: 409, code: 'ConditionalRequestConflict' },
      );
      expect(await store.putIfAbsent(key(0), body('mine'))).toBe(true);
      expect(puts(`/conflict/${key(0)}`).map((r) => r.status)).toEqual([409, 409, 200]);
      proxy.failNext({ method: 'PUT', pathIncludes: '/conflict/' }, { status: 503, code: 'SlowDown' });
      expect(await store.putIfAbsent(key(1), body('once'))).toBe(true);
      expect(puts(`/conflict/${key(1)}`).map((r) => r.status)).toEqual([503, 200]);
    });

    it('knows its own version when the lean answer was lost but the object landed', async () => {
      const store = storeAt('lost');
      proxy.failNext({ method: 'PUT', pathIncludes: '/lost/' }, 'drop-after-forwarding');
      expect(await store.putIfAbsent(key(0), body('ours'))).toBe(true);
      expect(puts(`/lost/${key(0)}`).map((r) => r.status)).toEqual([0, 412]);
      await store.put(key(1), body('theirs'));
      proxy.failNext({ method: 'PUT', pathIncludes: '/lost/' }, 'drop-before-forwarding');
      expect(await store.putIfAbsent(key(1), body('ours'))).toBe(false);
    });
  });
});
