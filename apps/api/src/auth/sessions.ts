/**
 * Dashboard sessions. `npm start` makes a sign-in link anew at each start (its secret stored only as a hash,
 * one row); opening it, or giving an API token on the sign-in page, makes a session whose secret the
 * dashboard keeps in an HttpOnly cookie and sends on as `Authorization: Session …`. Sessions are stored
 * hashed, end at their expiry or on sign-out, and one signed in with a token ends when the token is revoked.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { LINK_LABEL, type SessionActor } from '../actors/actor';
import type { Db } from '../db/prisma';
import { hashToken } from './tokens';

const secret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;

/**
 * A new sign-in link for the dashboard at `webBase` (e.g. http://127.0.0.1:3000), replacing the one before:
 * a link printed by an earlier start no longer signs anyone in.
 */
export async function newSignInLink(db: Db, webBase: string): Promise<string> {
  const login = secret('rl_login_');
  const hash = hashToken(login);
  await db.dashboardLink.upsert({ where: { id: 1 }, create: { id: 1, hash }, update: { hash, createdAt: new Date() } });
  const url = new URL('/', webBase);
  url.searchParams.set('login', login);
  return url.toString();
}

/** What signs a person in: the link's secret, or an API token. */
export type Proof = { link: string } | { token: string };

export interface NewSession {
  /** The cookie's value; returned once, stored only as its hash. */
  secret: string;
  actor: SessionActor;
  expiresAt: Date;
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A new session for `proof`, or null when the link is not the current one or the token is not known. */
export async function signIn(db: Db, proof: Proof, hours: number, now = new Date()): Promise<NewSession | null> {
  let via: SessionActor['via'];
  let token: { id: string; label: string } | null = null;
  if ('link' in proof) {
    const link = await db.dashboardLink.findUnique({ where: { id: 1 } });
    if (!link || !sameHash(link.hash, hashToken(proof.link))) return null;
    via = 'link';
  } else {
    token = await db.apiToken.findUnique({
      where: { hash: hashToken(proof.token) },
      select: { id: true, label: true },
    });
    if (!token) return null;
    via = 'token';
  }
  const value = secret('rl_session_');
  const expiresAt = new Date(now.getTime() + hours * 3_600_000);
  // Ended sessions are cleared as new ones begin, so the table holds only live ones and the day's.
  await db.dashboardSession.deleteMany({ where: { expiresAt: { lte: now } } });
  const row = await db.dashboardSession.create({
    data: { hash: hashToken(value), via, tokenId: token?.id ?? null, expiresAt },
  });
  return {
    secret: value,
    expiresAt,
    actor: { kind: 'session', sessionId: row.id, via, tokenId: token?.id ?? null, label: token?.label ?? LINK_LABEL },
  };
}

/** The live session whose secret is `value`, or null (unknown, expired, signed out, or its token revoked). */
export async function sessionOf(
  db: Db,
  value: string,
  now = new Date(),
): Promise<(SessionActor & { expiresAt: Date }) | null> {
  const row = await db.dashboardSession.findUnique({
    where: { hash: hashToken(value) },
    include: { token: { select: { label: true } } },
  });
  if (!row || row.expiresAt <= now) return null;
  const via = row.via === 'token' ? 'token' : 'link';
  return {
    kind: 'session',
    sessionId: row.id,
    via,
    tokenId: row.tokenId,
    label: row.token?.label ?? LINK_LABEL,
    expiresAt: row.expiresAt,
  };
}

/** Signs out: the session whose secret is `value` ends now. False when there was none. */
export async function signOut(db: Db, value: string): Promise<boolean> {
  const { count } = await db.dashboardSession.deleteMany({ where: { hash: hashToken(value) } });
  return count === 1;
}
