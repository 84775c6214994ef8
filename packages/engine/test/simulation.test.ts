/**
 * The winner simulation and the pure checker together, as the playground and the forecasts use
 * them: per-file match counts decide which files a winner rewrites, never min/max alone.
 */
import { describe, expect, it } from 'vitest';
import {
  type Add,
  checkWinner,
  compactionBins,
  type Expr,
  type FileStats,
  field,
  parsePredicate,
  partitionGroups,
  predictConflict,
  type SimulatedOperation,
  type StructType,
  simulatePieces,
  simulateRewrite,
} from '../src/index';

const schema: StructType = {
  type: 'struct',
  fields: [field('VendorID', 'integer'), field('fare_amount', 'double'), field('trip_distance', 'double')],
};
const protocol = { minReaderVersion: 1, minWriterVersion: 2 };

/** The lesson's flat layout: files 1–7 hold vendors 1, 2, 7; files 8–9 hold 1, 2, 6. */
const flat: Add[] = Array.from({ length: 9 }, (_, i) => {
  const stats: FileStats = {
    numRecords: 400_000,
    minValues: { VendorID: 1, fare_amount: -50, trip_distance: 0 },
    maxValues: { VendorID: i < 7 ? 7 : 6, fare_amount: 500, trip_distance: 60 },
    nullCount: { VendorID: 0, fare_amount: 0, trip_distance: 0 },
  };
  return {
    path: `f${i + 1}.parquet`,
    partitionValues: {},
    size: 10_000_000,
    modificationTime: 0,
    dataChange: true,
    stats: JSON.stringify(stats),
  };
});
/** Rows of each vendor per file, as a layout query counts them. */
const perFile = (vendor: number) =>
  new Map(flat.map((f, i) => [f.path, vendor === 7 ? (i < 7 ? 170 : 0) : vendor === 6 ? (i < 7 ? 0 : 240) : 100_000]));

const updateOf = (vendor: number): SimulatedOperation => ({
  kind: 'update',
  predicate: parsePredicate(`VendorID = ${vendor}`, schema) as Expr,
  matches: perFile(vendor),
  updatedColumns: ['tip_amount'],
});

describe('D1: updates of vendors 6 and 7 on the flat table', () => {
  it('6 then 7: both commit, because 6 rewrites only files 8–9 and its new file spans VendorID 1..6', () => {
    const p = predictConflict(flat, protocol, updateOf(6), updateOf(7), 'Serializable');
    expect(p.conflict).toBeNull();
    expect(p.winnerActions.filter((a) => 'remove' in a).map((a) => ('remove' in a ? a.remove.path : ''))).toEqual([
      'f8.parquet',
      'f9.parquet',
    ]);
  });

  it('7 then 6: the second fails with "added new data", because 7 rewrites files 1–7 into one spanning 1..7', () => {
    const p = predictConflict(flat, protocol, updateOf(7), updateOf(6), 'Serializable');
    expect(p.conflict?.kind).toBe('ConcurrentAppend');
    expect(p.conflict?.message).toMatch(/^Commit failed: a concurrent transactions added new data\./);
  });

  it('min/max alone would have predicted a conflict for 6 then 7', () => {
    const allFiles = new Map(flat.map((f) => [f.path, 1]));
    const guess = predictConflict(
      flat,
      protocol,
      { ...updateOf(6), matches: allFiles } as SimulatedOperation,
      updateOf(7),
      'Serializable',
    );
    expect(guess.conflict?.kind).toBe('ConcurrentAppend');
  });
});

