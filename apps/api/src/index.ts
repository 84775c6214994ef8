/** @racelab/api: the control plane: GraphQL schema, HTTP server, database, queue and race worker parts. */
export { hashToken, issueToken, registerToken } from './auth/tokens';
export { type ApiConfig, loadConfig, REPO_ROOT } from './config';
export { type Database, openDatabase } from './db/database';
export { applyMigrations } from './db/migrate';
export { createPrisma, type Db } from './db/prisma';
export { schema } from './graphql/schema';
export { createApiServer } from './http/server';
