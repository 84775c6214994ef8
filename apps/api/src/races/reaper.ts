/**
 * Finds races left RUNNING by a worker that died (its race lock is free) and marks them FAILED with
 * the reason, their unfinished run too, so no race stays "running" forever. The API and every
 * worker sweep; the atomic state change in endRace makes concurrent sweeps harmless.
 */
import pg from 'pg';
import type { Db } from '../db/prisma';
import { releaseRaceLock, tryRaceLock } from './lock';
import { endRace } from './store';

export async function reapDeadRaces(db: Db, url: string): Promise<string[]> {
  const running = await db.race.findMany({
    where: { status: 'RUNNING' },
    select: { id: true, worker: true, runs: { where: { status: 'RUNNING' }, select: { index: true } } },
  });
  if (running.length === 0) return [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const reaped: string[] = [];
  try {
    for (const race of running) {
      if (!(await tryRaceLock(client, race.id))) continue; // its worker is alive
      try {
        const at = race.runs.length > 0 ? ` during run ${race.runs.map((r) => r.index).join(', ')}` : '';
        const reason = `worker ${race.worker ?? '?'} stopped${at}: its database session ended before the race finished`;
        if (await endRace(db, race.id, 'FAILED', reason)) reaped.push(race.id);
      } finally {
        await releaseRaceLock(client, race.id);
      }
    }
  } finally {
    await client.end();
  }
  return reaped;
}

/** Sweeps every `intervalMs` until stopped; a failed sweep is logged and the next one tries again. */
export function startReaper(db: Db, url: string, intervalMs: number): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    reapDeadRaces(db, url)
      .catch((e: Error) => console.error(`reaper: ${e.message}`))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
