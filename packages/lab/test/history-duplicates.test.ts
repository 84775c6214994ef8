/**
 * Duplicated keys found in a snapshot and traced to the commits that added them: two jobs that each checked for a
 * batch, saw none and appended it at once (E1's damage), and a later lone append repeating an old key. Keys, counts,
 * the commits and whether those commits were concurrent are all checked, with the listing bound and a bad column.
 */
import { join } from 'node:path';
import {
  DeltaTable,
  field,
  prepareWrite,
  readCommit,
  type StructType,
  storeFor,
  writeDeltaTable,
} from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { duplicateKeys, KeyColumnError } from '../src/audit/history/duplicates';
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
const search = async (
  key: string[],
  version?: number,
  maxKeys?: number,
  onProgress?: (done: number, total: number) => void,
) =>
  duplicateKeys(await DeltaTable.open(dir, version === undefined ? {} : { version }), key, {
    commits,
    readActions: (v) => readCommit(storeFor(dir), v),
    ...(maxKeys !== undefined && { maxKeys }),
    ...(onProgress && { onProgress }),
  });

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
    const { duplicates: found, findings } = await search(['trip_id']);
    expect(found.atVersion).toBe(3);
    expect(found.distinct).toBe(4);
    expect(found.truncated).toBe(false);
    const byKey: Record<string, DuplicateKey> = Object.fromEntries(
      found.keys.map((k) => [String(k.values.trip_id), k]),
    );
    expect(Object.keys(byKey).sort()).toEqual(['0', '100', '101', '102']);
    for (const id of ['100', '101', '102']) {
      expect(byKey[id]?.count).toBe(2);
      expect(byKey[id]?.addedBy.map((s) => [s.version, s.rows, s.concurrent])).toEqual([
        [1, 1, true],
        [2, 1, true],
      ]);
    }
    expect(byKey['0']?.addedBy.map((s) => [s.version, s.concurrent])).toEqual([
      [0, false],
      [3, false],
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ rule: 'duplicate-keys', severity: 'error', versions: [0, 1, 2, 3] });
    expect(findings[0]?.evidence).toMatch(
      /^4 keys of \(trip_id\) are present more than once at version 3; of the 4 listed, 3 were added by concurrent commits/,
    );
  });

  it('searches an older snapshot, lists up to its bound and counts the rest', async () => {
    const before = await search(['trip_id'], 1);
    expect(before.duplicates.distinct).toBe(0);
    expect(before.duplicates.keys).toEqual([]);
    expect(before.findings).toEqual([]);
    const walked: number[] = [];
    const bounded = await search(['trip_id', 'fare'], undefined, 2, (done) => walked.push(done));
    expect(bounded.duplicates.distinct).toBe(4);
    expect(bounded.duplicates.keys).toHaveLength(2);
    expect(bounded.duplicates.truncated).toBe(true);
    // The two most repeated keys listed first are traced to their commits, walking back from version 3.
    expect(walked.length).toBeGreaterThan(0);
  });

  it('refuses a column the table does not have, naming it', async () => {
    await expect(search(['tripid'])).rejects.toThrow(KeyColumnError);
    await expect(search(['tripid'])).rejects.toThrow(/'tripid' is not a column/);
  });
});
