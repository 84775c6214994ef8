/**
 * Finds races left RUNNING by a worker that died and marks them FAILED with the reason, their
 * unfinished run too, so no race stays "running" forever. A worker holds its race's advisory lock
 * for as long as it runs it (races/lock.ts), so a RUNNING race whose lock nobody holds in pg_locks has
 * lost its worker: one query, on the pool, however many races run. Sweeps are reaped the
 * same way. The API and every worker look; the atomic state change in endRace and endSweep makes
 * concurrent looks harmless.
 */
import type { Db } from '../db/prisma';
import { LOCK_CLASS } from '../races/lock';
import { endRace } from '../races/store';
import { endSweep } from '../sweeps/store';

/**
 * The RUNNING rows of `table` whose advisory lock (races/lock.ts, keyed by the row's id) nobody holds. The table's name is
 * one of two literals, never a caller's text; the lock class goes as a parameter.
 */
function lockless(db: Db, table: 'Race' | 'Sweep'): Promise<{ id: string; worker: string | null }[]> {
  return db.$queryRawUnsafe(
    `SELECT t.id, t.worker FROM "${table}" t
     WHERE t.status = 'RUNNING' AND NOT EXISTS (
       SELECT 1 FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
         AND l.classid = $1::int4::oid AND l.objid = hashtext(t.id)::oid)`,
    LOCK_CLASS,
  );
}

export async function reapDeadRaces(db: Db): Promise<string[]> {
  const reaped: string[] = [];
  for (const race of await lockless(db, 'Race')) {
    const runs = await db.run.findMany({ where: { raceId: race.id, status: 'RUNNING' }, select: { index: true } });
    const at = runs.length > 0 ? ` during run ${runs.map((r) => r.index).join(', ')}` : '';
    const reason = `worker ${race.worker ?? '?'} stopped${at}: its database session ended before the race finished`;
    if (await endRace(db, race.id, 'FAILED', reason)) reaped.push(race.id);
  }
  return reaped;
}

/** The same for sweeps: their worker holds the same kind of lock, keyed by the sweep's id. */
export async function reapDeadSweeps(db: Db): Promise<string[]> {
  const reaped: string[] = [];
  for (const sweep of await lockless(db, 'Sweep')) {
    const reason = `worker ${sweep.worker ?? '?'} stopped: its database session ended before the sweep finished`;
    if (await endSweep(db, sweep.id, 'FAILED', reason)) reaped.push(sweep.id);
  }
  return reaped;
}

/** Looks every `intervalMs` until stopped; a failed look is logged and the next one tries again. */
export function startReaper(db: Db, intervalMs: number): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    Promise.all([reapDeadRaces(db), reapDeadSweeps(db)])
      .catch((e: Error) => console.error(`reaper: ${e.message}`))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
