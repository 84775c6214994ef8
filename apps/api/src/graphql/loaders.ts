/**
 * Per-request batching: a page of 20 races asks for 20 races' runs in one query, not 20. Keys
 * asked for in the same tick are collected and fetched together (the DataLoader idea, in a few lines).
 * Two loaders need no per-key cache or error per key: `dataloader` (1 package) would take the same
 * adapter from a map to the keys' order as batchLoader's 17 lines, and @pothos/plugin-dataloader
 * (2 packages, 656 KB) would also change how the two fields are declared.
 */
import type { Db } from '../db/prisma';
import type { StoredVerdict } from '../races/store';
import type { RunShape } from './run-types';

export function batchLoader<K, V>(fetch: (keys: K[]) => Promise<Map<K, V>>, empty: V): (key: K) => Promise<V> {
  let pending: { keys: K[]; result: Promise<Map<K, V>> } | null = null;
  return (key) => {
    if (!pending) {
      const batch: { keys: K[]; result: Promise<Map<K, V>> } = { keys: [], result: Promise.resolve(new Map()) };
      batch.result = Promise.resolve().then(() => {
        pending = null;
        return fetch(batch.keys);
      });
      pending = batch;
    }
    pending.keys.push(key);
    return pending.result.then((m) => m.get(key) ?? empty);
  };
}

export function createLoaders(db: Db) {
  return {
    runsOf: batchLoader<string, RunShape[]>(async (raceIds) => {
      const runs = await db.run.findMany({
        where: { raceId: { in: raceIds } },
        orderBy: [{ raceId: 'asc' }, { index: 'asc' }],
        include: { writers: { orderBy: { position: 'asc' } }, tableCheck: true },
      });
      const by = new Map<string, RunShape[]>();
      for (const r of runs) by.set(r.raceId, [...(by.get(r.raceId) ?? []), r]);
      return by;
    }, []),
    /** Only the verdicts, for a race's one-line summary: a page of the race list needs nothing else of its runs. */
    verdictsOf: batchLoader<string, (StoredVerdict | null)[]>(async (raceIds) => {
      const runs = await db.run.findMany({
        where: { raceId: { in: raceIds } },
        orderBy: [{ raceId: 'asc' }, { index: 'asc' }],
        select: { raceId: true, verdict: true },
      });
      const by = new Map<string, (StoredVerdict | null)[]>();
      for (const r of runs)
        by.set(r.raceId, [...(by.get(r.raceId) ?? []), r.verdict as unknown as StoredVerdict | null]);
      return by;
    }, []),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
