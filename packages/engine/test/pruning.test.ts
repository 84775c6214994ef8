import { describe, expect, it } from 'vitest';
import { field, type StructType } from '../src/kernel/delta/protocol/schema';
import { canMatch, type FileStatsView, parsePredicate } from '../src/kernel/sql';

const schema: StructType = {
  type: 'struct',
  fields: [
    field('VendorID', 'integer'),
    field('tpep_pickup_datetime', 'timestamp_ntz'),
    field('event_time', 'timestamp'),
    field('trip_distance', 'double'),
    field('store_and_fwd_flag', 'string'),
    field('payment_type', 'long'),
    field('tip_amount', 'double'),
    field('day', 'date'),
    field('flag', 'boolean'),
  ],
};

const p = (text: string) => parsePredicate(text, schema);

/** A file of 100 rows with the given VendorID range and no nulls. */
function vendorFile(min: number, max: number): FileStatsView {
  return {
    partitionValues: {},
    numRecords: 100,
    minValues: { VendorID: min },
    maxValues: { VendorID: max },
    nullCount: { VendorID: 0 },
  };
}

describe('canMatch: min/max can only prove absence', () => {
  it('cannot exclude VendorID = 6 from a file spanning 1..7, but can from one spanning 1..2', () => {
    expect(canMatch(p('VendorID = 6'), vendorFile(1, 7))).toBe(true);
    expect(canMatch(p('VendorID = 6'), vendorFile(1, 2))).toBe(false);
  });

  it('reads comparisons in either order and at the bounds', () => {
    const f = vendorFile(3, 5);
    expect(canMatch(p('VendorID < 3'), f)).toBe(false);
    expect(canMatch(p('VendorID <= 3'), f)).toBe(true);
    expect(canMatch(p('3 > VendorID'), f)).toBe(false);
    expect(canMatch(p('5 < VendorID'), f)).toBe(false);
    expect(canMatch(p('VendorID >= 5'), f)).toBe(true);
    expect(canMatch(p('VendorID > 5'), f)).toBe(false);
    expect(canMatch(p('VendorID <> 4'), f)).toBe(true);
    expect(canMatch(p('VendorID <> 4'), vendorFile(4, 4))).toBe(false);
  });

  it('keeps files whose stats are missing', () => {
    expect(canMatch(p('VendorID = 6'), { partitionValues: {} })).toBe(true);
    expect(canMatch(p('VendorID = 6'), { partitionValues: {}, numRecords: 10, minValues: { VendorID: 7 } })).toBe(
      false,
    );
    expect(canMatch(p('VendorID = 6'), { partitionValues: {}, numRecords: 10, maxValues: { VendorID: 7 } })).toBe(true);
    expect(canMatch(p('tip_amount > 1'), vendorFile(1, 2))).toBe(true);
  });

  it('excludes empty files', () => {
    expect(canMatch(p('VendorID IS NULL OR VendorID IS NOT NULL'), { partitionValues: {}, numRecords: 0 })).toBe(false);
  });

  it('combines with AND, OR and NOT', () => {
    const f = vendorFile(1, 2);
    expect(canMatch(p('VendorID = 6 AND tip_amount > 0'), f)).toBe(false);
    expect(canMatch(p('tip_amount > 0 AND VendorID = 6'), f)).toBe(false);
    expect(canMatch(p('VendorID = 6 OR tip_amount > 0'), f)).toBe(true);
    expect(canMatch(p('VendorID = 6 OR VendorID = 7'), f)).toBe(false);
    expect(canMatch(p('VendorID = 6 OR VendorID = 2'), f)).toBe(true);
    expect(canMatch(p('NOT (VendorID = 6)'), f)).toBe(true);
    expect(canMatch(p('NOT (VendorID <= 2)'), f)).toBe(false);
    // NOT (a = 1) excludes only a file where every row is exactly 1 ...
    expect(canMatch(p('NOT (VendorID = 1)'), vendorFile(1, 1))).toBe(false);
    expect(canMatch(p('NOT (VendorID = 1)'), vendorFile(1, 2))).toBe(true);
    // ... and NULLs make neither a = 1 nor NOT (a = 1) true.
    const withNulls = { ...vendorFile(1, 1), nullCount: { VendorID: 40 } };
    expect(canMatch(p('NOT (VendorID = 1)'), withNulls)).toBe(false);
    expect(canMatch(p('(VendorID = 1) IS NOT TRUE'), withNulls)).toBe(true);
    expect(canMatch(p('(VendorID = 1) IS NOT TRUE'), vendorFile(1, 1))).toBe(false);
  });

  it('handles IN and BETWEEN', () => {
    const f = vendorFile(3, 5);
    expect(canMatch(p('VendorID IN (1, 2, 6)'), f)).toBe(false);
    expect(canMatch(p('VendorID IN (1, 4)'), f)).toBe(true);
    expect(canMatch(p('VendorID NOT IN (3, 4, 5)'), f)).toBe(true);
    expect(canMatch(p('VendorID NOT IN (4)'), vendorFile(4, 4))).toBe(false);
    expect(canMatch(p('VendorID NOT IN (1, NULL)'), f)).toBe(false);
    expect(canMatch(p('VendorID BETWEEN 6 AND 9'), f)).toBe(false);
    expect(canMatch(p('VendorID BETWEEN 0 AND 3'), f)).toBe(true);
    expect(canMatch(p('VendorID NOT BETWEEN 0 AND 9'), f)).toBe(false);
    expect(canMatch(p('VendorID NOT BETWEEN 4 AND 9'), f)).toBe(true);
  });

  it('uses null counts for IS [NOT] NULL', () => {
    const none = { ...vendorFile(1, 2), nullCount: { VendorID: 0 } };
    const all = { partitionValues: {}, numRecords: 100, nullCount: { VendorID: 100 } };
    expect(canMatch(p('VendorID IS NULL'), none)).toBe(false);
    expect(canMatch(p('VendorID IS NOT NULL'), none)).toBe(true);
    expect(canMatch(p('VendorID IS NOT NULL'), all)).toBe(false);
    expect(canMatch(p('VendorID IS NULL'), all)).toBe(true);
    expect(canMatch(p('VendorID = 1'), all)).toBe(false);
    expect(canMatch(p('VendorID IS NULL'), { partitionValues: {}, numRecords: 100 })).toBe(true);
  });

  it('treats arithmetic and functions as unknown', () => {
    expect(canMatch(p('VendorID + 1 = 100'), vendorFile(1, 2))).toBe(true);
    expect(canMatch(p('abs(VendorID) = 100'), vendorFile(1, 2))).toBe(true);
  });

  it('bounds a float column by its max too, as delta-rs prunes', () => {
    const f: FileStatsView = {
      partitionValues: {},
      numRecords: 9,
      minValues: { tip_amount: 1 },
      maxValues: { tip_amount: 5 },
    };
    expect(canMatch(p('tip_amount > 10'), f)).toBe(false);
    expect(canMatch(p('tip_amount > 4.5'), f)).toBe(true);
    expect(canMatch(p('tip_amount < 1'), f)).toBe(false);
  });

  it('compares strings by code point and distrusts long max values', () => {
    const f = (min: string, max: string): FileStatsView => ({
      partitionValues: {},
      numRecords: 9,
      minValues: { store_and_fwd_flag: min },
      maxValues: { store_and_fwd_flag: max },
    });
    expect(canMatch(p("store_and_fwd_flag = 'Y'"), f('N', 'N'))).toBe(false);
    expect(canMatch(p("store_and_fwd_flag = 'Y'"), f('N', 'Z'))).toBe(true);
    // U+1F600 (a surrogate pair in UTF-16) sorts after U+FF5E by code point.
    expect(canMatch(p("store_and_fwd_flag = '\u{1F600}'"), f('a', '\uFF5E'))).toBe(false);
    const long = 'b'.repeat(32);
    expect(canMatch(p(`store_and_fwd_flag = '${long}c'`), f('a', long))).toBe(true);
    expect(canMatch(p("store_and_fwd_flag = 'a'"), f(`b${long}`, `c${long}`))).toBe(false);
  });
});

