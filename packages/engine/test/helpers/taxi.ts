import { field, type StructType } from '../../src/index';

/** A few taxi columns: a naive timestamp (so the table needs timestampNtz), ints, doubles, a string. */
export const TAXI: StructType = {
  type: 'struct',
  fields: [
    field('trip_id', 'long'),
    field('VendorID', 'integer'),
    field('tpep_pickup_datetime', 'timestamp_ntz'),
    field('store_and_fwd_flag', 'string'),
    field('trip_distance', 'double'),
    field('fare_amount', 'double'),
    field('tip_amount', 'double'),
  ],
};

/** All the TLC yellow-taxi columns with the types the lab gives them, trip_id last. */
export const TLC_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    field('VendorID', 'integer'),
    field('tpep_pickup_datetime', 'timestamp_ntz'),
    field('tpep_dropoff_datetime', 'timestamp_ntz'),
    field('passenger_count', 'long'),
    field('trip_distance', 'double'),
    field('RatecodeID', 'long'),
    field('store_and_fwd_flag', 'string'),
    field('PULocationID', 'integer'),
    field('DOLocationID', 'integer'),
    field('payment_type', 'long'),
    field('fare_amount', 'double'),
    field('extra', 'double'),
    field('mta_tax', 'double'),
    field('tip_amount', 'double'),
    field('tolls_amount', 'double'),
    field('improvement_surcharge', 'double'),
    field('total_amount', 'double'),
    field('congestion_surcharge', 'double'),
    field('Airport_fee', 'double'),
    field('cbd_congestion_fee', 'double'),
    field('trip_id', 'long', false),
  ],
};

/** `count` deterministic trips of one day; vendor 7 only in the first half, vendor 6 only in the second. */
export function taxiRows(day: string, firstId: number, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => {
    const id = firstId + i;
    const s = Math.floor((i * 86_399) / count);
    const time = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
      .map((x) => String(x).padStart(2, '0'))
      .join(':');
    const rare = i < count / 2 ? 7 : 6;
    return {
      trip_id: id,
      VendorID: i % 10 === 0 ? rare : i % 3 === 0 ? 1 : 2,
      tpep_pickup_datetime: `${day} ${time}.${String((i * 7919) % 1_000_000).padStart(6, '0')}`,
      store_and_fwd_flag: i % 17 === 0 ? null : i % 2 ? 'N' : 'Y',
      trip_distance: i % 13 === 0 ? 0 : (i % 97) / 10,
      fare_amount: i % 29 === 0 ? -5 : (i % 53) + 2.5,
      tip_amount: (i % 11) / 2,
    };
  });
}
