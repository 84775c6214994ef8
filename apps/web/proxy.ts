/**
 * Next's proxy (formerly middleware), in front of every page and asset: each answers only to the
 * dashboard's own names (so a page on a foreign name that DNS rebinding points at 127.0.0.1 reads
 * nothing), and only to a person signed in. The sign-in link `npm start` prints (`/?login=…`) is
 * exchanged here for a session cookie; any other request without a live session is sent to the sign-in
 * page, which, with the build's static files, is all that is served without one.
 */
import { NextResponse } from 'next/server';
import { hostRefusal, refusal } from './lib/request-guard';
import { SIGN_IN_PATH, sessionCookie, sessionIsLive, sessionOf, signIn } from './lib/session';

/** What is served without a session: the sign-in page and the build's scripts, styles and icon, which hold no data. */
const OPEN = [SIGN_IN_PATH, '/_next/static/', '/icon.svg', '/favicon.ico'];
const isOpen = (path: string) => OPEN.some((p) => path === p || (p.endsWith('/') && path.startsWith(p)));

/** The link's secret exchanged for a session: its cookie set, and on to the page without the secret in its URL. */
async function signInWithLink(request: Request, login: string): Promise<Response> {
  const made = await signIn({ link: login });
  const url = new URL(request.url);
  if (!made.ok) {
    const to = new URL(SIGN_IN_PATH, url);
    to.searchParams.set('refused', 'link');
    return NextResponse.redirect(to, 303);
  }
  url.searchParams.delete('login');
  const response = NextResponse.redirect(url, 303);
  response.headers.append('set-cookie', sessionCookie(request, made.secret, made.expiresAt));
  return response;
}

export async function proxy(request: Request): Promise<Response> {
  const refused = hostRefusal(request);
  if (refused) return refused;
  const url = new URL(request.url);
  try {
    const login = url.searchParams.get('login');
    if (login !== null) return await signInWithLink(request, login);
    if (isOpen(url.pathname)) return NextResponse.next();
    const secret = sessionOf(request);
    if (secret !== null && (await sessionIsLive(secret))) return NextResponse.next();
  } catch {
    return refusal(502, 'the API does not answer, so nobody can be signed in; is it running?');
  }
  const to = new URL(SIGN_IN_PATH, url);
  to.searchParams.set('next', `${url.pathname}${url.search}`);
  return NextResponse.redirect(to, 303);
}

export const config = {
  // /api/graphql, /api/session and /api/uploads check Host and the session themselves (with Origin, type and size). They
  // are left out here because Next reads the whole body of every request its proxy sees before the route
  // runs, which would defeat the routes' caps on their bodies. A body sent to a page never gets here:
  // server.mjs refuses it first.
  matcher: '/((?!api/graphql|api/session|api/uploads).*)',
};
