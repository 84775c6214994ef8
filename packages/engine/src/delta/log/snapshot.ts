/**
 * Loads the table's state at its latest version or at any earlier one (time travel): start from the
 * newest complete checkpoint at or below the version, then apply every commit after it in order.
 */
import type { ObjectStore } from '../../storage/object-store';
import type { Action } from '../protocol/actions';
import { parseCommitText } from '../protocol/validate';
import { type ReadCheckpointOptions, readCheckpoint } from './checkpoint';
import { commitKey, type LogListing, listLog } from './listing';
import { StateBuilder, type TableState } from './replay';

export class VersionNotFoundError extends Error {
  override name = 'VersionNotFoundError';
}

export interface LoadedState extends TableState {
  /** The checkpoint replay started from, or null for a JSON-only replay. */
  checkpointVersion: number | null;
}

export async function readCommit(store: ObjectStore, version: number): Promise<Action[]> {
  const key = commitKey(version);
  return parseCommitText(new TextDecoder().decode(await store.get(key)), `${store.location}/${key}`);
}

/** The newest usable starting point for `version`, and the commits to apply after it. */
function plan(listing: LogListing, version: number, location: string) {
  const cp = [...listing.checkpoints].reverse().find((c) => c.version <= version) ?? null;
  const from = cp ? cp.version + 1 : 0;
  const missing: number[] = [];
  for (let v = from; v <= version; v++) if (!listing.commits.has(v)) missing.push(v);
  if (missing.length > 0) {
    const first = missing[0] as number;
    const detail = cp
      ? `the log has a gap after checkpoint ${cp.version}`
      : listing.checkpoints.length > 0 || listing.commits.size > 0
        ? 'no checkpoint at or below it, and earlier commits are gone'
        : 'the log is empty';
    throw new VersionNotFoundError(
      `${location}: cannot load version ${version}: commit ${String(first).padStart(20, '0')}.json is missing (${detail})`,
    );
  }
  return { cp, from };
}

/** `cacheDir`: the disk cache of parsed checkpoints; by default `RACELAB_CACHE_DIR`, none when that is unset. */
export type LoadOptions = ReadCheckpointOptions;

export async function loadState(
  store: ObjectStore,
  requested?: number,
  options: LoadOptions = {},
): Promise<LoadedState> {
  const listing = await listLog(store, requested);
  const version = requested ?? listing.latestVersion;
  if (!Number.isInteger(version) || version < 0) {
    throw new VersionNotFoundError(`${store.location}: version must be a non-negative integer, got ${requested}`);
  }
  if (version > listing.latestVersion) {
    throw new VersionNotFoundError(
      `${store.location}: version ${version} does not exist; the latest version is ${listing.latestVersion}`,
    );
  }
  const { cp, from } = plan(listing, version, store.location);
  const builder = new StateBuilder();
  if (cp) builder.apply(await readCheckpoint(store, cp, options));
  // Fetch the commits in parallel (one round trip on S3), apply them in order.
  const commits = await Promise.all(Array.from({ length: version - from + 1 }, (_, i) => readCommit(store, from + i)));
  for (const actions of commits) builder.apply(actions);
  return { ...builder.build(version, store.location), checkpointVersion: cp ? cp.version : null };
}
