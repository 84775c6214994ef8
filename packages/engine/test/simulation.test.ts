/**
 * The winner simulation and the pure checker together, as the playground and the forecasts use
 * them: per-file match counts decide which files a winner rewrites, never min/max alone.
 */
import { describe, expect, it } from 'vitest';
import {
  type Add,
  type Expr,
  type FileStats,
  field,
  parsePredicate,
  predictConflict,
  type SimulatedOperation,
  type StructType,
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
