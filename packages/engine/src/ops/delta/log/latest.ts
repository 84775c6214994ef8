/**
 * The newest version of a table's log, as delta-rs's `get_latest_version` finds it: the greatest
 * `NNN.json` in `_delta_log` after a version already known. Two ways to get the same answer:
 *
 * - list the log after the known version (one LIST with start-after on S3);
 * - probe: look up the entries after the known version one by one until one is missing.
 *
 * Probing answers what a listing taken at the moment of its last lookup would: a writer only ever
 * claims the version after one it saw in the log, so version k + 1 never exists before version k
 * does, and the versions from any present one up are contiguous at every instant (log cleanup removes
 * the oldest entries first). Starting from a version whose entry is there, the first missing version
 * therefore ends the log.
 * `test/latest-version.test.ts` holds the two against each other while writers race.
 *
 * A local lookup is a stat, while listing reads the whole folder (1,600 entries after 1,600
 * commits), so stores say which way is cheaper for them (`ObjectStore.latestBy`); on S3 one LIST
 * is cheaper than two HEADs.
 */
import type { ObjectStore } from '../../../storage/object-store';
import { commitKey, LOG_DIR, versionName } from './listing';

/**
 * Lookups a probe makes before it gives up and lists: a reader far behind (a job that read its
 * table long ago) would otherwise pay one stat per version it missed.
 */
export const PROBE_LIMIT = 16;

const COMMIT_NAME = /^(\d{20})\.json$/;

/** The greatest commit version listed after `after` (or `after` when none is). */
export async function listedLatestVersion(store: ObjectStore, after: number): Promise<number> {
  const startAfter = after >= 0 ? `${LOG_DIR}${versionName(after)}.json` : undefined;
  let latest = after;
  for (const { key } of await store.list(LOG_DIR, startAfter === undefined ? {} : { startAfter })) {
    const m = COMMIT_NAME.exec(key.slice(LOG_DIR.length));
    if (m) latest = Math.max(latest, Number(m[1]));
  }
  return latest;
}

/**
 * The versions after `after` found by looking each up, or null when the probe cannot answer: `after`'s own entry
 * is not there to start from (a new table, or a log cleaned up past it), or more than PROBE_LIMIT versions follow
 * it. The caller lists instead.
 */
async function probedLatestVersion(store: ObjectStore, after: number): Promise<number | null> {
  if (after < 0 || (await store.head(commitKey(after))) === null) return null;
  for (let v = after + 1; v <= after + PROBE_LIMIT; v++) {
    if ((await store.head(commitKey(v))) === null) return v - 1;
  }
  return null;
}

/** The newest version, `after` when nothing newer exists; -1 for a log without commits. */
export async function latestVersion(store: ObjectStore, after: number): Promise<number> {
  if (store.latestBy === 'probe') {
    const probed = await probedLatestVersion(store, after);
    if (probed !== null) return probed;
  }
  return listedLatestVersion(store, after);
}
