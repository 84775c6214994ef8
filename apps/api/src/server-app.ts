import { createYoga } from 'graphql-yoga';
import { schema } from './schema';

export function createApi() {
  return createYoga({ schema, graphqlEndpoint: '/graphql' });
}
