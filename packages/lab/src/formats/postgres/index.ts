/**
 * The lab's Postgres contrast (cases P1–P3): connecting to the lab database, preparing it, running a case, checking
 * the table afterwards and the serial-replay verdict. The server itself comes from @racelab/pg-server.
 */
export { LAB_DATABASE, labDatabaseUrl, postgresServerVersion } from './connect';
export { copyFromFile } from './copy';
export { type PreparedPostgresLab, type PrepareOptions, preparePostgresLab, resetPostgresLab } from './prepare';
export {
  type PostgresCaseResult,
  type PostgresCaseSpec,
  type PostgresIsolation,
  type PostgresWriterResult,
  runPostgresCase,
} from './run';
export { postgresTableCheck } from './table-check';
export { tipUpdateSql } from './tip-update';
export { buildNextCopy, resetToFreshCopy, swapInNextCopy } from './trips-copy';
export { postgresVerdict, type ReplayedWriter } from './verdict';