describe('canMatch: partition values are exact', () => {
  it('excludes by the typed partition value', () => {
    expect(canMatch(p('VendorID = 1'), { partitionValues: { VendorID: '2' } })).toBe(false);
    expect(canMatch(p('VendorID = 2'), { partitionValues: { VendorID: '2' } })).toBe(true);
    expect(canMatch(p('VendorID > 10'), { partitionValues: { VendorID: '9' } })).toBe(false);
    expect(canMatch(p("day = '2025-02-14'"), { partitionValues: { day: '2025-02-14' } })).toBe(true);
    expect(canMatch(p("day < '2025-02-14'"), { partitionValues: { day: '2025-02-14' } })).toBe(false);
    expect(canMatch(p('flag'), { partitionValues: { flag: 'false' } })).toBe(false);
    expect(canMatch(p('NOT flag'), { partitionValues: { flag: 'false' } })).toBe(true);
    expect(
      canMatch(p("tpep_pickup_datetime < '2025-01-01 10:00:00'"), {
        partitionValues: { tpep_pickup_datetime: '2025-01-01 10:00:00' },
      }),
    ).toBe(false);
  });

  it('matches only IS NULL on a null partition', () => {
    expect(canMatch(p('VendorID IS NULL'), { partitionValues: { VendorID: null } })).toBe(true);
    expect(canMatch(p('VendorID IS NOT NULL'), { partitionValues: { VendorID: null } })).toBe(false);
    expect(canMatch(p('VendorID = 1'), { partitionValues: { VendorID: null } })).toBe(false);
    expect(canMatch(p('NOT (VendorID = 1)'), { partitionValues: { VendorID: null } })).toBe(false);
    expect(canMatch(p('VendorID IS NULL'), { partitionValues: { VendorID: '1' } })).toBe(false);
  });

  it('keeps files whose partition value it cannot read', () => {
    expect(canMatch(p('VendorID = 1'), { partitionValues: { VendorID: 'x' } })).toBe(true);
    expect(canMatch(p('VendorID = 1'), { partitionValues: { VendorID: '' } })).toBe(true);
  });
});

