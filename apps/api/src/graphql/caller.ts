/**
 * The caller a mutation runs for, to record beside what it starts. The operation guard (http/operation-guard.ts)
 * has already refused a mutation with no caller; this says so to the types, and refuses all the same should a
 * resolver ever run without one.
 */
import type { SessionActor, TokenActor } from '../actors/actor';
import { AuthError } from '../errors/client-errors';
import type { ApiContext } from './builder';

export function callerOf(ctx: ApiContext): TokenActor | SessionActor {
  if (ctx.actor === null) throw new AuthError();
  return ctx.actor;
}
