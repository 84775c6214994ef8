/**
 * Who did something: the caller an operation runs for, and what is recorded beside the races, sweeps,
 * audits and probes it starts (their `startedBy`, a race's or sweep's `cancelledBy`). Stored as it was at
 * the time, label and all, so a record still says who after the token or session is gone.
 */

/** An API token sent as `Authorization: Bearer …`. */
export interface TokenActor {
  kind: 'token';
  tokenId: string;
  label: string;
}

/**
 * A dashboard session: signed in with the link `npm start` printed (`via: 'link'`), or with an API token
 * on the sign-in page (`via: 'token'`, naming the token, whose revocation ends the session).
 */
export interface SessionActor {
  kind: 'session';
  sessionId: string;
  via: 'link' | 'token';
  tokenId: string | null;
  label: string;
}

/** `npm start` itself, which queues the first races on a fresh database. */
export interface LauncherActor {
  kind: 'launcher';
  label: string;
}

export type Actor = TokenActor | SessionActor | LauncherActor;

/** The label a session signed in with the link carries. */
export const LINK_LABEL = 'the sign-in link';

/** One line for people: "token 'admin'", "dashboard session 1a2b3c4d (signed in with the link)". */
export function describeActor(actor: Actor): string {
  if (actor.kind === 'token') return `token '${actor.label}'`;
  if (actor.kind === 'launcher') return actor.label;
  const how = actor.via === 'link' ? LINK_LABEL : `token '${actor.label}'`;
  return `dashboard session ${actor.sessionId.slice(0, 8)} (signed in with ${how})`;
}

/** An actor as stored in a JSON column. */
export const storedActor = (actor: Actor): Record<string, string | null> => ({ ...actor });
