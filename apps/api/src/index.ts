/**
 * @racelab/api: the control plane: GraphQL schema, HTTP server, database, queue and race worker parts,
 * and what a launcher needs to run them (tokens, the first races, the processes' stop signals).
 */
export { newSignInLink } from './auth/sessions';
export { firstAdminToken, hashToken, registerToken } from './auth/tokens';
export { type Database, openDatabase } from './db/database';
export { applyMigrations } from './db/migrate';
export { createPrisma, type Db } from './db/prisma';
export { schema } from './graphql/schema';
export { createApiServer } from './http/server';
export { type ApiConfig, loadConfig, REPO_ROOT } from './process/config';
export { onStopSignal } from './process/signals';
export { startQueue } from './queue/boss';
export { raceSpec } from './races/spec';
export { createRace } from './races/store';
