/**
 * The dashboard's sign-in, on its server: the session cookie, and the API's /session, which makes,
 * checks and ends sessions (the API keeps them, hashed, so revoking a token ends its sessions everywhere).
 * The cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it) and
 * Secure when the dashboard is served over https.
 */

import { refusal } from './request-guard';
import { SIGN_IN_PATH } from './sign-in-path';

export { SIGN_IN_PATH };
export const SESSION_COOKIE = 'racelab_session';

const API_URL = process.env.API_URL ?? 'http://127.0.0.1:4000/graphql';
/** The API's /session, beside its /graphql. */
const SESSION_URL = new URL('/session', API_URL).toString();

/** The session cookie's value, when the request carries a well-formed one. */
export function sessionOf(request: Request): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === SESSION_COOKIE && value && /^[A-Za-z0-9_-]{8,200}$/.test(value)) return value;
  }
  return null;
}

/** The dashboard's API routes without a session cookie: a 401 saying how to sign in; else the session. */
export function sessionRefusal(request: Request): Response | string {
  return (
    sessionOf(request) ??
    refusal(
      401,
      `not signed in: open the sign-in link \`npm start\` printed, or sign in with an API token at ${SIGN_IN_PATH}`,
    )
  );
}

/** The API's answer to a session request: its status and JSON body (null when it has none or is not JSON). */
async function askApi(
  method: string,
  init: { secret?: string; body?: unknown },
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const res = await fetch(SESSION_URL, {
    method,
    headers: {
      ...(init.secret && { authorization: `Session ${init.secret}` }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    cache: 'no-store',
  });
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  return { status: res.status, body };
}

/** Whether the API knows `secret` as a live session; throws when the API does not answer. */
export async function sessionIsLive(secret: string): Promise<boolean> {
  return (await askApi('GET', { secret })).status === 200;
}

export type SignIn = { ok: true; secret: string; expiresAt: Date } | { ok: false; status: number; message: string };

/** Signs in with the link's secret or an API token: a new session, or the API's reason for refusing. */
export async function signIn(proof: { link: string } | { token: string }): Promise<SignIn> {
  const { status, body } = await askApi('POST', { body: proof });
  if (status === 201 && typeof body?.session === 'string' && typeof body.expiresAt === 'string') {
    return { ok: true, secret: body.session, expiresAt: new Date(body.expiresAt) };
  }
  const message = (body?.errors as { message?: string }[] | undefined)?.[0]?.message ?? `the API answered ${status}`;
  return { ok: false, status, message };
}

/** Ends the session on the API (signing out); an unknown one is already ended. */
export async function signOut(secret: string): Promise<void> {
  await askApi('DELETE', { secret });
}

/** The Set-Cookie value that keeps `secret` until `expiresAt`, or clears the cookie when `secret` is null. */
export function sessionCookie(request: Request, secret: string | null, expiresAt?: Date): string {
  const https = new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', ...(https ? ['Secure'] : [])];
  if (secret === null) return [`${SESSION_COOKIE}=`, 'Max-Age=0', ...attributes].join('; ');
  const seconds = Math.max(0, Math.floor(((expiresAt?.getTime() ?? Date.now()) - Date.now()) / 1000));
  return [`${SESSION_COOKIE}=${secret}`, `Max-Age=${seconds}`, ...attributes].join('; ');
}
