import { DatasetError } from './errors';
import { FEBRUARY_DAYS, type FebruaryDay, type Figures, figuresFrom } from './figures';
import { DATASET_COLUMNS } from './schema';
import { type Conn, scalar, sqlString } from './sql';

export interface DatasetFiles {
  january: string;
  february(day: FebruaryDay): string;
}

async function checkColumns(c: Conn, file: string): Promise<void> {
  const r = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(file)})`);
  const got = (r.getRows() as unknown[][]).map((row) => `${String(row[0])} ${String(row[1])}`);
  const want = DATASET_COLUMNS.map((col) => `${col.name} ${col.type}`);
  if (got.join(', ') !== want.join(', ')) {
    throw new DatasetError(`${file}: columns [${got.join(', ')}], expected [${want.join(', ')}]`);
  }
}

/**
 * Counts the figures of a written data set, and checks what every data set promises: the columns are
 * TLC_COLUMNS + trip_id, January's trip_id is the row position, each February file holds only its day
 * with trip_ids increasing from 10,000,000 on.
 */
export async function measureDataset(
  c: Conn,
  files: DatasetFiles,
  scale: number,
  rowsPerFile: number,
): Promise<Figures> {
  const jan = `read_parquet(${sqlString(files.january)}, file_row_number = true)`;
  await checkColumns(c, files.january);
  const r = await c.runAndReadAll(`SELECT
      count(*),
      count(*) FILTER (WHERE "VendorID" = 1), count(*) FILTER (WHERE "VendorID" = 2),
      count(*) FILTER (WHERE "VendorID" = 6), count(*) FILTER (WHERE "VendorID" = 7),
      count(*) FILTER (WHERE fare_amount < 0), count(*) FILTER (WHERE trip_distance = 0),
      count(*) FILTER (WHERE fare_amount < 0 AND trip_distance = 0),
      count(*) FILTER (WHERE CAST(tpep_pickup_datetime AS DATE) = DATE '2025-01-15'),
      count(*) FILTER (WHERE trip_id IS DISTINCT FROM file_row_number)
    FROM ${jan}`);
  const [n = 0, v1 = 0, v2 = 0, v6 = 0, v7 = 0, neg = 0, zero = 0, both = 0, jan15 = 0, misplaced = 0] = (
    r.getRows()[0] ?? []
  ).map(Number);
  if (misplaced > 0) throw new DatasetError(`${files.january}: ${misplaced} rows whose trip_id is not their position`);

  const feb: Record<FebruaryDay, number> = { '2025-02-01': 0, '2025-02-02': 0, '2025-02-14': 0 };
  for (const day of FEBRUARY_DAYS) {
    const file = files.february(day);
    await checkColumns(c, file);
    const bad = await scalar(
      c,
      `SELECT count(*) FILTER (WHERE CAST(tpep_pickup_datetime AS DATE) IS DISTINCT FROM DATE ${sqlString(day)}
                              OR trip_id < 10000000 OR trip_id <= prev)
       FROM (SELECT *, lag(trip_id, 1, -1) OVER (ORDER BY file_row_number) AS prev
             FROM read_parquet(${sqlString(file)}, file_row_number = true))`,
    );
    if (bad > 0) throw new DatasetError(`${file}: ${bad} rows off the day or out of trip_id order`);
    feb[day] = await scalar(c, `SELECT count(*) FROM read_parquet(${sqlString(file)})`);
  }
  return figuresFrom({
    scale,
    vendors: { 1: v1, 2: v2, 6: v6, 7: v7 },
    januaryTrips: n,
    negativeFares: neg,
    zeroDistance: zero,
    both,
    jan15,
    feb01: feb['2025-02-01'],
    feb02: feb['2025-02-02'],
    feb14: feb['2025-02-14'],
    rowsPerFile,
  });
}
