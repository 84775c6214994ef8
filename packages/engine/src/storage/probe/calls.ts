/**
 * The probe's S3 calls, each sent once (the client has `maxAttempts: 1`): an SDK retry would hide
 * the very answers the probe is about (a lost answer followed by a resent put that gets 412 looks
 * like a clean refusal). Each call is timed into the latency log by kind.
 *
 * A conditional put's answer is an outcome, not an error: 200 won, 412 refused, 0 no answer. The
 * other calls must work; when one fails the probe cannot judge the store and stops
 * (`ProbeStopped`, verdict `could-not-run`).
 */
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { CONFLICT_RETRIES } from '../s3-store';
import type { LatencyLog } from './report';

/** The probe cannot go on; the message is one line a user can act on. */
export class ProbeStopped extends Error {
  override name = 'ProbeStopped';
}

const statusOf = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const codeOf = (e: unknown) =>
  e instanceof S3ServiceException ? e.name : ((e as { code?: string; name?: string })?.code ?? (e as Error)?.name);

/** A failed call in one line, without stack or SDK internals. */
export function describeFailure(e: unknown, bucket: string, endpoint: string): string {
  const code = codeOf(e);
  const status = statusOf(e);
  if (code === 'NoSuchBucket') return `bucket '${bucket}' does not exist at ${endpoint}`;
  const message = ((e as Error)?.message ?? String(e)).split('\n')[0] ?? '';
  // The SDK found no credentials before sending anything.
  if (!(e instanceof S3ServiceException) && (code === 'CredentialsProviderError' || /credentials/i.test(message))) {
    return 'no S3 credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)';
  }
  if (code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch' || status === 403) {
    return `${endpoint} refused the credentials (${code ?? 'HTTP 403'}) for bucket '${bucket}'`;
  }
  if (e instanceof S3ServiceException) return `${endpoint} answered ${code} (HTTP ${status ?? '?'})`;
  const timeout = /exceeded the configured (\d+) ms requestTimeout/.exec(message);
  if (timeout) return `${endpoint} did not answer within ${timeout[1]} ms`;
  return `cannot reach ${endpoint}: ${message}`;
}

export interface ConditionalAnswer {
  /** The last answer: 200 won, 412 refused, 0 no answer, anything else as received. */
  status: number;
  /** Every answer in order, e.g. [409, 412]: 409s are answered by sending the same put again, as AWS documents. */
  chain: number[];
}

export class ProbeCalls {
  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
    readonly endpoint: string,
    private readonly latency: LatencyLog,
  ) {}

  private async must<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      throw new ProbeStopped(`${what}: ${describeFailure(e, this.bucket, this.endpoint)}`);
    }
  }

  private async timed<T>(kind: Parameters<LatencyLog['add']>[0] | null, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const out = await run();
    if (kind) this.latency.add(kind, performance.now() - t0);
    return out;
  }

  /** A plain put; returns the ETag. */
  put(key: string, body: string): Promise<string> {
    return this.must(`writing ${key}`, () =>
      this.timed('put', async () => {
        const r = await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body }));
        return r.ETag ?? '';
      }),
    );
  }

  /** The object's text, or null when there is none. */
  get(key: string): Promise<string | null> {
    return this.must(`reading ${key}`, () =>
      this.timed('get', async () => {
        try {
          const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
          return (await r.Body?.transformToString()) ?? '';
        } catch (e) {
          if (codeOf(e) === 'NoSuchKey' || statusOf(e) === 404) return null;
          throw e;
        }
      }),
    );
  }

  /** Every key under `prefix`, whole listing (pages followed). */
  list(prefix: string): Promise<string[]> {
    return this.must(`listing ${prefix}`, async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const r = await this.timed('list', () =>
          this.client.send(
            new ListObjectsV2Command({
              Bucket: this.bucket,
              Prefix: prefix,
              ...(token && { ContinuationToken: token }),
            }),
          ),
        );
        for (const o of r.Contents ?? []) if (o.Key !== undefined) keys.push(o.Key);
        token = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (token);
      return keys;
    });
  }

  /** One put with a precondition header, answered by status; nothing here throws. */
  async putWith(key: string, body: string, condition: { IfNoneMatch: '*' } | { IfMatch: string }): Promise<number> {
    const t0 = performance.now();
    let status: number;
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ...condition }));
      status = 200;
    } catch (e) {
      status = statusOf(e) ?? 0;
    }
    if ('IfNoneMatch' in condition && (status === 200 || status === 412)) {
      this.latency.add(status === 200 ? 'conditional-put-won' : 'conditional-put-refused', performance.now() - t0);
    }
    return status;
  }

  /** `If-None-Match: *`, with 409 ConditionalRequestConflict answered as AWS documents: the same put again. */
  async putIfAbsent(key: string, body: string): Promise<ConditionalAnswer> {
    const chain: number[] = [];
    for (let attempt = 0; ; attempt++) {
      const status = await this.putWith(key, body, { IfNoneMatch: '*' });
      chain.push(status);
      if (status !== 409 || attempt >= CONFLICT_RETRIES) return { status, chain };
      await new Promise((r) => setTimeout(r, 10 * 2 ** attempt));
    }
  }

  /** A one-part multipart upload completed with `If-None-Match: *`: the status of the completion. */
  async multipartIfAbsent(key: string, body: string): Promise<number> {
    const { UploadId } = await this.must(`starting a multipart upload of ${key}`, () =>
      this.timed('multipart', () =>
        this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key })),
      ),
    );
    const part = await this.must(`uploading a part of ${key}`, () =>
      this.timed('multipart', () =>
        this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId, PartNumber: 1, Body: body })),
      ),
    );
    try {
      await this.timed('multipart', () =>
        this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key: key,
            UploadId,
            IfNoneMatch: '*',
            MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
          }),
        ),
      );
      return 200;
    } catch (e) {
      // An upload left open is aborted by the clean-up, which lists the scratch prefix's uploads.
      return statusOf(e) ?? 0;
    }
  }
}
