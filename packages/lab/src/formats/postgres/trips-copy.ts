/**
 * The raced `trips` put back by swapping in a prepared copy of `trips_original`, not by writing the changed tips
 * back: at scale 1 that UPDATE rewrote 2.7 million rows and took 35–55 s on 2 cores, where building a copy takes a
 * few seconds (and can run beside the previous run's verdict) and the swap, two renames in one transaction, a few
 * milliseconds.
 *
 * The copy is the table the writers race, so it is laid out as the loaded `trips` is: the same columns, half-empty
 * pages and a primary key on trip_id. It is UNLOGGED: its rows never go through the write-ahead log, and neither do
 * the hint bits the first reader after a race sets (with data checksums on, Postgres 18's default, each page's
 * first hint bit after a checkpoint costs a full-page image). Postgres documents nothing else as different for an
 * unlogged table: not crash-safe (emptied after a crash), not replicated. Row locks sit in tuple headers and the
 * lock manager, and snapshots are taken the same way, so who waits and who gets 40001 are what a logged table
 * gives. `trips_original`, the source of every copy, stays logged. It is built in one transaction under the name `trips_next`, so another
 * session sees it whole or not at all; the swap renames `trips` to `trips_spent`, which the next build drops.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';

/**
 * Half-full pages: a tip update then finds room on its own page and is a HOT update (no index entry to write),
 * which makes a full-scale run several times faster. Row locks and snapshots are the same at any fill.
 */
export const TRIPS_FILLFACTOR = 30;

const NEXT = 'trips_next';
const KEY_SORT_MEMORY = '256MB';
const SPENT = 'trips_spent';

/**
 * The copy's storage options. Autovacuum is off on it: a copy lives for one run, and a vacuum started on it after
 * the writers' updates would only compete for the CPU and hold a lock the swap would then wait on (up to
 * deadlock_timeout) before Postgres cancels it. Vacuum never takes part in row locking or snapshots.
 */
const COPY_STORAGE = `fillfactor = ${TRIPS_FILLFACTOR}, autovacuum_enabled = false`;

/**
 * Builds `trips_next`, a copy of `trips_original` with its primary key and statistics, in one transaction (it
 * replaces an older `trips_next`), after dropping the table the last swap set aside. Resolves to the time taken, ms.
 */
export async function buildNextCopy(c: pg.Client): Promise<number> {
  const t0 = performance.now();
  await c.query(`DROP TABLE IF EXISTS ${SPENT}`);
  await c.query('BEGIN');
  try {
    // The key's sort of 3.4 million ids in memory: at the default 64 MB it spills to disk and takes about twice as long.
    await c.query(`SET LOCAL maintenance_work_mem = '${KEY_SORT_MEMORY}'`);
    await c.query(`DROP TABLE IF EXISTS ${NEXT}`);
    await c.query(`CREATE UNLOGGED TABLE ${NEXT} WITH (${COPY_STORAGE}) AS TABLE trips_original`);
    await c.query(`ALTER TABLE ${NEXT} ADD CONSTRAINT ${NEXT}_pkey PRIMARY KEY (trip_id)`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
  // The check's join is planned from these; the writers' updates scan the table whatever they say.
  await c.query(`ANALYZE ${NEXT}`);
  return performance.now() - t0;
}

/**
 * Makes `trips_next` the raced `trips` and sets the old one aside as `trips_spent`, in one transaction; resolves to
 * false (and changes nothing) when no copy is ready.
 */
export async function swapInNextCopy(c: pg.Client): Promise<boolean> {
  await c.query('BEGIN');
  try {
    const found = await c.query<{ next: boolean; trips: boolean }>(
      `SELECT to_regclass('${NEXT}') IS NOT NULL AS next, to_regclass('trips') IS NOT NULL AS trips`,
    );
    const { next, trips } = found.rows[0] ?? { next: false, trips: false };
    // A crash empties an unlogged table but leaves it in place: an empty copy is no copy.
    const filled =
      next && (await c.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${NEXT}) AS any`)).rows[0]?.any === true;
    if (!filled) {
      await c.query('ROLLBACK');
      return false;
    }
    if (trips) {
      await c.query(`DROP TABLE IF EXISTS ${SPENT}`);
      await c.query(`ALTER TABLE trips RENAME TO ${SPENT}`);
      // The index named after the table it serves: the raced table's key is trips_pkey, whichever copy it is.
      await c.query(`ALTER INDEX IF EXISTS trips_pkey RENAME TO ${SPENT}_pkey`);
    }
    await c.query(`ALTER TABLE ${NEXT} RENAME TO trips`);
    await c.query(`ALTER INDEX ${NEXT}_pkey RENAME TO trips_pkey`);
    await c.query('COMMIT');
    return true;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * Puts a fresh copy of `trips_original` in place of `trips`: the prepared one, else one built now. Resolves to
 * whether a prepared copy was there.
 */
export async function resetToFreshCopy(c: pg.Client): Promise<boolean> {
  if (await swapInNextCopy(c)) return true;
  await buildNextCopy(c);
  if (!(await swapInNextCopy(c))) throw new Error(`${NEXT} vanished between its build and the swap`);
  return false;
}

/** The tables the copies leave besides `trips` and `trips_original`, for a reload to drop. */
export const COPY_TABLES = [NEXT, SPENT] as const;