describe('canMatch: timestamps', () => {
  const ntz = (min: string, max: string): FileStatsView => ({
    partitionValues: {},
    numRecords: 10,
    minValues: { tpep_pickup_datetime: min },
    maxValues: { tpep_pickup_datetime: max },
    nullCount: { tpep_pickup_datetime: 0 },
  });
  const tz = (min: string, max: string): FileStatsView => ({
    partitionValues: {},
    numRecords: 10,
    minValues: { event_time: min },
    maxValues: { event_time: max },
  });

  it('compares timestamp_ntz stats in microseconds', () => {
    const f = ntz('2025-01-01 00:00:09.071191', '2025-01-09 23:59:59.999999');
    expect(canMatch(p("tpep_pickup_datetime >= TIMESTAMP '2025-01-10 00:00:00'"), f)).toBe(false);
    expect(canMatch(p("tpep_pickup_datetime >= TIMESTAMP '2025-01-09 23:59:59.999999'"), f)).toBe(true);
    expect(canMatch(p("tpep_pickup_datetime < TIMESTAMP '2025-01-01 00:00:09.071191'"), f)).toBe(false);
    expect(canMatch(p("tpep_pickup_datetime <= TIMESTAMP '2025-01-01 00:00:09.071191'"), f)).toBe(true);
  });

  it('widens a max truncated to milliseconds by 999µs', () => {
    const f = ntz('2025-01-01 00:00:00', '2025-01-09 23:59:59.999');
    expect(canMatch(p("tpep_pickup_datetime > TIMESTAMP '2025-01-09 23:59:59.999500'"), f)).toBe(true);
    expect(canMatch(p("tpep_pickup_datetime >= '2025-01-10'"), f)).toBe(false);
  });

  it('reads ISO stats of Delta timestamp columns as UTC', () => {
    const f = tz('2025-01-01T00:00:00.000Z', '2025-01-09T12:00:00.000Z');
    expect(canMatch(p("event_time > TIMESTAMP '2025-01-09 12:00:01'"), f)).toBe(false);
    expect(canMatch(p("event_time > TIMESTAMP '2025-01-09 12:00:00'"), f)).toBe(true);
    expect(canMatch(p("event_time < '2024-12-31T23:00:00-02:00'"), f)).toBe(true);
    expect(canMatch(p("event_time < '2024-12-31T23:00:00Z'"), f)).toBe(false);
  });

  it('prunes pickup-date predicates by the day range of the timestamps', () => {
    const pickup = "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'";
    expect(canMatch(p(pickup), ntz('2025-02-01 00:00:00', '2025-02-13 23:59:59.999999'))).toBe(false);
    expect(canMatch(p(pickup), ntz('2025-02-14 23:59:59', '2025-02-20 00:00:00'))).toBe(true);
    expect(canMatch(p(pickup), ntz('2025-02-15 00:00:00', '2025-02-20 00:00:00'))).toBe(false);
    expect(
      canMatch(
        p("date(tpep_pickup_datetime) IN ('2025-03-01', '2025-03-02')"),
        ntz('2025-02-15 00:00:00', '2025-02-20 00:00:00'),
      ),
    ).toBe(false);
  });

  it('allows a day of slack for the day of an instant, which depends on the session time zone', () => {
    const f = tz('2025-02-15T00:00:00.000Z', '2025-02-20T00:00:00.000Z');
    expect(canMatch(p("CAST(event_time AS DATE) = DATE '2025-02-14'"), f)).toBe(true);
    expect(canMatch(p("CAST(event_time AS DATE) = DATE '2025-02-13'"), f)).toBe(false);
  });
});
