/** Postgres for the race lab (cases P1–P3) and for the API: an embedded server and the lab's cases. */
export {
  LAB_DATABASE,
  labDatabaseUrl,
  type PostgresCaseResult,
  type PostgresCaseSpec,
  type PostgresIsolation,
  type PostgresWriterResult,
  type PreparedPostgresLab,
  type PrepareOptions,
  postgresServerVersion,
  postgresTableCheck,
  preparePostgresLab,
  resetPostgresLab,
  runPostgresCase,
} from './cases';
export { copyFromFile } from './copy';
export { ensureDatabase, withDatabase } from './databases';
export {
  connectionFromEnv,
  findFreePort,
  type LabPostgres,
  type LabPostgresOptions,
  PostgresStartError,
  processAlive,
  startLabPostgres,
  withLabPostgres,
} from './server';
export { tipUpdateSql } from './tip-update';
export { postgresVerdict, type ReplayedWriter } from './verdict';
