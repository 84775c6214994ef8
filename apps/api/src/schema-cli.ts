/** `npm run schema -w @racelab/api`, first step: writes the printed schema to `apps/api/schema.graphql`. */
import { writeFileSync } from 'node:fs';
import { printedSchema, SCHEMA_FILE } from './schema-sdl';

writeFileSync(SCHEMA_FILE, `${printedSchema()}\n`);
console.error(`wrote ${SCHEMA_FILE}`);
