/**
 * The GraphQL schema, code-first with Pothos. For now it answers what the engine is; the race
 * queries, mutations and subscriptions of contracts/api.graphql come with the control-plane issue.
 */
import SchemaBuilder from '@pothos/core';
import { ENGINE_INFO } from '@racelab/engine';

const builder = new SchemaBuilder({});

builder.queryType({
  fields: (t) => ({
    engineInfo: t.string({ description: 'The engine that writes the tables.', resolve: () => ENGINE_INFO }),
  }),
});

export const schema = builder.toSchema();
