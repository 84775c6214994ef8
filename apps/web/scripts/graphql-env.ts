/**
 * The typing gql.tada checks the dashboard's documents against: the API's printed schema
 * (`apps/api/schema.graphql`) as an introspection type, committed at `lib/graphql/graphql-env.d.ts`
 * so that type checks and builds need neither the API nor an editor plugin. Written formatted by
 * biome, so that the repository's lint passes over it unchanged.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minifyIntrospection, preprocessIntrospection } from 'gql.tada/internal';
import { buildSchema, introspectionFromSchema } from 'graphql';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO = join(WEB, '..', '..');

export const SCHEMA_SDL_FILE = join(WEB, '..', 'api', 'schema.graphql');
export const GRAPHQL_ENV_FILE = join(WEB, 'lib', 'graphql', 'graphql-env.d.ts');

const HEADER = `/**
 * The API's schema as gql.tada reads it. Generated from apps/api/schema.graphql by
 * \`npm run schema -w @racelab/api\`: do not edit.
 */
`;

/** The file's text for the schema `sdl`: the same text for the same schema, whatever wrote it. */
export function graphqlEnv(sdl: string): string {
  const introspection = minifyIntrospection(introspectionFromSchema(buildSchema(sdl)));
  const text = `${HEADER}export type introspection = ${preprocessIntrospection(introspection)};\n`;
  return biomeFormat(text, GRAPHQL_ENV_FILE);
}

function biomeFormat(text: string, file: string): string {
  const biome = spawnSync(
    join(REPO, 'node_modules', '.bin', 'biome'),
    ['format', `--stdin-file-path=${relative(REPO, file)}`],
    {
      cwd: REPO,
      input: text,
      encoding: 'utf8',
    },
  );
  if (biome.status !== 0) throw new Error(`biome format failed: ${biome.stderr}`);
  return biome.stdout;
}
