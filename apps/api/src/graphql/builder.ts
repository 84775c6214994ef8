/** The Pothos builder and the context every resolver gets. */
import SchemaBuilder from '@pothos/core';
import type { LocationConfig } from '@racelab/lab';
import type { PgBoss } from 'pg-boss';
import type { Db } from '../db/prisma';
import type { ProgressHub } from '../races/progress';
import { AuthError } from './errors';
import type { Loaders } from './loaders';

export interface ApiContext {
  db: Db;
  boss: PgBoss;
  hub: ProgressHub;
  locations: LocationConfig;
  /** The bearer token's label when one was sent and is known, else null. */
  token: string | null;
  /** Whether the request came from this host: a loopback peer that sent it to a loopback name. */
  loopback: boolean;
  loaders: Loaders;
}

export const builder = new SchemaBuilder<{ Context: ApiContext; DefaultFieldNullability: false }>({
  defaultFieldNullability: false,
});

/** Mutations always need a token; reads need one unless the caller is on this host. */
export function requireToken(ctx: ApiContext): void {
  if (ctx.token === null) throw new AuthError();
}

export function requireReader(ctx: ApiContext): void {
  if (!ctx.loopback && ctx.token === null) throw new AuthError('reads from other hosts need an API token too');
}
