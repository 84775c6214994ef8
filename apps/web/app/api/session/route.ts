/**
 * Signing in with an API token (POST `{"token": …}`, from the sign-in page) and signing out (DELETE).
 * Like /api/graphql, it takes requests only from the dashboard's own pages (Host, Origin, JSON, a small
 * body), so no other site can sign a visitor in or out. The sign-in link is taken by proxy.ts instead.
 */
import { readCappedBody } from '../../../lib/capped-body';
import { crossOriginRefusal, hostRefusal, refusal } from '../../../lib/request-guard';
import { sessionCookie, sessionOf, signIn, signOut } from '../../../lib/session';

/** A token is under 100 characters; a body ten times that is not a sign-in. */
const MAX_BODY_BYTES = 1024;

export const dynamic = 'force-dynamic';

const answered = (status: number, cookie: string) =>
  Response.json({ ok: status < 300 }, { status, headers: { 'cache-control': 'no-store', 'set-cookie': cookie } });

export async function POST(request: Request): Promise<Response> {
  const refused = hostRefusal(request) ?? crossOriginRefusal(request);
  if (refused) return refused;
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return refusal(415, 'send {"token": "…"} as application/json');
  const body = await readCappedBody(request, MAX_BODY_BYTES);
  if (body === null) return refusal(413, `request body over ${MAX_BODY_BYTES} bytes; a token is far smaller`);
  let token: unknown;
  try {
    token = (JSON.parse(body) as { token?: unknown }).token;
  } catch {
    token = undefined;
  }
  if (typeof token !== 'string' || token.trim() === '')
    return refusal(400, 'send {"token": "…"}: the API token to sign in with');
  try {
    const made = await signIn({ token: token.trim() });
    if (!made.ok) return refusal(made.status === 401 ? 401 : 400, made.message);
    return answered(200, sessionCookie(request, made.secret, made.expiresAt));
  } catch {
    return refusal(502, 'the API does not answer, so nobody can be signed in; is it running?');
  }
}

export async function DELETE(request: Request): Promise<Response> {
  const refused = hostRefusal(request) ?? crossOriginRefusal(request);
  if (refused) return refused;
  const secret = sessionOf(request);
  try {
    if (secret !== null) await signOut(secret);
  } catch {
    return refusal(502, 'the API does not answer, so the session could not be ended; is it running?');
  }
  return answered(200, sessionCookie(request, null));
}
