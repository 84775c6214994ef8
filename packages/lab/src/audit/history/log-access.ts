/**
 * What judging a table's past needs of its log beyond commitInfo: the table as of a version (schema, partition
 * columns, protocol, properties, live files) and one commit's actions. Snapshots come from the engine's own
 * DeltaTable.open on the table's store, actions from the reader the caller passes; both are cached within bounds, so
 * the many commits that read one version share one snapshot. The commitInfo itself comes from read.ts, which never
 * builds a snapshot per version.
 */
import { type Action, DeltaTable } from '@racelab/engine';

export interface LogAccess {
  /** The table as of `version`. */
  snapshotAt(version: number): Promise<DeltaTable>;
  /** Every action of the commit at `version`, commitInfo included, as the log holds them. */
  actionsOf(version: number): Promise<readonly Action[]>;
}

/** Snapshots kept at once (each holds a version's file list); commits' actions kept at once. */
const SNAPSHOTS_KEPT = 8;
const COMMITS_KEPT = 4096;

/** A loader that remembers its last `size` answers; a failed read is forgotten, so asking again reads again. */
function bounded<V>(size: number, load: (key: number) => Promise<V>): (key: number) => Promise<V> {
  const kept = new Map<number, Promise<V>>();
  return (key) => {
    const hit = kept.get(key);
    if (hit) return hit;
    const value = load(key);
    kept.set(key, value);
    value.catch(() => kept.delete(key));
    if (kept.size > size) kept.delete(kept.keys().next().value as number);
    return value;
  };
}

/** The log of `table` (any version of it: its store and roots are what count). */
export function logAccess(table: DeltaTable, readActions: (version: number) => Promise<Action[]>): LogAccess {
  return {
    snapshotAt: bounded(SNAPSHOTS_KEPT, (version) =>
      version === table.version
        ? Promise.resolve(table)
        : DeltaTable.open(table.store, { version, roots: table.roots }),
    ),
    actionsOf: bounded(COMMITS_KEPT, readActions),
  };
}
