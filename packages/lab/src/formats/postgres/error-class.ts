/**
 * A writer's failure in the results' terms: a Postgres error by its SQLSTATE, named as psycopg names it, so a P case
 * reads like the Python reference; anything else by its JS error name.
 */
import pg from 'pg';

/** psycopg's class names for the SQLSTATEs a writer can meet here. */
const ERROR_CLASSES: Record<string, string> = {
  '40001': 'SerializationFailure',
  '40P01': 'DeadlockDetected',
  '55P03': 'LockNotAvailable',
  '57014': 'QueryCanceled',
  '25P02': 'InFailedSqlTransaction',
  '57P01': 'AdminShutdown',
  '42P01': 'UndefinedTable',
};

/** The class name, message and SQLSTATE of what a writer's statement or COMMIT threw. */
export function classify(e: unknown): { errorClass: string; errorMessage: string; sqlState: string | null } {
  const code = (e as { code?: unknown }).code;
  if (e instanceof pg.DatabaseError && typeof code === 'string') {
    return { errorClass: ERROR_CLASSES[code] ?? 'DatabaseError', errorMessage: e.message, sqlState: code };
  }
  if (e instanceof Error) return { errorClass: e.name, errorMessage: e.message, sqlState: null };
  return { errorClass: 'Error', errorMessage: String(e), sqlState: null };
}
