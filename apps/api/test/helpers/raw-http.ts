/**
 * HTTP with every header under the test's control (fetch will not send a Host or Sec-Fetch-* of
 * our choosing), for what browsers and rebound names send.
 */
import { type IncomingHttpHeaders, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function rawHttp(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const { method = options.body === undefined ? 'GET' : 'POST', body } = options;
  const headers = { ...options.headers };
  const noHost = headers.host === '';
  if (noHost) delete headers.host;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: { ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }), ...headers },
        // `host: ''` sends no Host at all.
        setHost: !noHost,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A GraphQL POST as JSON with extra headers; the parsed body's first error message, if any. */
export async function postGql(url: string, query: string, headers: Record<string, string> = {}, variables = {}) {
  const res = await rawHttp(url, {
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const parsed = res.headers['content-type']?.includes('json')
    ? (JSON.parse(res.body) as { data?: Record<string, unknown> | null; errors?: { message: string }[] })
    : {};
  return { ...res, data: parsed.data, error: parsed.errors?.[0]?.message };
}
