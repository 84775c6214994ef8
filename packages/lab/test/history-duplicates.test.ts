/**
 * Duplicated keys found in a snapshot and traced to the commits that added them: two jobs that each checked for a
 * batch, saw none and appended it at once (E1's damage), and a later lone append repeating an old key. Keys, counts,
 * the commits and whether those commits were concurrent are all checked, with the listing bound and a bad column.
 */
import { join } from 'node:path';
import { DeltaTable, field, prepareWrite, type StructType, writeDeltaTable } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { duplicateKeys, KeyColumnError } from '../src/audit/history/duplicates';
import { logAccess } from '../src/audit/history/log-access';
import type { DuplicateKey, HistoryCommit } from '../src/audit/history/types';
import { commitAt } from './helpers/history-commits';
import { tempDir } from './helpers/small-base';

const dir = join(tempDir('history-duplicates'), 'trips');
const SCHEMA: StructType = { type: 'struct', fields: [field('trip_id', 'long'), field('fare', 'double')] };
const trips = (...ids: number[]) => ({
  kind: 'rows' as const,
  schema: SCHEMA,
  rows: ids.map((trip_id) => ({ trip_id, fare: 1.5 })),
});
let commits: HistoryCommit[];

beforeAll(async () => {
  await writeDeltaTable(dir, trips(0, 1, 2));
  // Both jobs read version 0, find no trip 100, and append the batch: appends never conflict.
  const [job1, job2] = [await DeltaTable.open(dir), await DeltaTable.open(dir)];
  const a = await prepareWrite(job1, trips(100, 101, 102), { mode: 'append' });
  const b = await prepareWrite(job2, trips(100, 101, 102), { mode: 'append' });
  await a?.commit();
  await b?.commit();
  await writeDeltaTable(dir, trips(0, 7), { mode: 'append' });
  commits = [
    await commitAt(dir, 0),
    await commitAt(dir, 1),
    await commitAt(dir, 2, [1], 'inferred'),
    await commitAt(dir, 3),
  ];
});

describe('duplicate keys', () => {
  it('finds every key present twice and the commits that added it, concurrent or not', async () => {
    const found = await duplicateKeys(commits, logAccess(dir), ['trip_id']);
    expect(found.atVersion).toBe(3);
    expect(found.distinct).toBe(4);
    const byKey: Record<string, DuplicateKey> = Object.fromEntries(found.keys.map((k) => [String(k.key.trip_id), k]));
    expect(Object.keys(byKey).sort()).toEqual(['0', '100', '101', '102']);
    for (const id of ['100', '101', '102']) {
      expect(byKey[id]?.count).toBe(2);
      expect(byKey[id]?.addedBy.map((s) => [s.version, s.rows])).toEqual([
        [1, 1],
        [2, 1],
      ]);
      expect(byKey[id]?.concurrent).toBe(true);
      expect(byKey[id]?.addedBy[0]?.operation).toBe('WRITE');
    }
    expect(byKey['0']?.addedBy.map((s) => s.version)).toEqual([0, 3]);
    expect(byKey['0']?.concurrent).toBe(false);
  });

  it('searches an older snapshot, lists up to its bound and counts the rest', async () => {
    const before = await duplicateKeys(commits, logAccess(dir), ['trip_id'], { atVersion: 1 });
    expect(before.distinct).toBe(0);
    expect(before.keys).toEqual([]);
    const steps: string[] = [];
    const bounded = await duplicateKeys(commits, logAccess(dir), ['trip_id', 'fare'], {
      limit: 2,
      onProgress: (s) => steps.push(s),
    });
    expect(bounded.distinct).toBe(4);
    expect(bounded.keys).toHaveLength(2);
    expect(steps[0]).toMatch(/grouping 4 files by trip_id, fare/);
  });

  it('refuses a column the table does not have, naming it', async () => {
    await expect(duplicateKeys(commits, logAccess(dir), ['tripid'])).rejects.toThrow(KeyColumnError);
    await expect(duplicateKeys(commits, logAccess(dir), ['tripid'])).rejects.toThrow(/'tripid' is not a column/);
  });
});
