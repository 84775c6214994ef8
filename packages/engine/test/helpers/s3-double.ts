/**
 * An in-process S3 for tests: node:http on 127.0.0.1, objects in a Map per bucket, path-style URLs as
 * @aws-sdk/client-s3 sends them (`/{bucket}/{key}?x-id=PutObject`, `GET /{bucket}/?list-type=2&…`).
 *
 * What it is faithful about: put-if-absent (`If-None-Match: *` → 412 PreconditionFailed, decided in one
 * JS turn so racing PUTs cannot both win), `If-Match`, aws-chunked stream bodies (decoded, checksum
 * checked), ListObjectsV2 in UTF-8 byte order with start-after / continuation tokens / delimiters, the
 * XML error shape whose `Code` the SDK turns into the error name, HEAD errors without a body (→ SDK
 * `NotFound`). Signatures are not checked: any credentials work.
 *
 * What real servers cannot do on demand, the `faults` knobs do: 409 ConditionalRequestConflict, 5xx,
 * latency, and a connection dropped in the middle of a PUT.
 *
 * Not implemented (501 NotImplemented): multipart uploads, versioning, ACLs/tagging and other
 * sub-resources, ListObjects v1.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { crc32 } from 'node:zlib';

export interface StoredObject {
  body: Buffer;
  /** Quoted, as S3 sends it: `"<md5 hex>"`. */
  etag: string;
  /** Whole seconds, as S3 keeps it. */
  lastModified: Date;
  contentType: string;
  /** Base64 CRC32 the upload carried (header or aws-chunked trailer), returned on checksum-mode reads. */
  checksumCrc32?: string;
}

export interface S3DoubleRequest {
  /** Arrival order, from 0. The log itself is in completion order. */
  seq: number;
  method: string;
  bucket: string;
  /** The decoded object key; '' for bucket-level calls. */
  key: string;
  /** What the double took the request for: 'PutObject', 'ListObjectsV2', …, or 'Unsupported'. */
  operation: string;
  /** The HTTP status sent; 0 when the connection was dropped without an answer. */
  status: number;
  /** The S3 error code sent, if any. */
  code?: string;
  /** The `If-None-Match` / `If-Match` request headers, when present. */
  ifNoneMatch?: string;
  ifMatch?: string;
}

export interface S3DoubleFaults {
  /** The next `n` conditional PUTs (If-None-Match or If-Match) answer 409 ConditionalRequestConflict and store nothing. */
  conflictNextConditionalPuts(n: number): void;
  /** The next `n` requests of any kind answer `status` with error `code` (and change nothing). */
  failNext(n: number, status?: number, code?: string): void;
  /** Adds `ms` before every request is acted on (after its body arrived); 0 turns it off. */
  delay(ms: number): void;
  /**
   * The next object PUT has its body read, then its socket destroyed without an answer. By default
   * nothing is stored (the server died before committing); with `afterStoring` the object is stored
   * first (it committed, but the client never hears so).
   */
  dropConnectionOnNextPut(options?: { afterStoring?: boolean }): void;
  /** Turns every fault off. Objects and the request log are kept. */
  reset(): void;
}

export interface S3DoubleOptions {
  /** Buckets that exist from the start; the first is the default bucket. Default ['racelab']. */
  buckets?: string[];
  /** Default 0 (any free port). */
  port?: number;
}

