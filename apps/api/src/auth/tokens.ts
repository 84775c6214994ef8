/**
 * API tokens: random 32-byte secrets shown once, stored only as their sha256. Mutations need one;
 * reads need one too unless the request comes from this host (loopback); operation-guard.ts decides.
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
async function issueToken(db: Db, label: string): Promise<string> {
  const token = newToken();
  await db.$transaction([
    db.apiToken.deleteMany({ where: { label } }),
    db.apiToken.create({ data: { label, hash: hashToken(token) } }),
  ]);
  return token;
}

export const MAX_LABEL_LENGTH = 64;

export class TokenLabelError extends Error {
  override name = 'TokenLabelError';
}

/**
 * A label as given, trimmed: 1 to 64 characters, none of them control, format or unassigned ones
 * (Unicode category C), so `list` prints it as it is and one line stays one line.
 */
export function checkLabel(label: string): string {
  const trimmed = label.trim();
  const length = [...trimmed].length;
  if (length === 0 || length > MAX_LABEL_LENGTH || /\p{C}/u.test(trimmed)) {
    throw new TokenLabelError(
      `a token's label is 1 to ${MAX_LABEL_LENGTH} printable characters, got ${JSON.stringify(label.slice(0, 80))}`,
    );
  }
  return trimmed;
}

/** A new token labelled `label` (others of that label stay valid); returned once, never stored in clear. */
export async function createToken(db: Db, label: string): Promise<{ id: string; token: string }> {
  const token = newToken();
  const row = await db.apiToken.create({ data: { label: checkLabel(label), hash: hashToken(token) } });
  return { id: row.id, token };
}

export interface TokenInfo {
  id: string;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What a listing shows of tokens (never the hash), oldest first. */
const TOKEN_INFO = {
  select: { id: true, label: true, createdAt: true, lastUsedAt: true },
  orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }],
};

/** Every token, oldest first, without its hash. */
export function listTokens(db: Db): Promise<TokenInfo[]> {
  return db.apiToken.findMany(TOKEN_INFO);
}

/**
 * Deletes the token whose id is `idOrLabel`, or every token with that label, and returns what it
 * deleted. Every API process checks each request against the database (auth/callers.ts), so the token
 * stops working at once, and the dashboard sessions signed in with it end with it.
 */
export async function revokeTokens(db: Db, idOrLabel: string): Promise<TokenInfo[]> {
  const where = { OR: [{ id: idOrLabel }, { label: idOrLabel }] };
  return db.$transaction(async (tx) => {
    const found = await tx.apiToken.findMany({ where, ...TOKEN_INFO });
    await tx.apiToken.deleteMany({ where: { id: { in: found.map((t) => t.id) } } });
    return found;
  });
}

/** The first token of a fresh database, for a human: null when some token exists already. */
export async function firstAdminToken(db: Db): Promise<string | null> {
  if ((await db.apiToken.count({ where: { label: 'admin' } })) > 0) return null;
  return issueToken(db, 'admin');
}
