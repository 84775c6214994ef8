/**
 * The dashboard's door to the API's /uploads/code: an archive of code (a .zip or a .tar.gz) from the /audit
 * page, streamed on to the API with the person's session (`Authorization: Session …`), never held whole here.
 * It takes requests only from the dashboard's own pages, as /api/graphql does (Host, Origin, a session cookie),
 * an archive's content type only, and a Content-Length of at most 50 MB, checked before a byte is read; the
 * bytes are counted as they pass, so no more than that goes on. proxy.ts leaves this route alone, and
 * server.mjs lets its body through.
 */
import { crossOriginRefusal, hostRefusal, refusal } from '../../../../lib/request-guard';
import { sessionRefusal } from '../../../../lib/session';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:4000/graphql';
const UPLOAD_URL = new URL('/uploads/code', API_URL);
/** The API's own bound on an archive (ARCHIVE_BOUNDS in the lab). */
const MAX_ARCHIVE_BYTES = 50 * 1024 * 1024;
const TYPES = new Set(['application/zip', 'application/gzip']);

export const dynamic = 'force-dynamic';

/** `body` passed through, erroring once more than `limit` bytes have come. */
function capped(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new Error(`the archive is longer than ${limit} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

export async function POST(request: Request): Promise<Response> {
  const refused = hostRefusal(request) ?? crossOriginRefusal(request);
  if (refused) return refused;
  const session = sessionRefusal(request);
  if (typeof session !== 'string') return session;
  // Only a script of this origin can send these types with a body (a form would need a CORS preflight).
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!TYPES.has(type)) return refusal(415, 'send a .zip as application/zip or a .tar.gz as application/gzip');
  const declared = request.headers.get('content-length');
  const length = Number(declared);
  if (declared === null || !Number.isInteger(length) || length < 0)
    return refusal(411, 'send the archive with a Content-Length');
  if (length > MAX_ARCHIVE_BYTES)
    return refusal(413, `an archive of ${length} bytes; at most ${MAX_ARCHIVE_BYTES} (50 MB)`);
  const url = new URL(UPLOAD_URL);
  const name = new URL(request.url).searchParams.get('name');
  if (name !== null) url.searchParams.set('name', name.slice(0, 200));
  try {
    const upstream = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': type, 'content-length': String(length), authorization: `Session ${session}` },
      body: request.body ? capped(request.body, length) : null,
      // A streamed request body (undici): sent as it comes, never buffered here.
      duplex: 'half',
      signal: request.signal,
    } as RequestInit);
    return new Response(upstream.body, {
      status: upstream.status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  } catch {
    return refusal(502, `the API at ${UPLOAD_URL.origin} does not answer, or the archive did not arrive whole`);
  }
}
