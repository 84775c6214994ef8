/**
 * A table on S3 or an S3-compatible store (radosgw, MinIO, R2), through @aws-sdk/client-s3.
 *
 * A log entry is claimed with a single-part `PutObject` carrying `If-None-Match: *`: 412
 * PreconditionFailed means the version is taken, and the commit loop goes into conflict checking,
 * as delta-rs does. 409 ConditionalRequestConflict (another conditional write to the key was in
 * flight) is handled the way AWS documents it: the same put is sent again, and its answer (200 or
 * 412) decides. delta-rs instead maps 409 to "version exists" and checks conflicts at once; both
 * end in the same place, since the retried put of a taken version answers 412.
 *
 * Log entries are always Buffer bodies in one part: radosgw ignores If-None-Match on multipart
 * completion and refuses aws-chunked streams, and checksums are only sent when required so no
 * body is ever chunk-encoded. Data files and checkpoints are immutable once written, so a local
 * download of one is kept and reused for DuckDB to read.
 */
import { createHash, randomUUID } from 'node:crypto';
import { lstat, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  checkKey,
  type ListedObject,
  type ListOptions,
  NotFoundError,
  type ObjectMeta,
  type ObjectStore,
  StorageError,
} from './object-store';
import { type LeanAnswer, type LeanRequest, type LeanS3, leanFromEnv, parseListPage } from './s3-lean';
import { ownerTag, sweepDeadStaging } from './staging';

