/**
 * Re-signs a SigV4 request after the S3 fault proxy removed a header the client had signed (the
 * lying mode that drops `If-None-Match`). Only the header list and the signature change: the
 * client's date, credential scope and payload hash (`x-amz-content-sha256`) are kept, so the
 * server sees the request the client would have sent without that header.
 *
 * Why here and not "the client does not sign if-none-match": the probe and the engine must send
 * exactly what they send to a real store; the lie belongs to the store side only. Why hand-written:
 * the canonical request is ~30 lines of AWS's published algorithm, and the SDK's signer package is
 * not a dependency of ours (only a transitive one of @aws-sdk/client-s3).
 */
import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([^,]+),\s*Signature=[0-9a-f]+$/;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmac = (key: string | Buffer, s: string) => createHmac('sha256', key).update(s).digest();

/** RFC 3986 encoding, as SigV4 wants for query names and values. */
const strict = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function canonicalQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const [k, v] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      return [strict(decodeURIComponent(k)), strict(decodeURIComponent(v))] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/**
 * The headers of `url` without `drop`, signed again with `secretKey`. Requests that were not
 * SigV4-signed in headers (presigned, anonymous) come back with only the header removed.
 */
export function withoutSignedHeader(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  drop: string,
  secretKey: string,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  delete out[drop];
  const m = AUTH.exec(String(headers.authorization ?? ''));
  if (!m) return out;
  const [, accessKey, date, region, service, signedList] = m as unknown as string[];
  const signed = (signedList as string).split(';').filter((h) => h !== drop);
  const at = url.indexOf('?');
  const [path, query] = at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
  const canonical = [
    method,
    // S3 signs the path as sent (the SDK does not escape it a second time).
    path,
    canonicalQuery(query),
    ...signed.map(
      (h) =>
        `${h}:${String(out[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}`,
    ),
    '',
    signed.join(';'),
    String(headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', String(headers['x-amz-date']), scope, sha256(canonical)].join('\n');
  let key = hmac(`AWS4${secretKey}`, date as string);
  for (const part of [region as string, service as string, 'aws4_request']) key = hmac(key, part);
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  out.authorization = `AWS4-HMAC-SHA256 Credential=${accessKey}/${scope}, SignedHeaders=${signed.join(';')}, Signature=${signature}`;
  return out;
}
