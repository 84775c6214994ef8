/**
 * A small table with the lesson's shape: 9 files of `perFile` trips, VendorID 1 and 2 in every
 * file, VendorID 7 only in files 1–7 and VendorID 6 only in files 8–9 (so every file's VendorID
 * min/max is 1..7 or 1..6, as at full scale), and February days to append.
 */
import { join } from 'node:path';
import { type DataSource, field, type StructType, writeDeltaTable } from '../../src/index';

export const LESSON: StructType = {
  type: 'struct',
  fields: [
    field('VendorID', 'integer'),
    field('tpep_pickup_datetime', 'timestamp_ntz'),
    field('trip_distance', 'double'),
    field('fare_amount', 'double'),
    field('tip_amount', 'double'),
    field('trip_id', 'long'),
  ],
};

export const PER_FILE = 120;
export const JAN_ROWS = 9 * PER_FILE;

function pickup(day: string, i: number, n: number): string {
  const s = Math.floor((i * 86_399) / n);
  return `${day} ${[Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((x) => String(x).padStart(2, '0')).join(':')}`;
}

export function january(): Record<string, unknown>[] {
  return Array.from({ length: JAN_ROWS }, (_, i) => {
    const file = Math.floor(i / PER_FILE);
    const rare = file < 7 ? 7 : 6;
    return {
      VendorID: i % 40 === 0 ? rare : i % 3 === 0 ? 1 : 2,
      tpep_pickup_datetime: pickup(`2025-01-${String(1 + file * 3).padStart(2, '0')}`, i % PER_FILE, PER_FILE),
      trip_distance: i % 7 === 0 ? 0 : (i % 50) / 10,
      fare_amount: i % 11 === 0 ? -3 : 10 + (i % 20),
      tip_amount: (i % 9) / 2,
      trip_id: i,
    };
  });
}

/** One February day of `n` trips (vendors 1 and 2), ids from 10,000,000 + offset. */
export function february(day: string, n: number, offset: number): DataSource {
  const rows = Array.from({ length: n }, (_, i) => ({
    VendorID: i % 3 === 0 ? 1 : 2,
    tpep_pickup_datetime: pickup(day, i, n),
    trip_distance: (i % 30) / 10,
    fare_amount: 8 + (i % 15),
    tip_amount: (i % 5) / 2,
    trip_id: 10_000_000 + offset + i,
  }));
  return { kind: 'rows', schema: LESSON, rows };
}

export async function lessonTable(
  root: string,
  name: string,
  options: { partitioned?: boolean; configuration?: Record<string, string> } = {},
): Promise<string> {
  const dir = join(root, name);
  await writeDeltaTable(
    dir,
    { kind: 'rows', schema: LESSON, rows: january() },
    {
      rowsPerFile: PER_FILE,
      ...(options.partitioned && { partitionBy: ['VendorID'] }),
      ...(options.configuration && { configuration: options.configuration }),
    },
  );
  return dir;
}
