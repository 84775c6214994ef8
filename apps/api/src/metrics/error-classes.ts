/**
 * The error classes a writer's failure is counted under in /metrics: a writer's `errorClass` is the name of what
 * it threw (the engine's and the lab's error classes, psycopg's names for a Postgres writer's SQLSTATE, the lab's
 * `WriterCrashed`), so a label keeps it only when it is one of these; any other name is `other`. The label's values
 * are this list and `other`, however many races run.
 */

export const WRITER_ERROR_CLASSES = [
  // Lost a commit race: Delta (delta-rs and the other libraries' checkers), Iceberg, and a store that lost the answer.
  'CommitFailedError',
  'CommitFailedException',
  'AnswerLostError',
  // The writer's process ended without an outcome.
  'WriterCrashed',
  // A Postgres writer, by SQLSTATE (the lab's formats/postgres/error-class.ts).
  'SerializationFailure',
  'DeadlockDetected',
  'LockNotAvailable',
  'QueryCanceled',
  'InFailedSqlTransaction',
  'AdminShutdown',
  'UndefinedTable',
  'DatabaseError',
  // The table, its files or the writer's own input.
  'PredicateViolationError',
  'ExpressionError',
  'SchemaMismatchError',
  'SchemaError',
  'MergeError',
  'VersionNotFoundError',
  'DataFileMissingError',
  'LogFormatError',
  'UnsupportedFeatureError',
  'InvalidDataError',
  'StorageError',
  'NotFoundError',
  'PathRefusedError',
  // A plain Error: what the writer threw named no class of its own.
  'Error',
] as const;

/** The label value for every other class. */
export const OTHER_ERROR_CLASS = 'other';

const KNOWN: ReadonlySet<string> = new Set(WRITER_ERROR_CLASSES);

/** The label a writer's error class is counted under: itself when known, else `other`. */
export function errorClassLabel(errorClass: string): string {
  return KNOWN.has(errorClass) ? errorClass : OTHER_ERROR_CLASS;
}