describe('other pairs', () => {
  it('B1: vendor 1 then vendor 2 on the flat table fails the second', () => {
    expect(predictConflict(flat, protocol, updateOf(1), updateOf(2), 'Serializable').conflict?.kind).toBe(
      'ConcurrentAppend',
    );
  });

  it('B3: vendors 1 and 2 on the partitioned copy both commit', () => {
    const parts: Add[] = [1, 2, 6, 7].map((v) => ({
      path: `VendorID=${v}/a.parquet`,
      partitionValues: { VendorID: String(v) },
      size: 1,
      modificationTime: 0,
      dataChange: true,
    }));
    const op = (v: number): SimulatedOperation => ({
      kind: 'update',
      predicate: parsePredicate(`VendorID = ${v}`, schema) as Expr,
      matches: new Map(parts.map((f) => [f.path, f.partitionValues.VendorID === String(v) ? 10 : 0])),
    });
    expect(predictConflict(parts, protocol, op(1), op(2), 'Serializable').conflict).toBeNull();
  });

  it('B2: two deletes on overlapping rows fail the second', () => {
    const del = (pred: string): SimulatedOperation => ({
      kind: 'delete',
      predicate: parsePredicate(pred, schema) as Expr,
      matches: new Map(flat.map((f) => [f.path, 1000])),
    });
    const p = predictConflict(flat, protocol, del('fare_amount < 0'), del('trip_distance = 0'), 'Serializable');
    expect(p.conflict?.kind).toBe('ConcurrentAppend');
  });

  it('I5 and I4: a blind append passes an update only under small-w writeSerializable', () => {
    const append: SimulatedOperation = { kind: 'append', blind: true };
    expect(predictConflict(flat, protocol, append, updateOf(2), 'WriteSerializable').conflict).toBeNull();
    expect(predictConflict(flat, protocol, append, updateOf(2), 'Serializable').conflict?.kind).toBe(
      'ConcurrentAppend',
    );
  });

  it('C3: an update first fails a compaction with "deleted data this operation read"', () => {
    const small = flat.map((f) => ({ ...f, size: 1000 }));
    const p = predictConflict(
      small,
      protocol,
      updateOf(2),
      { kind: 'optimize', targetSize: 104_857_600 },
      'Serializable',
    );
    expect(p.conflict?.kind).toBe('ConcurrentDeleteRead');
  });
});

describe('commits in pieces, as the engine writes them', () => {
  const partitioned: Add[] = [1, 1, 2, 2, 2].map((v, i) => ({
    path: `VendorID=${v}/p${i}.parquet`,
    partitionValues: { VendorID: String(v) },
    size: 10_000_000,
    modificationTime: 0,
    dataChange: true,
    stats: JSON.stringify({
      numRecords: 100,
      minValues: { fare_amount: 1 },
      maxValues: { fare_amount: 9 },
      nullCount: {},
    }),
  }));
  const matchesIn = (vendor: number) =>
    new Map(partitioned.map((f) => [f.path, f.partitionValues.VendorID === String(vendor) ? 100 : 0]));

  it('groups files by partition and rewrites each partition into its own new file', () => {
    expect(partitionGroups(partitioned).map((g) => g.length)).toEqual([2, 3]);
    const predicate = parsePredicate('fare_amount > 0', schema);
    const op: SimulatedOperation = {
      kind: 'delete',
      predicate,
      matches: new Map(partitioned.map((f) => [f.path, 10])),
    };
    const commit = simulateRewrite(partitioned, protocol, op);
    const adds = commit.actions.filter((a) => 'add' in a);
    expect(adds).toHaveLength(2);
    expect(commit.actions.filter((a) => 'remove' in a)).toHaveLength(5);
    expect(commit.actions.filter((a) => 'commitInfo' in a)).toHaveLength(1);
  });

  it('B3 on a partitioned table: an update of VendorID 2 after one of VendorID 1 commits', () => {
    const update = (v: number): SimulatedOperation => ({
      kind: 'update',
      predicate: parsePredicate(`VendorID = ${v}`, schema),
      matches: matchesIn(v),
      updatedColumns: ['tip_amount'],
    });
    const winner = simulateRewrite(partitioned, protocol, update(1), 'first');
    const loser = simulateRewrite(partitioned, protocol, update(2), 'second');
    expect(checkWinner(loser.reads, { version: 1, actions: winner.actions }, 'Serializable')).toBeNull();
  });

  it('compactionBins packs per partition, largest first, and leaves single-file bins alone', () => {
    const sized = (path: string, mb: number, vendor = '1'): Add => ({
      path,
      partitionValues: { VendorID: vendor },
      size: mb * 1_000_000,
      modificationTime: 0,
      dataChange: true,
    });
    const files = [
      sized('a', 10),
      sized('b', 12),
      sized('c', 9),
      sized('d', 30),
      sized('e', 5, '2'),
      sized('f', 5, '2'),
    ];
    expect(compactionBins(files, 25_000_000).map((b) => b.map((f) => f.path))).toEqual([
      ['b', 'a'],
      ['e', 'f'],
    ]);
    expect(compactionBins(files, 8_000_000)).toEqual([]);
    const compact: SimulatedOperation = { kind: 'optimize', targetSize: 25_000_000 };
    const bins = compactionBins(files, 25_000_000);
    const commit = simulatePieces(
      files,
      protocol,
      compact,
      bins.map((b) => ({ files: b, op: compact })),
    );
    expect(commit.actions.filter((a) => 'add' in a)).toHaveLength(2);
    expect(commit.actions.filter((a) => 'remove' in a)).toHaveLength(4);
  });
});
