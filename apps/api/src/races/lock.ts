/**
 * The "a worker is running this race" lock: a session-level Postgres advisory lock that the worker
 * holds on its own connection for as long as it runs the race. Postgres releases it the moment that
 * session ends, whether the worker finished, crashed or was SIGKILLed, on whatever host: so a
 * RUNNING race whose lock no session holds (pg_locks) has lost its worker (worker/reaper.ts). No heartbeat to tune.
 */
import type pg from 'pg';

export const LOCK_CLASS = 7_216_001; // the first key of every race lock: keeps them apart from other advisory locks

export async function tryRaceLock(client: pg.Client, raceId: string): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
    LOCK_CLASS,
    raceId,
  ]);
  return r.rows[0]?.ok === true;
}

export async function releaseRaceLock(client: pg.Client, raceId: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, raceId]);
}
