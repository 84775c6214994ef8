/**
 * Who is calling: the Authorization header read as an API token (`Bearer …`) or a dashboard session
 * (`Session …`, sent by the dashboard's server from its cookie). Every request is checked against the
 * database, with no cache of what was valid, so a revoked token or an ended session stops working on every
 * API process at once: one indexed lookup a request. Only the "last used" time is written, at most once a
 * LAST_USED_MS per token.
 */

import type { SessionActor, TokenActor } from '../actors/actor';
import type { Db } from '../db/prisma';
import { sessionOf } from './sessions';
import { hashToken } from './tokens';

const LAST_USED_MS = 30_000;
const CREDENTIAL = /^(Bearer|Session) ([A-Za-z0-9_-]{8,200})$/;

/**
 * What a request's Authorization header amounts to: nothing sent, a caller this API knows, or a credential
 * it does not (malformed, unknown, revoked, expired), which is an error rather than no credential.
 */
export type CallerCheck =
  | { kind: 'none' }
  | { kind: 'known'; actor: TokenActor | SessionActor }
  | { kind: 'unrecognised'; scheme: 'Bearer' | 'Session' | null };

export class CallerVerifier {
  private readonly lastUsed = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async verify(header: string | null): Promise<CallerCheck> {
    if (header === null || header.trim() === '') return { kind: 'none' };
    const m = CREDENTIAL.exec(header.trim());
    if (!m) return { kind: 'unrecognised', scheme: null };
    const [, scheme, value] = m as unknown as [string, 'Bearer' | 'Session', string];
    if (scheme === 'Session') {
      const session = await sessionOf(this.db, value, new Date(this.now()));
      if (!session) return { kind: 'unrecognised', scheme };
      const { expiresAt: _, ...actor } = session;
      return { kind: 'known', actor };
    }
    const found = await this.db.apiToken.findUnique({
      where: { hash: hashToken(value) },
      select: { id: true, label: true },
    });
    if (!found) return { kind: 'unrecognised', scheme };
    await this.touch(found.id);
    return { kind: 'known', actor: { kind: 'token', tokenId: found.id, label: found.label } };
  }

  /** Records the token's last use, at most once a LAST_USED_MS (a burst of requests costs one write). */
  private async touch(id: string): Promise<void> {
    const now = this.now();
    if ((this.lastUsed.get(id) ?? Number.NEGATIVE_INFINITY) > now - LAST_USED_MS) return;
    this.lastUsed.set(id, now);
    await this.db.apiToken.updateMany({ where: { id }, data: { lastUsedAt: new Date(now) } });
  }
}
