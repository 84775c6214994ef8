/** `npm run schema -w @racelab/api` (second step): rewrites the dashboard's typing from the printed schema. */
import { readFileSync, writeFileSync } from 'node:fs';
import { GRAPHQL_ENV_FILE, graphqlEnv, SCHEMA_SDL_FILE } from './graphql-env';

writeFileSync(GRAPHQL_ENV_FILE, graphqlEnv(readFileSync(SCHEMA_SDL_FILE, 'utf8')));
console.error(`wrote ${GRAPHQL_ENV_FILE}`);