/** Settings for `new S3Client(...)` that reach the double (structurally an S3ClientConfig subset). */
export interface S3DoubleClientConfig {
  endpoint: string;
  region: string;
  forcePathStyle: true;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface S3Double {
  /** `http://127.0.0.1:PORT` */
  readonly endpoint: string;
  readonly port: number;
  /** The default bucket (the first one given). */
  readonly bucket: string;
  /** The buckets that exist now, sorted. */
  readonly buckets: string[];
  /** The default bucket's objects, live: read it for assertions, write it to seed (or use `put`). */
  readonly objects: Map<string, StoredObject>;
  /** Another bucket's objects, live; throws if the bucket does not exist. */
  objectsIn(bucket: string): Map<string, StoredObject>;
  /** Stores an object directly (no request, no log entry), as a plain PutObject would. */
  put(key: string, body: string | Uint8Array, bucket?: string): StoredObject;
  readonly faults: S3DoubleFaults;
  /** Every answered (or dropped) request, in completion order. Mutable: `requests.length = 0` clears it. */
  readonly requests: S3DoubleRequest[];
  clientConfig(): S3DoubleClientConfig;
  /** Closes every connection and the listening socket; the port is free when it resolves. */
  stop(): Promise<void>;
}

/** An S3 error answer: status, `Code` (the SDK's error name) and message. */
class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MESSAGES: Record<string, string> = {
  SlowDown: 'Please reduce your request rate.',
  InternalError: 'We encountered an internal error. Please try again.',
  ServiceUnavailable: 'Service is unable to handle request.',
};

/** Object-level query parameters that name features the double does not have. */
const UNSUPPORTED_SUBRESOURCES = [
  'uploads',
  'uploadId',
  'partNumber',
  'versionId',
  'versions',
  'tagging',
  'acl',
  'retention',
  'legal-hold',
  'attributes',
  'restore',
  'select',
  'torrent',
];

const BUCKET_OPERATIONS: Record<string, string> = { PUT: 'CreateBucket', HEAD: 'HeadBucket', DELETE: 'DeleteBucket' };
const OBJECT_OPERATIONS: Record<string, string> = { GET: 'GetObject', HEAD: 'HeadObject', DELETE: 'DeleteObject' };

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlUnescape(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return XML_ENTITIES[e] ?? '';
  });
}

function md5Etag(body: Buffer): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}

function crc32Base64(body: Buffer): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32(body) >>> 0);
  return b.toString('base64');
}

/** S3 keeps modification times to the second. */
function nowToTheSecond(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/** The client went away before its request body was complete. */
class ClientGone extends Error {}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => reject(new ClientGone()));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

/**
 * Undoes aws-chunked framing: `hex-size[;chunk-signature=…]\r\n<bytes>\r\n` … `0[;…]\r\n`, then
 * trailer lines `name:value\r\n` and a closing `\r\n`. Returns the payload and the trailers.
 */
function decodeAwsChunked(raw: Buffer): { body: Buffer; trailers: Map<string, string> } {
  const parts: Buffer[] = [];
  const trailers = new Map<string, string>();
  const bad = () => new S3Error(400, 'IncompleteBody', 'The aws-chunked body is malformed or truncated.');
  let pos = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', pos, 'latin1');
    if (eol < 0) throw bad();
    const sizeText = raw.toString('latin1', pos, eol).split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw bad();
    const size = Number.parseInt(sizeText, 16);
    pos = eol + 2;
    if (size === 0) break;
    if (pos + size + 2 > raw.length || raw.toString('latin1', pos + size, pos + size + 2) !== '\r\n') throw bad();
    parts.push(raw.subarray(pos, pos + size));
    pos += size + 2;
  }
  // Trailers, up to an empty line (or the end: some senders omit the final CRLF).
  while (pos < raw.length) {
    const eol = raw.indexOf('\r\n', pos, 'latin1');
    const line = raw.toString('latin1', pos, eol < 0 ? raw.length : eol);
    pos = eol < 0 ? raw.length : eol + 2;
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon < 0) throw bad();
    trailers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { body: Buffer.concat(parts), trailers };
}

/**
 * The payload of a PUT/POST as the client meant it: aws-chunked framing removed, and checked against
 * x-amz-decoded-content-length, x-amz-content-sha256, Content-MD5 and x-amz-checksum-crc32 when given.
 */
