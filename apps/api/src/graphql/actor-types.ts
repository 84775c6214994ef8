/**
 * Who did something, as the API shows it: the `Actor` type of every record's `startedBy` and `cancelledBy`,
 * and `viewer`, the caller of the request itself (the dashboard shows who is signed in with it).
 */
import { type Actor, describeActor } from '../actors/actor';
import { builder } from './builder';

export const ActorType = builder.objectRef<Actor>('Actor').implement({
  description: 'who started or cancelled something: an API token, a dashboard session, or `npm start` itself',
  fields: (t) => ({
    kind: t.string({ description: 'token, session or launcher', resolve: (a) => a.kind }),
    id: t.string({
      nullable: true,
      description: "the token's id or the session's id; null for the launcher",
      resolve: (a) => (a.kind === 'token' ? a.tokenId : a.kind === 'session' ? a.sessionId : null),
    }),
    label: t.string({
      description: "the token's label; for a session signed in with a token, that token's; else how it signed in",
      resolve: (a) => a.label,
    }),
    via: t.string({
      nullable: true,
      description: 'how a session signed in: link or token; null for a token or the launcher',
      resolve: (a) => (a.kind === 'session' ? a.via : null),
    }),
    tokenId: t.string({
      nullable: true,
      description: 'the token behind it (for a session signed in with one), if any',
      resolve: (a) => (a.kind === 'launcher' ? null : a.tokenId),
    }),
    description: t.string({ description: 'one line for people', resolve: (a) => describeActor(a) }),
  }),
});

const KINDS = new Set(['token', 'session', 'launcher']);

/** A stored actor column read back; null for rows stored before actors were recorded. */
export function storedActorOf(value: unknown): Actor | null {
  if (typeof value !== 'object' || value === null) return null;
  const kind = (value as { kind?: unknown }).kind;
  return typeof kind === 'string' && KINDS.has(kind) ? (value as Actor) : null;
}

builder.queryFields((t) => ({
  viewer: t.field({
    type: ActorType,
    nullable: true,
    description: 'who this request runs for: its API token or dashboard session; null when it sent neither',
    resolve: (_r, _a, ctx) => ctx.actor,
  }),
}));
