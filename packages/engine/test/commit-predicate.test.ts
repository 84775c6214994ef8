/**
 * commitInfo's `predicate` as delta-rs 1.6.6 records it, measured by `npm run lab -- compare` against the real
 * deltalake 1.6.6 (DataFusion's SQL unparser): an identifier with upper case is quoted, a lower-case one is bare, a
 * cast to DATE reads `arrow_cast(x, 'Date32')` and a DATE literal `'…'::date`. The human spelling stays for messages.
 */
import { describe, expect, it } from 'vitest';
import { parsePredicate, renderExpression } from '../src/kernel/sql';
import { TLC_SCHEMA as taxi } from './helpers/taxi';

describe("a predicate in delta-rs's spelling", () => {
  it.each([
    ['VendorID = 1', '"VendorID" = 1'],
    ['trip_distance = 0', 'trip_distance = 0'],
    ['fare_amount < 0', 'fare_amount < 0'],
    [
      "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'",
      "arrow_cast(tpep_pickup_datetime, 'Date32') = '2025-02-14'::date",
    ],
  ])('%s is recorded as %s', (text, recorded) => {
    expect(renderExpression(parsePredicate(text, taxi), 'delta-rs')).toBe(recorded);
  });

  it('leaves the human spelling as it was', () => {
    expect(renderExpression(parsePredicate('VendorID = 1', taxi))).toBe('VendorID = 1');
  });
});
