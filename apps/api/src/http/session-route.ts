/**
 * `/session`, the dashboard server's door to sessions (auth/sessions.ts), outside GraphQL because it runs
 * before there is a caller: POST `{"link": …}` or `{"token": …}` signs in and answers the session's
 * secret once; GET with `Authorization: Session …` says whose session it is; DELETE signs out. The edge
 * (http/edge.ts) has already checked Host, Origin and that a POST's body is JSON of a bounded size.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SessionActor } from '../actors/actor';
import { type Proof, sessionOf, signIn, signOut } from '../auth/sessions';
import type { Db } from '../db/prisma';
import { SESSION_NOT_RECOGNISED } from '../errors/client-errors';

export const SESSION_PATH = '/session';

/** Sessions' settings: how long one lasts. */
export interface SessionSettings {
  sessionHours: number;
}

function answer(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

const refuse = (res: ServerResponse, status: number, code: string, message: string) =>
  answer(res, status, { errors: [{ message, extensions: { code } }] });

/** What a client sees of a session: never its hash, and its secret only when it is made. */
const shown = (actor: SessionActor, expiresAt: Date) => ({
  id: actor.sessionId,
  via: actor.via,
  label: actor.label,
  expiresAt: expiresAt.toISOString(),
});

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** `{link}` or `{token}`, each a non-empty string, or null. */
function proofOf(value: unknown): Proof | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const given = (value as Record<string, unknown>)[keys[0] ?? ''];
  if (keys.length !== 1 || typeof given !== 'string' || given === '') return null;
  if (keys[0] === 'link') return { link: given };
  if (keys[0] === 'token') return { token: given };
  return null;
}

function sessionSecret(req: IncomingMessage): string | null {
  return /^Session ([A-Za-z0-9_-]{8,200})$/.exec(req.headers.authorization?.trim() ?? '')?.[1] ?? null;
}

export async function sessionRoute(
  req: IncomingMessage,
  res: ServerResponse,
  db: Db,
  settings: SessionSettings,
): Promise<void> {
  if (req.method === 'POST') {
    const proof = proofOf(await body(req));
    if (!proof) return refuse(res, 400, 'BAD_USER_INPUT', 'send {"link": "…"} or {"token": "…"}');
    const made = await signIn(db, proof, settings.sessionHours);
    if (!made) {
      const what =
        'link' in proof
          ? 'that sign-in link is not the current one (npm start makes a new one each start)'
          : 'that API token is not recognised';
      return refuse(res, 401, 'UNAUTHENTICATED', what);
    }
    return answer(res, 201, { session: made.secret, ...shown(made.actor, made.expiresAt) });
  }
  if (req.method !== 'GET' && req.method !== 'DELETE') {
    res.setHeader('allow', 'GET, POST, DELETE');
    return refuse(res, 405, 'BAD_REQUEST', `${SESSION_PATH} takes GET, POST and DELETE`);
  }
  req.resume();
  const secret = sessionSecret(req);
  if (secret === null) return refuse(res, 401, 'UNAUTHENTICATED', 'send Authorization: Session <session>');
  if (req.method === 'DELETE') {
    if (!(await signOut(db, secret))) return refuse(res, 401, 'UNAUTHENTICATED', SESSION_NOT_RECOGNISED);
    return answer(res, 204);
  }
  const session = await sessionOf(db, secret);
  if (!session) return refuse(res, 401, 'UNAUTHENTICATED', SESSION_NOT_RECOGNISED);
  return answer(res, 200, shown(session, session.expiresAt));
}
