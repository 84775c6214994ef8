/** Taxi-shaped rows for the benchmarks: the TLC columns and types, deterministic values. */
export const LESSON_ROWS = 3_475_226;
export const ROWS_PER_FILE = 400_000;

export function taxiSql(rows: number): string {
  return `SELECT
    (CASE WHEN i % 1000 = 0 THEN 7 WHEN i % 3 = 0 THEN 1 ELSE 2 END)::INTEGER AS VendorID,
    TIMESTAMP '2025-01-01' + to_microseconds((i * 769)::BIGINT) AS tpep_pickup_datetime,
    TIMESTAMP '2025-01-01' + to_microseconds((i * 769 + 600000000 + (i % 997) * 1000000)::BIGINT) AS tpep_dropoff_datetime,
    (i % 4)::BIGINT AS passenger_count, ((i % 89) / 10.0)::DOUBLE AS trip_distance, 1::BIGINT AS RatecodeID,
    CASE WHEN i % 50 = 0 THEN 'Y' ELSE 'N' END AS store_and_fwd_flag,
    (i % 263 + 1)::INTEGER AS PULocationID, ((i * 7) % 263 + 1)::INTEGER AS DOLocationID, (i % 4 + 1)::BIGINT AS payment_type,
    ((i % 5000) / 100.0 - 2)::DOUBLE AS fare_amount, 1.0::DOUBLE AS extra, 0.5::DOUBLE AS mta_tax,
    ((i % 700) / 100.0)::DOUBLE AS tip_amount, 0.0::DOUBLE AS tolls_amount, 1.0::DOUBLE AS improvement_surcharge,
    ((i % 6000) / 100.0)::DOUBLE AS total_amount, 2.5::DOUBLE AS congestion_surcharge, 0.0::DOUBLE AS Airport_fee,
    0.75::DOUBLE AS cbd_congestion_fee, i::BIGINT AS trip_id
  FROM range(${rows}) r(i)`;
}
