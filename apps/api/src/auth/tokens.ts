/**
 * API tokens: random 32-byte secrets shown once, stored only as their sha256. Mutations need one;
 * reads need one too unless the request comes from this host (loopback).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/prisma';

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export const newToken = () => `rl_${randomBytes(32).toString('base64url')}`;

/** Registers `token` (idempotent: the same token under the same label is kept once). */
export async function registerToken(db: Db, token: string, label: string): Promise<void> {
  const hash = hashToken(token);
  await db.apiToken.upsert({ where: { hash }, create: { hash, label }, update: { label } });
}

/** A new token for `label`, replacing earlier ones of that label; returned once, never stored in clear. */
export async function issueToken(db: Db, label: string): Promise<string> {
  const token = newToken();
  await db.$transaction([
    db.apiToken.deleteMany({ where: { label } }),
    db.apiToken.create({ data: { label, hash: hashToken(token) } }),
  ]);
  return token;
}

/** The first token of a fresh database, for a human: null when some token exists already. */
export async function firstAdminToken(db: Db): Promise<string | null> {
  if ((await db.apiToken.count({ where: { label: 'admin' } })) > 0) return null;
  return issueToken(db, 'admin');
}

const CACHE_MS = 30_000;

/**
 * Checks bearer tokens against the database, remembering known hashes for 30 s so a burst of
 * requests does not cost a query each (a deleted token stops working within that time), and
 * recording lastUsedAt at most once per cache period.
 */
export class TokenVerifier {
  private readonly known = new Map<string, { label: string; until: number }>();

  constructor(private readonly db: Db) {}

  /** The token's label, or null: unknown, malformed or absent. */
  async verify(header: string | null): Promise<string | null> {
    const m = header === null ? null : /^Bearer ([A-Za-z0-9_-]{8,200})$/.exec(header.trim());
    if (!m) return null;
    const hash = hashToken(m[1] as string);
    const cached = this.known.get(hash);
    if (cached && cached.until > Date.now()) return cached.label;
    const found = await this.db.apiToken.findUnique({ where: { hash }, select: { id: true, label: true } });
    if (!found) return null;
    this.known.set(hash, { label: found.label, until: Date.now() + CACHE_MS });
    await this.db.apiToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date() } });
    return found.label;
  }
}
