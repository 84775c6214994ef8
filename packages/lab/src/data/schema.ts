/** The 2025 NYC TLC yellow-taxi schema, with the DuckDB type of each column, in file order. */
export const TLC_COLUMNS: { name: string; type: string }[] = [
  { name: 'VendorID', type: 'INTEGER' },
  { name: 'tpep_pickup_datetime', type: 'TIMESTAMP' },
  { name: 'tpep_dropoff_datetime', type: 'TIMESTAMP' },
  { name: 'passenger_count', type: 'BIGINT' },
  { name: 'trip_distance', type: 'DOUBLE' },
  { name: 'RatecodeID', type: 'BIGINT' },
  { name: 'store_and_fwd_flag', type: 'VARCHAR' },
  { name: 'PULocationID', type: 'INTEGER' },
  { name: 'DOLocationID', type: 'INTEGER' },
  { name: 'payment_type', type: 'BIGINT' },
  { name: 'fare_amount', type: 'DOUBLE' },
  { name: 'extra', type: 'DOUBLE' },
  { name: 'mta_tax', type: 'DOUBLE' },
  { name: 'tip_amount', type: 'DOUBLE' },
  { name: 'tolls_amount', type: 'DOUBLE' },
  { name: 'improvement_surcharge', type: 'DOUBLE' },
  { name: 'total_amount', type: 'DOUBLE' },
  { name: 'congestion_surcharge', type: 'DOUBLE' },
  { name: 'Airport_fee', type: 'DOUBLE' },
  { name: 'cbd_congestion_fee', type: 'DOUBLE' },
];

/** Our files add this column last: the trip's position in its source file (February: + 10,000,000). */
export const TRIP_ID = { name: 'trip_id', type: 'BIGINT' } as const;

/** The columns of every file of a data set. */
export const DATASET_COLUMNS: readonly { name: string; type: string }[] = [...TLC_COLUMNS, TRIP_ID];
