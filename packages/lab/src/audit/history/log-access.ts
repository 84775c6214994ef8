/**
 * What judging a table's past needs of its log beyond commitInfo: the table as of a version (schema, partition
 * columns, protocol, properties, live files) and one commit's actions. Both come from the engine's own readers
 * (DeltaTable.open, readCommit), cached, so many commits read at one version share one snapshot. The history's
 * commitInfo itself comes from read.ts, which never builds a snapshot per version.
 */
import { type Action, DeltaTable, readCommit, storeFor, type TableLocation } from '@racelab/engine';

export interface LogAccess {
  /** The table as of `version`. */
  snapshotAt(version: number): Promise<DeltaTable>;
  /** Every action of the commit at `version`, commitInfo included, as the log holds them. */
  actionsOf(version: number): Promise<readonly Action[]>;
}

/** Snapshots kept at once (each holds a version's file list); commits' actions kept at once. */
const SNAPSHOTS_KEPT = 8;
const COMMITS_KEPT = 4096;

/** A map that forgets its oldest entry past `size`. */
function bounded<V>(size: number, load: (key: number) => Promise<V>): (key: number) => Promise<V> {
  const kept = new Map<number, Promise<V>>();
  return (key) => {
    const hit = kept.get(key);
    if (hit) return hit;
    const value = load(key);
    kept.set(key, value);
    // A failed read is not kept: asking again reads again.
    value.catch(() => kept.delete(key));
    if (kept.size > size) kept.delete(kept.keys().next().value as number);
    return value;
  };
}

/** The log of the table at `location`; `roots` as DeltaTable.open takes them (deletion vectors at absolute paths). */
export function logAccess(location: TableLocation, options: { roots?: readonly string[] } = {}): LogAccess {
  const store = storeFor(location);
  return {
    snapshotAt: bounded(SNAPSHOTS_KEPT, (version) =>
      DeltaTable.open(store, { version, ...(options.roots && { roots: options.roots }) }),
    ),
    actionsOf: bounded(COMMITS_KEPT, (version) => readCommit(store, version)),
  };
}