function decodePayload(req: IncomingMessage, raw: Buffer): { body: Buffer; checksumCrc32?: string } {
  const sha = header(req, 'x-amz-content-sha256') ?? '';
  const chunked = (header(req, 'content-encoding') ?? '').includes('aws-chunked') || sha.startsWith('STREAMING-');
  let body = raw;
  let checksumCrc32 = header(req, 'x-amz-checksum-crc32');
  if (chunked) {
    const decoded = decodeAwsChunked(raw);
    body = decoded.body;
    checksumCrc32 = decoded.trailers.get('x-amz-checksum-crc32') ?? checksumCrc32;
    const declared = header(req, 'x-amz-decoded-content-length');
    if (declared !== undefined && Number(declared) !== body.length) {
      throw new S3Error(
        400,
        'IncompleteBody',
        `x-amz-decoded-content-length is ${declared} but ${body.length} bytes arrived.`,
      );
    }
  } else if (/^[0-9a-f]{64}$/.test(sha) && createHash('sha256').update(body).digest('hex') !== sha) {
    throw new S3Error(
      400,
      'XAmzContentSHA256Mismatch',
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  }
  const md5 = header(req, 'content-md5');
  if (md5 !== undefined && createHash('md5').update(body).digest('base64') !== md5) {
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  }
  if (checksumCrc32 !== undefined && crc32Base64(body) !== checksumCrc32) {
    throw new S3Error(400, 'BadDigest', 'The CRC32 you specified did not match the calculated checksum.');
  }
  return { body, checksumCrc32 };
}

function sameEtag(a: string, b: string): boolean {
  const bare = (s: string) => s.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
  return bare(a) === bare(b);
}

/** Parses a single `bytes=` range against a length; null = ignore the header (serve the whole object). */
function parseRange(value: string, length: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
    start = Math.max(0, length - suffix);
    end = length - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? length - 1 : Math.min(Number(m[2]), length - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= length) throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable');
  return { start, end };
}

export async function startS3Double(options: S3DoubleOptions = {}): Promise<S3Double> {
  const initial = options.buckets ?? ['racelab'];
  const defaultBucket = initial[0];
  if (defaultBucket === undefined) throw new Error('startS3Double: give at least one bucket');
  const store = new Map<string, Map<string, StoredObject>>(initial.map((b) => [b, new Map()]));
  const requests: S3DoubleRequest[] = [];
  const sockets = new Set<Socket>();
  let seq = 0;
  let stopped = false;

  // Fault state. Every "next n" is counted in arrival order, decided before any await.
  let failures: { left: number; status: number; code: string } = { left: 0, status: 503, code: 'SlowDown' };
  let conflictsLeft = 0;
  let delayMs = 0;
  let drop: { afterStoring: boolean } | null = null;

  const faults: S3DoubleFaults = {
    conflictNextConditionalPuts(n) {
      conflictsLeft = n;
    },
    failNext(n, status = 503, code = 'SlowDown') {
      failures = { left: n, status, code };
    },
    delay(ms) {
      delayMs = ms;
    },
    dropConnectionOnNextPut(opts = {}) {
      drop = { afterStoring: opts.afterStoring ?? false };
    },
    reset() {
      failures = { left: 0, status: 503, code: 'SlowDown' };
      conflictsLeft = 0;
      delayMs = 0;
      drop = null;
    },
  };

  function bucketMap(bucket: string): Map<string, StoredObject> {
    const objects = store.get(bucket);
    if (!objects) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    return objects;
  }

  function makeObject(body: Buffer, contentType: string, checksumCrc32?: string): StoredObject {
    const obj: StoredObject = { body, etag: md5Etag(body), lastModified: nowToTheSecond(), contentType };
    if (checksumCrc32 !== undefined) obj.checksumCrc32 = checksumCrc32;
    return obj;
  }

  /** The write preconditions of PutObject/CopyObject, evaluated against the current state. */
  function checkWritePreconditions(req: IncomingMessage, existing: StoredObject | undefined): void {
    const ifNoneMatch = header(req, 'if-none-match');
    const ifMatch = header(req, 'if-match');
    if (ifNoneMatch !== undefined) {
      if (ifNoneMatch.trim() !== '*') {
        throw new S3Error(
          501,
          'NotImplemented',
          'A header you provided implies functionality that is not implemented (If-None-Match only takes *).',
        );
      }
      if (existing)
        throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
    }
    if (ifMatch !== undefined) {
      if (!existing) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
      if (ifMatch.trim() !== '*' && !sameEtag(ifMatch, existing.etag)) {
        throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      }
    }
  }

  function objectHeaders(res: ServerResponse, obj: StoredObject): void {
    res.setHeader('ETag', obj.etag);
    res.setHeader('Last-Modified', obj.lastModified.toUTCString());
    res.setHeader('Content-Type', obj.contentType);
    res.setHeader('Accept-Ranges', 'bytes');
  }

  /** GET/HEAD conditional headers; returns 304 as a status to send, or throws 412. */
  function checkReadPreconditions(req: IncomingMessage, obj: StoredObject): 304 | null {
    const ifMatch = header(req, 'if-match');
    if (ifMatch !== undefined && ifMatch.trim() !== '*' && !sameEtag(ifMatch, obj.etag)) {
      throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
    }
    const ifNoneMatch = header(req, 'if-none-match');
    if (ifNoneMatch !== undefined && (ifNoneMatch.trim() === '*' || sameEtag(ifNoneMatch, obj.etag))) return 304;
    return null;
  }

  function listV2(res: ServerResponse, bucket: string, q: URLSearchParams): void {
    const objects = bucketMap(bucket);
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter') ?? '';
    const startAfter = q.get('start-after') ?? '';
    const token = q.get('continuation-token');
    const urlEncode = q.get('encoding-type') === 'url';
    const maxKeysText = q.get('max-keys');
    const maxKeys = maxKeysText === null ? 1000 : Number(maxKeysText);
    if (!Number.isInteger(maxKeys) || maxKeys < 0) {
      throw new S3Error(400, 'InvalidArgument', 'max-keys must be a non-negative integer');
    }
    const limit = Math.min(maxKeys, 1000);

    // Where to resume: after a key, or past every key under a common prefix already returned.
    let afterKey = startAfter;
    let skipPrefix: string | null = null;
    if (token !== null) {
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
      } catch {
        decoded = null;
      }
      const t = decoded as { k?: unknown; p?: unknown } | null;
      if (!t || typeof t.k !== 'string') {
        throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect');
      }
      if (compareBytes(t.k, afterKey) > 0) afterKey = t.k;
      skipPrefix = typeof t.p === 'string' ? t.p : null;
    }

    const keys = [...objects.keys()]
      .filter((k) => k.startsWith(prefix) && compareBytes(k, afterKey) > 0)
      .filter((k) => skipPrefix === null || !k.startsWith(skipPrefix))
      .sort(compareBytes);

    const contents: string[] = [];
    const commonPrefixes: string[] = [];
    let truncated = false;
    // The last thing put on this page: a key, or (p) a common prefix first seen at key k.
    let lastKey: string | null = null;
    let lastGroup: string | null = null;
    for (const key of keys) {
      let group: string | null = null;
      if (delimiter !== '') {
        const at = key.indexOf(delimiter, prefix.length);
        if (at >= 0) group = key.slice(0, at + delimiter.length);
      }
      if (group !== null && group === lastGroup) continue; // still inside the prefix just rolled up
      if (contents.length + commonPrefixes.length >= limit) {
        truncated = true;
        break;
      }
      if (group !== null) commonPrefixes.push(group);
      else contents.push(key);
      lastKey = key;
      lastGroup = group;
    }

    const enc = (s: string) => xmlEscape(urlEncode ? encodeURIComponent(s).replace(/%2F/g, '/') : s);
    const parts = [
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="${XMLNS}">`,
      `<Name>${xmlEscape(bucket)}</Name>`,
      `<Prefix>${enc(prefix)}</Prefix>`,
      `<KeyCount>${contents.length + commonPrefixes.length}</KeyCount>`,
      `<MaxKeys>${maxKeys}</MaxKeys>`,
    ];
    if (delimiter !== '') parts.push(`<Delimiter>${enc(delimiter)}</Delimiter>`);
    parts.push(`<IsTruncated>${truncated}</IsTruncated>`);
    if (token !== null) parts.push(`<ContinuationToken>${xmlEscape(token)}</ContinuationToken>`);
    if (truncated) {
      // A page can be truncated yet empty only with max-keys=0; resume where this one started.
      const next =
        lastKey === null
          ? { k: afterKey, ...(skipPrefix === null ? {} : { p: skipPrefix }) }
          : { k: lastKey, ...(lastGroup === null ? {} : { p: lastGroup }) };
      const nextToken = Buffer.from(JSON.stringify(next), 'utf8').toString('base64url');
      parts.push(`<NextContinuationToken>${nextToken}</NextContinuationToken>`);
    }
    if (startAfter !== '') parts.push(`<StartAfter>${enc(startAfter)}</StartAfter>`);
    if (urlEncode) parts.push('<EncodingType>url</EncodingType>');
    for (const key of contents) {
      const obj = objects.get(key) as StoredObject;
      parts.push(
        `<Contents><Key>${enc(key)}</Key><LastModified>${obj.lastModified.toISOString()}</LastModified>` +
          `<ETag>${xmlEscape(obj.etag)}</ETag><Size>${obj.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
      );
    }
    for (const p of commonPrefixes) parts.push(`<CommonPrefixes><Prefix>${enc(p)}</Prefix></CommonPrefixes>`);
    parts.push('</ListBucketResult>');
    sendXml(res, 200, parts.join(''));
  }

  function sendXml(res: ServerResponse, status: number, xml: string): void {
    const body = Buffer.from(xml, 'utf8');
    res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': body.length });
    res.end(body);
  }

  function sendError(req: IncomingMessage, res: ServerResponse, err: S3Error, bucket: string, key: string): void {
    if (req.method === 'HEAD') {
      // HEAD answers carry no body; the SDK names a bodiless 404 'NotFound'.
      res.writeHead(err.status);
      res.end();
      return;
    }
    const requestId = String(res.getHeader('x-amz-request-id') ?? '');
    const where =
      key !== ''
        ? `<Key>${xmlEscape(key)}</Key>`
        : bucket !== ''
          ? `<BucketName>${xmlEscape(bucket)}</BucketName>`
          : '';
    sendXml(
      res,
      err.status,
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(err.code)}</Code><Message>${xmlEscape(err.message)}</Message>${where}<RequestId>${requestId}</RequestId></Error>`,
    );
  }

  function operationOf(method: string, key: string, q: URLSearchParams, req: IncomingMessage): string {
    if (key === '') {
      if (method === 'GET' && q.get('list-type') === '2') return 'ListObjectsV2';
      if (method === 'POST' && q.has('delete')) return 'DeleteObjects';
      if ([...q.keys()].some((k) => k !== 'x-id')) return 'Unsupported';
      return BUCKET_OPERATIONS[method] ?? 'Unsupported';
    }
    if (UNSUPPORTED_SUBRESOURCES.some((s) => q.has(s))) return 'Unsupported';
    if (method === 'PUT') return header(req, 'x-amz-copy-source') !== undefined ? 'CopyObject' : 'PutObject';
    return OBJECT_OPERATIONS[method] ?? 'Unsupported';
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const qAt = url.indexOf('?');
    // Split by hand: WHATWG URL parsing would resolve '.' and '..' segments, which are legal in keys.
    const path = qAt < 0 ? url : url.slice(0, qAt);
    const q = new URLSearchParams(qAt < 0 ? '' : url.slice(qAt + 1));
    const slash = path.indexOf('/', 1);
    let bucket = '';
    let key = '';
    const entry: S3DoubleRequest = { seq: seq++, method, bucket, key, operation: 'Unsupported', status: 0 };
    res.setHeader('x-amz-request-id', randomBytes(8).toString('hex').toUpperCase());
    res.setHeader('x-amz-id-2', randomBytes(24).toString('base64'));
    res.setHeader('Server', 'S3Double');

    // Decide every "next n" fault now, in arrival order.
    const failure = failures.left > 0 ? { status: failures.status, code: failures.code } : null;
    if (failure) failures.left--;
    const wait = delayMs;

    try {
      try {
        bucket = decodeURIComponent(slash < 0 ? path.slice(1) : path.slice(1, slash));
        key = slash < 0 ? '' : decodeURIComponent(path.slice(slash + 1));
      } catch {
        throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
      }
      entry.bucket = bucket;
      entry.key = key;
      const operation = operationOf(method, key, q, req);
      entry.operation = operation;
      const ifNoneMatch = header(req, 'if-none-match');
      const ifMatch = header(req, 'if-match');
      if (ifNoneMatch !== undefined) entry.ifNoneMatch = ifNoneMatch;
      if (ifMatch !== undefined) entry.ifMatch = ifMatch;
      const isObjectPut = operation === 'PutObject' || operation === 'CopyObject';
      const conflict =
        failure === null && isObjectPut && (ifNoneMatch !== undefined || ifMatch !== undefined) && conflictsLeft > 0;
      if (conflict) conflictsLeft--;
      const dropThis = failure === null && !conflict && isObjectPut ? drop : null;
      if (dropThis) drop = null;

      // The whole body first, as S3 does before it decides anything.
      const raw = await readBody(req);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (stopped) return;

      // From here to the answer there is no await: each request is one atomic step.
      if (failure) {
        throw new S3Error(failure.status, failure.code, MESSAGES[failure.code] ?? `Injected ${failure.code}.`);
      }
      if (operation === 'Unsupported') {
        throw new S3Error(501, 'NotImplemented', `The S3 test double does not implement ${method} ${url}.`);
      }

      switch (operation) {
        case 'CreateBucket': {
          if (store.has(bucket))
            throw new S3Error(
              409,
              'BucketAlreadyOwnedByYou',
              'Your previous request to create the named bucket succeeded and you already own it.',
            );
          store.set(bucket, new Map());
          res.setHeader('Location', `/${bucket}`);
          res.writeHead(200).end();
          return;
        }
        case 'HeadBucket':
          bucketMap(bucket);
          res.writeHead(200).end();
          return;
        case 'DeleteBucket':
          if (bucketMap(bucket).size > 0)
            throw new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty');
          store.delete(bucket);
          res.writeHead(204).end();
          return;
        case 'ListObjectsV2':
          listV2(res, bucket, q);
          return;
        case 'DeleteObjects': {
          const objects = bucketMap(bucket);
          const xml = decodePayload(req, raw).body.toString('utf8');
          const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(xml);
          const deleted: string[] = [];
          for (const m of xml.matchAll(/<Object>[\s\S]*?<Key>([\s\S]*?)<\/Key>[\s\S]*?<\/Object>/g)) {
            const k = xmlUnescape(m[1] ?? '');
            objects.delete(k);
            if (!quiet) deleted.push(`<Deleted><Key>${xmlEscape(k)}</Key></Deleted>`);
          }
          sendXml(
            res,
            200,
            `<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult xmlns="${XMLNS}">${deleted.join('')}</DeleteResult>`,
          );
          return;
        }
        case 'PutObject':
        case 'CopyObject': {
          const objects = bucketMap(bucket);
          let payload: { body: Buffer; checksumCrc32?: string };
          let contentType = header(req, 'content-type') ?? 'binary/octet-stream';
          if (operation === 'CopyObject') {
            const source = decodeURIComponent((header(req, 'x-amz-copy-source') ?? '').split('?')[0] ?? '').replace(
              /^\//,
              '',
            );
            const at = source.indexOf('/');
            const src = at < 0 ? undefined : store.get(source.slice(0, at))?.get(source.slice(at + 1));
            if (!src) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
            payload = {
              body: src.body,
              ...(src.checksumCrc32 === undefined ? {} : { checksumCrc32: src.checksumCrc32 }),
            };
            if (header(req, 'x-amz-metadata-directive') !== 'REPLACE') contentType = src.contentType;
          } else {
            payload = decodePayload(req, raw);
          }
          if (conflict) {
            throw new S3Error(
              409,
              'ConditionalRequestConflict',
              'A conflicting operation occurred. If using PutObject you can retry the request.',
            );
          }
          if (dropThis) {
            // The server goes away mid-commit: before the write, or after it (if the write was allowed).
            if (dropThis.afterStoring) {
              try {
                checkWritePreconditions(req, objects.get(key));
                objects.set(key, makeObject(payload.body, contentType, payload.checksumCrc32));
              } catch (e) {
                if (!(e instanceof S3Error)) throw e;
              }
            }
            req.socket.destroy();
            return;
          }
          checkWritePreconditions(req, objects.get(key));
          const obj = makeObject(payload.body, contentType, payload.checksumCrc32);
          objects.set(key, obj);
          res.setHeader('ETag', obj.etag);
          if (operation === 'CopyObject') {
            sendXml(
              res,
              200,
              `<?xml version="1.0" encoding="UTF-8"?>\n<CopyObjectResult xmlns="${XMLNS}"><LastModified>${obj.lastModified.toISOString()}</LastModified><ETag>${xmlEscape(obj.etag)}</ETag></CopyObjectResult>`,
            );
          } else {
            if (obj.checksumCrc32 !== undefined) res.setHeader('x-amz-checksum-crc32', obj.checksumCrc32);
            res.writeHead(200, { 'Content-Length': 0 }).end();
          }
          return;
        }
        case 'GetObject':
        case 'HeadObject': {
          const obj = bucketMap(bucket).get(key);
          if (!obj) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
          objectHeaders(res, obj);
          if (checkReadPreconditions(req, obj) === 304) {
            res.writeHead(304).end();
            return;
          }
          const rangeHeader = header(req, 'range');
          const range = rangeHeader === undefined ? null : parseRange(rangeHeader, obj.body.length);
          if (range) {
            const slice = obj.body.subarray(range.start, range.end + 1);
            res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${obj.body.length}`);
            res.writeHead(206, { 'Content-Length': slice.length });
            res.end(operation === 'GetObject' ? slice : undefined);
            return;
          }
          if (header(req, 'x-amz-checksum-mode') === 'ENABLED' && obj.checksumCrc32 !== undefined) {
            res.setHeader('x-amz-checksum-crc32', obj.checksumCrc32);
            res.setHeader('x-amz-checksum-type', 'FULL_OBJECT');
          }
          res.writeHead(200, { 'Content-Length': obj.body.length });
          res.end(operation === 'GetObject' ? obj.body : undefined);
          return;
        }
        case 'DeleteObject':
          bucketMap(bucket).delete(key);
          res.writeHead(204).end();
          return;
      }
      throw new S3Error(501, 'NotImplemented', `The S3 test double does not implement ${operation}.`);
    } catch (caught) {
      if (caught instanceof ClientGone) return; // nobody to answer; logged with status 0
      // Anything but an S3Error is a bug in the double: answer 500 so the test sees it rather than hanging.
      const e =
        caught instanceof S3Error ? caught : new S3Error(500, 'InternalError', `S3 double failed: ${String(caught)}`);
      entry.code = e.code;
      // The body may still be arriving (an error before readBody); let it drain before answering.
      if (!req.complete && !req.destroyed) await readBody(req).catch(() => undefined);
      if (!res.headersSent && !req.socket.destroyed) sendError(req, res, e, bucket, key);
    } finally {
      // Logged in the same turn as res.end(), so a client that got its answer always finds the entry.
      entry.status = res.headersSent ? res.statusCode : 0;
      requests.push(entry);
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A dropped connection is an expected event here, not a server error.
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  function objectsIn(bucket: string): Map<string, StoredObject> {
    const objects = store.get(bucket);
    if (!objects) throw new Error(`S3 double: no bucket ${bucket}`);
    return objects;
  }
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    port,
    bucket: defaultBucket,
    get buckets() {
      return [...store.keys()].sort(compareBytes);
    },
    get objects() {
      return objectsIn(defaultBucket);
    },
    objectsIn,
    put(key, body, bucket = defaultBucket) {
      const objects = store.get(bucket);
      if (!objects) throw new Error(`S3 double: no bucket ${bucket}`);
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
      const obj = makeObject(bytes, 'binary/octet-stream', crc32Base64(bytes));
      objects.set(key, obj);
      return obj;
    },
    faults,
    requests,
    clientConfig: () => ({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3DOUBLE', secretAccessKey: 'S3DOUBLE-SECRET' },
    }),
    stop() {
      stopped = true;
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
    },
  };
}
