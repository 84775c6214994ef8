/**
 * The Pothos builder, the context every resolver gets, and the schema's root types: Query, Mutation
 * and Subscription are declared here once, and each module adds its fields to them. No field checks
 * the caller's token: http/operation-guard.ts decides per operation before any resolver runs.
 */
import SchemaBuilder from '@pothos/core';
import { ENGINE_INFO } from '@racelab/engine';
import type { LocationConfig } from '@racelab/lab';
import type { SessionActor, TokenActor } from '../actors/actor';
import type { Db } from '../db/prisma';
import type { PgBoss } from '../queue/boss';
import type { ProgressHub } from '../races/progress';
import type { Loaders } from './loaders';

export interface ApiContext {
  db: Db;
  boss: PgBoss;
  hub: ProgressHub;
  locations: LocationConfig;
  /** LAB_MAX_WORK_MINUTES: startSweep and startRace refuse work estimated above it. */
  maxWorkMinutes: number;
  /** Who is calling: a known API token or dashboard session, else null (nothing was sent). */
  actor: TokenActor | SessionActor | null;
  /** Whether the request came from this host: a loopback peer that sent it to a loopback name. */
  loopback: boolean;
  loaders: Loaders;
}

export const builder = new SchemaBuilder<{ Context: ApiContext; DefaultFieldNullability: false }>({
  defaultFieldNullability: false,
});

builder.queryType({
  fields: (t) => ({
    engineInfo: t.string({ description: 'The engine that writes the tables.', resolve: () => ENGINE_INFO }),
  }),
});
builder.mutationType({});
builder.subscriptionType({});
