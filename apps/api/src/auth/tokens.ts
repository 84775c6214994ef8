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

/** The bearer token's record, or null: unknown, malformed or absent. */
export async function verifyBearer(db: Db, header: string | null): Promise<{ id: string; label: string } | null> {
  const m = header === null ? null : /^Bearer ([A-Za-z0-9_-]{8,200})$/.exec(header.trim());
  if (!m) return null;
  const found = await db.apiToken.findUnique({
    where: { hash: hashToken(m[1] as string) },
    select: { id: true, label: true },
  });
  if (found) void db.apiToken.update({ where: { id: found.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  return found;
}
