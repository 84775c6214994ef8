/**
 * The four requests a commit is made of (LIST after a key, conditional PUT, GET, HEAD), sent without the AWS SDK:
 * a SigV4-signed HTTP request over a kept-alive connection. On radosgw the SDK's middleware costs the client about
 * 2 to 3 ms of CPU per request against about 0.5 ms here, and under contention the client's CPU competes with the
 * server's on the same cores (bench/RESULTS.md, bench/s3-commit).
 *
 * Only the plain case is taken: keys and a custom endpoint from the environment (an S3-compatible server,
 * path-style), answers the commit path expects (200, and 404/412/409 where they mean something). Anything else
 * (a 503, a 403, a lost connection, an answer this module does not read) is left to the SDK, which sends the
 * request again with its retries and turns errors into the store's messages, so outcomes stay the SDK's.
 */
import { createHash, createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface LeanAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LeanRequest {
  method: 'GET' | 'HEAD' | 'PUT';
  bucket: string;
  /** The object key in the bucket, '' for the bucket itself. */
  key: string;
  query?: Record<string, string>;
  body?: Buffer;
  headers?: Record<string, string>;
}

/** RFC 3986 escaping, as SigV4 canonicalises: everything but unreserved characters. */
const uriEscape = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const hmac = (k: Buffer | string, s: string) => createHmac('sha256', k).update(s).digest();

export class LeanS3 {
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  private signingDay = '';
  private signingKey = Buffer.alloc(0);

  constructor(
    private readonly endpoint: URL,
    private readonly region: string,
    private readonly credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string },
  ) {
    const https = endpoint.protocol === 'https:';
    // Kept alive, as the SDK's shared client is (s3-store.ts): a commit's requests reuse one connection.
    this.agent = https
      ? new HttpsAgent({ keepAlive: true, maxSockets: 50 })
      : new HttpAgent({ keepAlive: true, maxSockets: 50 });
    this.send = https ? httpsRequest : httpRequest;
  }

  /** The answer, or the transport's error (the caller then leaves the request to the SDK). */
  request(req: LeanRequest): Promise<LeanAnswer> {
    // '' (the bucket) gives `/bucket/`, as a ListObjectsV2 is addressed path-style.
    const path = `/${req.bucket}/${req.key.split('/').map(uriEscape).join('/')}`;
    const query = Object.entries(req.query ?? {})
      .map(([k, v]) => `${uriEscape(k)}=${uriEscape(v)}`)
      .sort()
      .join('&');
    const headers = this.sign(req.method, path, query, req);
    return new Promise((resolve, reject) => {
      const r = this.send(
        {
          protocol: this.endpoint.protocol,
          host: this.endpoint.hostname,
          port: this.endpoint.port,
          method: req.method,
          path: query ? `${path}?${query}` : path,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(req.body);
    });
  }

  private sign(method: string, path: string, query: string, req: LeanRequest): Record<string, string> {
    const amzDate = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    if (day !== this.signingDay) {
      const date = hmac(`AWS4${this.credentials.secretAccessKey}`, day);
      this.signingKey = hmac(hmac(hmac(date, this.region), 's3'), 'aws4_request');
      this.signingDay = day;
    }
    const payload = sha256(req.body ?? '');
    const headers: Record<string, string> = {
      host: this.endpoint.host,
      'x-amz-content-sha256': payload,
      'x-amz-date': amzDate,
      ...(this.credentials.sessionToken && { 'x-amz-security-token': this.credentials.sessionToken }),
      ...Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    };
    const names = Object.keys(headers).sort();
    const canonical = [method, path, query, ...names.map((h) => `${h}:${headers[h]}`), '', names.join(';'), payload];
    const scope = `${day}/${this.region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical.join('\n'))].join('\n');
    const signature = createHmac('sha256', this.signingKey).update(toSign).digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${this.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
    if (req.body) headers['content-length'] = String(req.body.length);
    return headers;
  }
}

/** `RACELAB_S3_LEAN=0` sends everything through the SDK (what bench/s3-commit compares the lean sender with). */
export const LEAN_ENV = 'RACELAB_S3_LEAN';

/**
 * A lean sender when the environment gives what it needs: static keys and a custom endpoint addressed
 * path-style (as s3ConfigFromEnv configures the SDK for it); otherwise null, and the SDK sends everything.
 */
export function leanFromEnv(env: NodeJS.ProcessEnv = process.env): LeanS3 | null {
  if (env[LEAN_ENV] === '0') return null;
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!endpoint || !accessKeyId || !secretAccessKey || env.AWS_S3_FORCE_PATH_STYLE === 'false') return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (url.pathname !== '/' && url.pathname !== ''))
    return null;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const sessionToken = env.AWS_SESSION_TOKEN;
  return new LeanS3(url, region, { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) });
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e.startsWith('#x') || e.startsWith('#X')
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : (XML_ENTITIES[e.toLowerCase()] as string),
  );

export interface ListPage {
  contents: { key: string; size?: number }[];
  nextToken?: string;
}

/** A ListObjectsV2 answer: each object's key and size, and the continuation token when truncated; null if unreadable. */
export function parseListPage(xml: string): ListPage | null {
  if (!/<ListBucketResult[\s>]/.test(xml)) return null;
  const contents: ListPage['contents'] = [];
  for (const [, block] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
    const key = /<Key>([^<]*)<\/Key>/.exec(block as string)?.[1];
    if (key === undefined) return null;
    const size = /<Size>(\d+)<\/Size>/.exec(block as string)?.[1];
    contents.push({ key: unescapeXml(key), ...(size !== undefined && { size: Number(size) }) });
  }
  const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
  const token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  if (truncated && token === undefined) return null;
  return { contents, ...(truncated && { nextToken: unescapeXml(token as string) }) };
}
