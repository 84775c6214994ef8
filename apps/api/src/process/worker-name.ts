/**
 * How a worker names its database sessions: Postgres's `application_name` is `racelab-worker <host:pid>`, so
 * whoever reads pg_stat_activity (the API's /metrics) sees which workers are live, on any host, without a port
 * per worker. A worker is live while a session of its is open; Postgres keeps 63 bytes of the name.
 */

/** What every worker session's application_name starts with. */
export const WORKER_SESSION_PREFIX = 'racelab-worker ';

/** Postgres keeps this many bytes of an application_name (NAMEDATALEN - 1). */
const NAME_BYTES = 63;

/** The application_name of a worker's sessions, cut where Postgres would cut it. */
export function workerSessionName(worker: string): string {
  const name = Buffer.from(`${WORKER_SESSION_PREFIX}${worker}`, 'utf8');
  return name.byteLength <= NAME_BYTES ? name.toString('utf8') : name.subarray(0, NAME_BYTES).toString('utf8');
}