export interface S3Location {
  bucket: string;
  /** The table's folder inside the bucket, without leading or trailing '/'; '' for the bucket root. */
  prefix: string;
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Parses `s3://bucket/path/to/table`; refuses what could not be a bucket or could escape the path. */
export function parseS3Url(url: string): S3Location {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(url.trim());
  if (!m) throw new StorageError(`'${url}' is not an S3 location: write s3://bucket/path/to/table`);
  const bucket = m[1] as string;
  if (!BUCKET.test(bucket)) throw new StorageError(`'${bucket}' is not a valid S3 bucket name`);
  const prefix = (m[2] as string).replace(/\/+$/, '');
  if (prefix !== '') checkKey(prefix);
  return { bucket, prefix };
}

export const isS3Url = (location: string) => /^s3:\/\//i.test(location.trim());

/**
 * The shared client keeps its connections open between requests: a commit is two round trips
 * (LIST, then the put-if-absent), and a new TCP connection for each would add a handshake to both.
 * The SDK's Node handler does this by default today; it is spelled out so that a default changing
 * under us fails test-s3/s3-keep-alive.test.ts instead of quietly slowing commits. 50 sockets is
 * the SDK's default pool too: enough for a scan's parallel downloads.
 */
const S3_AGENT = { keepAlive: true, maxSockets: 50 } as const;

/**
 * Client settings from the usual AWS environment (AWS_REGION, AWS_ENDPOINT_URL[_S3], credentials
 * from the environment or ~/.aws). A custom endpoint means an S3-compatible server: path-style
 * addressing, as radosgw and MinIO expect.
 */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv = process.env): S3ClientConfig {
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  return {
    region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint && { endpoint, forcePathStyle: env.AWS_S3_FORCE_PATH_STYLE !== 'false' }),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** Local staging folders in the temp folder: `<prefix><owner tag>`. */
const S3_STAGING_PREFIX = 'racelab-s3-staging-';

/** How often the same conditional put is sent again after 409 ConditionalRequestConflict. */
export const CONFLICT_RETRIES = 5;

/** A 409 the lean sender got, in the SDK's shape, so the put's one retry loop handles both. */
const leanConflict = () =>
  new S3ServiceException({
    name: 'ConditionalRequestConflict',
    $fault: 'client',
    $metadata: { httpStatusCode: 409 },
    message: 'ConditionalRequestConflict',
  });

const errorCode = (e: unknown) => (e instanceof S3ServiceException ? e.name : (e as { code?: string })?.code);
const status = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

/**
 * How a store reaches S3: the SDK client, where it sends requests, and optionally the lean sender of the commit
 * path's requests (s3-lean.ts), which leaves whatever it does not handle to the client.
 */
export interface S3Connection {
  client: S3Client;
  endpoint: string;
  lean?: LeanS3 | null;
}

let sharedClient: S3Connection | null = null;

/** One client per process for the environment's settings: its connections are reused by every table. */
function defaultClient(): S3Connection {
  if (!sharedClient) {
    const config = s3ConfigFromEnv();
    const requestHandler = { httpAgent: { ...S3_AGENT }, httpsAgent: { ...S3_AGENT } };
    sharedClient = {
      client: new S3Client({ ...config, requestHandler }),
      endpoint: String(config.endpoint ?? 'aws'),
      lean: leanFromEnv(),
    };
  }
  return sharedClient;
}

let cacheRoot: Promise<string> | undefined;

/**
 * This user's folder of downloaded objects in the temp folder. It must be private (0700, ours, not
 * a symlink): its name is predictable, and files another local user planted there would be read
 * as the table's data.
 */
function privateCacheRoot(): Promise<string> {
  cacheRoot ??= (async () => {
    const uid = process.getuid?.();
    const name = `racelab-s3-cache-${uid ?? 'user'}`;
    const dir = join(tmpdir(), name);
    await mkdir(dir, { mode: 0o700 }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
    const st = await lstat(dir);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) {
      cacheRoot = undefined;
      throw new StorageError(
        `the S3 download cache $TMPDIR/${name} is not a private folder of this user (mode 0700); remove it`,
      );
    }
    return dir;
  })();
  return cacheRoot;
}

export class S3ObjectStore implements ObjectStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly client: S3Client;
  /** Where the client sends requests, to keep cached downloads of different servers apart. */
  private readonly endpoint: string;
  private readonly lean: LeanS3 | null;

  constructor(url: string, connection: S3Connection = defaultClient()) {
    ({ bucket: this.bucket, prefix: this.prefix } = parseS3Url(url));
    this.client = connection.client;
    this.endpoint = connection.endpoint;
    this.lean = connection.lean ?? null;
  }

  /** The lean sender's answer when its status is one of `expected`; null when the SDK must send it instead. */
  private async leanly(req: Omit<LeanRequest, 'bucket'>, expected: readonly number[]): Promise<LeanAnswer | null> {
    if (!this.lean) return null;
    const answer = await this.lean.request({ ...req, bucket: this.bucket }).catch(() => null);
    return answer && expected.includes(answer.status) ? answer : null;
  }

  get location(): string {
    return `s3://${this.bucket}/${this.prefix}`;
  }

  /** The object's key in the bucket. */
  key(key: string): string {
    checkKey(key);
    return this.prefix === '' ? key : `${this.prefix}/${key}`;
  }

  /** An S3 error in words a user can act on; `key` names the object when there is one. */
  private fail(e: unknown, what: string, key?: string): never {
    const code = errorCode(e);
    const where = key === undefined ? this.location : `${this.location.replace(/\/$/, '')}/${key}`;
    if (code === 'NoSuchBucket') throw new StorageError(`bucket '${this.bucket}' does not exist (${what} ${where})`);
    if (code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch' || status(e) === 403) {
      throw new StorageError(`S3 refused the credentials for ${where} (${code ?? 'HTTP 403'}) while trying to ${what}`);
    }
    if (e instanceof S3ServiceException) {
      throw new StorageError(`S3 failed to ${what} ${where}: ${code} (HTTP ${status(e) ?? '?'})`);
    }
    const cause = (e as Error)?.message ?? String(e);
    throw new StorageError(`cannot reach S3 to ${what} ${where}: ${cause}`);
  }

  async get(key: string): Promise<Uint8Array> {
    const lean = await this.leanly({ method: 'GET', key: this.key(key) }, [200]);
    if (lean) return new Uint8Array(lean.body.buffer, lean.body.byteOffset, lean.body.length);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return await (r.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray();
    } catch (e) {
      if (errorCode(e) === 'NoSuchKey') throw new NotFoundError(this.location, key);
      return this.fail(e, 'read', key);
    }
  }

  async head(key: string): Promise<ObjectMeta | null> {
    const lean = await this.leanly({ method: 'HEAD', key: this.key(key) }, [200, 404]);
    if (lean?.status === 404) return null;
    if (lean) {
      const etag = lean.headers.etag;
      const modified = lean.headers['last-modified'];
      return {
        key,
        size: Number(lean.headers['content-length'] ?? 0),
        lastModified: modified ? new Date(modified).getTime() : 0,
        ...(etag !== undefined && { etag }),
      };
    }
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return {
        key,
        size: r.ContentLength ?? 0,
        lastModified: r.LastModified?.getTime() ?? 0,
        ...(r.ETag !== undefined && { etag: r.ETag }),
      };
    } catch (e) {
      if (errorCode(e) === 'NotFound' || errorCode(e) === 'NoSuchKey' || status(e) === 404) return null;
      return this.fail(e, 'look up', key);
    }
  }

  async putIfAbsent(key: string, body: Uint8Array): Promise<boolean> {
    const input = { Bucket: this.bucket, Key: this.key(key), Body: Buffer.from(body), IfNoneMatch: '*' };
    for (let attempt = 0; ; attempt++) {
      // A lean put whose answer never came counts as a send: the SDK's send is then a resend, as its own retry is.
      let sentLeanly = 0;
      try {
        if (this.lean) {
          const lean = await this.lean
            .request({
              method: 'PUT',
              bucket: this.bucket,
              key: input.Key,
              body: input.Body,
              headers: { 'If-None-Match': '*' },
            })
            .catch(() => null);
          if (lean?.status === 200) return true;
          if (lean?.status === 412) return false;
          if (lean?.status === 409) throw leanConflict();
          if (lean === null) sentLeanly = 1;
        }
        await this.client.send(new PutObjectCommand(input));
        return true;
      } catch (e) {
        if (errorCode(e) === 'PreconditionFailed' || status(e) === 412) {
          // The SDK may have resent our put after a lost answer: then the object there is ours.
          const sent = ((e as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1) + sentLeanly;
          return sent > 1 ? Buffer.from(await this.get(key)).equals(input.Body) : false;
        }
        if ((errorCode(e) === 'ConditionalRequestConflict' || status(e) === 409) && attempt < CONFLICT_RETRIES) {
          await new Promise((r) => setTimeout(r, 10 * 2 ** attempt));
          continue;
        }
        return this.fail(e, 'create', key);
      }
    }
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: Buffer.from(body) }),
      );
    } catch (e) {
      this.fail(e, 'write', key);
    }
  }

  async putFile(key: string, localPath: string): Promise<void> {
    await this.put(key, await readFile(localPath));
    // Keep the bytes as the cached download of this key: data files never change once written.
    const cached = await this.cachePath(key);
    await mkdir(dirname(cached), { recursive: true });
    await rename(localPath, cached).catch(() => rm(localPath, { force: true }));
  }

  async putBytes(key: string, body: Uint8Array): Promise<void> {
    await this.put(key, body);
    // As putFile keeps them: written aside and renamed, so a reader never takes half a file for the object.
    const cached = await this.cachePath(key);
    const part = `${cached}.${randomUUID()}.part`;
    try {
      await mkdir(dirname(cached), { recursive: true });
      await writeFile(part, body);
      await rename(part, cached);
    } catch {
      // Only a cache: the next read downloads the object instead.
      await rm(part, { force: true });
    }
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListedObject[]> {
    const out: ListedObject[] = [];
    const base = this.prefix === '' ? '' : `${this.prefix}/`;
    let token: string | undefined;
    const leanPages = await this.leanList(base + prefix, options, base);
    if (leanPages) return leanPages;
    try {
      do {
        const r = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: base + prefix,
            ...(options.startAfter !== undefined && { StartAfter: base + options.startAfter }),
            ...(!options.recursive && { Delimiter: '/' }),
            ...(token && { ContinuationToken: token }),
          }),
        );
        for (const o of r.Contents ?? []) {
          if (o.Key !== undefined)
            out.push({ key: o.Key.slice(base.length), ...(o.Size !== undefined && { size: o.Size }) });
        }
        token = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (token);
    } catch (e) {
      return this.fail(e, 'list', prefix);
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The whole listing through the lean sender, or null when any page of it must be left to the SDK. */
  private async leanList(prefix: string, options: ListOptions, base: string): Promise<ListedObject[] | null> {
    if (!this.lean) return null;
    const out: ListedObject[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = {
        'list-type': '2',
        prefix,
        ...(options.startAfter !== undefined && { 'start-after': base + options.startAfter }),
        ...(!options.recursive && { delimiter: '/' }),
        ...(token && { 'continuation-token': token }),
      };
      const answer = await this.leanly({ method: 'GET', key: '', query }, [200]);
      const page = answer && parseListPage(answer.body.toString('utf8'));
      if (!page) return null;
      for (const o of page.contents)
        out.push({ key: o.key.slice(base.length), ...(o.size !== undefined && { size: o.size }) });
      token = page.nextToken;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
    } catch (e) {
      this.fail(e, 'delete', key);
    }
  }

  private async cachePath(key: string): Promise<string> {
    const table = createHash('sha256').update(`${this.endpoint} ${this.location}`);
    return join(await privateCacheRoot(), table.digest('hex').slice(0, 16), ...checkKey(key).split('/'));
  }

  async localPath(key: string): Promise<string> {
    const path = await this.cachePath(key);
    // Only whole downloads are ever renamed into place and the objects never change: a cached
    // file is the object, with no request to S3 (a scan asks for every data file it reads).
    if (
      await stat(path).then(
        () => true,
        () => false,
      )
    )
      return path;
    await mkdir(dirname(path), { recursive: true });
    // Downloaded aside, then renamed: a concurrent reader never sees half a file.
    const part = `${path}.${randomUUID()}.part`;
    await writeFile(part, await this.get(key));
    await rename(part, path);
    return path;
  }

  async copyIn(source: ObjectStore, key: string): Promise<void> {
    if (source instanceof S3ObjectStore && source.client === this.client) {
      const from = `${source.bucket}/${source.key(key)}`;
      try {
        await this.client.send(
          new CopyObjectCommand({ Bucket: this.bucket, Key: this.key(key), CopySource: encodeURI(from) }),
        );
      } catch (e) {
        this.fail(e, `copy s3://${from} to`, key);
      }
    } else {
      await this.put(key, await readFile(await source.localPath(key)));
    }
  }

  /**
   * A new local folder each time: an operation removes its own when done, and what a killed one left is
   * removed by the next process on this host that stages (its name says whose it was).
   */
  async sweepStaging(): Promise<void> {
    await sweepDeadStaging(tmpdir(), S3_STAGING_PREFIX);
  }

  async stagingDir(): Promise<string> {
    await this.sweepStaging();
    const dir = join(tmpdir(), `${S3_STAGING_PREFIX}${ownerTag()}`);
    // Not recursive, and private: in a shared temp folder, a name someone else made first is refused.
    await mkdir(dir, { mode: 0o700 });
    return dir;
  }
}
