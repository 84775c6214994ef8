/**
 * The API's schema as SDL, printed from the Pothos schema: what `apps/api/schema.graphql` holds (biome
 * formats the file; the text re-prints to this), and what the dashboard's typed documents are checked
 * against. Sorted, so that moving a field from one module to another does not change the file.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './graphql/schema';

export const SCHEMA_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema.graphql');

/** The command that rewrites the file and everything generated from it. */
export const REGENERATE = 'npm run schema -w @racelab/api';

export function printedSchema(): string {
  return printSchema(lexicographicSortSchema(schema));
}
