/**
 * The dashboard's own server end of the API: the browser talks to /api/graphql on this origin and
 * this handler forwards to the API with the token the server was started with (LAB_API_TOKEN), so
 * the token never reaches a browser. POST carries queries and mutations; GET with
 * `Accept: text/event-stream` carries subscriptions, streamed through as they come.
 */
const API_URL = process.env.API_URL ?? 'http://127.0.0.1:4000/graphql';

export const dynamic = 'force-dynamic';

function headers(request: Request): Headers {
  const h = new Headers({
    'content-type': 'application/json',
    accept: request.headers.get('accept') ?? 'application/json',
  });
  const token = process.env.LAB_API_TOKEN;
  if (token) h.set('authorization', `Bearer ${token}`);
  return h;
}

async function forward(request: Request, init: RequestInit & { url?: string }): Promise<Response> {
  try {
    const upstream = await fetch(init.url ?? API_URL, { ...init, headers: headers(request), signal: request.signal });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
        'cache-control': 'no-store',
      },
    });
  } catch {
    return Response.json(
      { errors: [{ message: `the API at ${API_URL} does not answer; is it running?` }] },
      { status: 502 },
    );
  }
}

export async function POST(request: Request): Promise<Response> {
  return forward(request, { method: 'POST', body: await request.text() });
}

export async function GET(request: Request): Promise<Response> {
  const url = new URL(API_URL);
  url.search = new URL(request.url).search;
  return forward(request, { method: 'GET', url: url.toString() });
}
