/**
 * The dashboard's own server end of the API: the browser talks to /api/graphql on this origin and
 * this handler forwards to the API with the person's session (from its HttpOnly cookie, sent on as
 * `Authorization: Session …`), so the API knows who runs each operation and refuses an ended session.
 * A request without a session cookie is refused here (401) and reaches nothing, not even the reads the
 * API allows from loopback. POST carries queries and mutations; GET with `Accept: text/event-stream`
 * carries subscriptions, streamed through as they come.
 *
 * It forwards only what the dashboard's own pages send (lib/request-guard.ts): an allowed Host, no
 * foreign Origin, JSON bodies of at most MAX_BODY_BYTES, and no mutation over GET. proxy.ts leaves this
 * route alone (see there).
 */
import { type DocumentNode, getOperationAST, parse } from 'graphql';
import { readCappedBody } from '../../../lib/capped-body';
import { crossOriginRefusal, hostRefusal, refusal } from '../../../lib/request-guard';
import { sessionRefusal } from '../../../lib/session';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:4000/graphql';
/** The API's own limit (MAX_BODY_BYTES in apps/api): a bigger body would be refused there anyway. */
const MAX_BODY_BYTES = 64 * 1024;

export const dynamic = 'force-dynamic';

/** Fresh headers for the API: the browser's Origin, Host and cookies are not passed on, only its session. */
function headers(request: Request, session: string): Headers {
  return new Headers({
    'content-type': 'application/json',
    accept: request.headers.get('accept') ?? 'application/json',
    authorization: `Session ${session}`,
  });
}

async function forward(request: Request, session: string, init: RequestInit & { url?: string }): Promise<Response> {
  try {
    const upstream = await fetch(init.url ?? API_URL, {
      ...init,
      headers: headers(request, session),
      signal: request.signal,
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
        'cache-control': 'no-store',
      },
    });
  } catch {
    return refusal(502, `the API at ${API_URL} does not answer; is it running?`);
  }
}

export async function POST(request: Request): Promise<Response> {
  const refused = hostRefusal(request) ?? crossOriginRefusal(request);
  if (refused) return refused;
  const session = sessionRefusal(request);
  if (typeof session !== 'string') return session;
  // An HTML form can send text/plain, urlencoded or multipart without asking, but only a script
  // of the same origin can send application/json (from another origin it needs a CORS preflight,
  // which this route never grants).
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return refusal(415, `only application/json is accepted (got ${type ? `'${type}'` : 'no Content-Type'})`);
  }
  const body = await readCappedBody(request, MAX_BODY_BYTES);
  if (body === null) return refusal(413, `request body over ${MAX_BODY_BYTES} bytes; the dashboard's are far smaller`);
  return forward(request, session, { method: 'POST', body });
}

/** A 405 when the GET's document would run a mutation (which must be POSTed), else null. */
function mutationRefusal(params: URLSearchParams): Response | null {
  let document: DocumentNode;
  try {
    // The URL, and so the document, is bounded by Node's 16 KiB limit on a request's head.
    document = parse(params.get('query') ?? '');
  } catch (e) {
    return refusal(400, (e as Error).message);
  }
  const operation = getOperationAST(document, params.get('operationName'));
  if (!operation) return refusal(400, 'the query names no single operation to run (give operationName)');
  if (operation.operation !== 'mutation') return null;
  return refusal(405, 'a mutation must be POSTed as application/json; GET carries queries and subscriptions');
}

export async function GET(request: Request): Promise<Response> {
  const { search, searchParams } = new URL(request.url);
  const refused = hostRefusal(request) ?? crossOriginRefusal(request) ?? mutationRefusal(searchParams);
  if (refused) return refused;
  const session = sessionRefusal(request);
  if (typeof session !== 'string') return session;
  const url = new URL(API_URL);
  url.search = search;
  return forward(request, session, { method: 'GET', url: url.toString() });
}
