/**
 * The checker's own count of the raw data, with its own SQL (DuckDB through the engine's connection helper,
 * which is only a database driver here): January trips, per VendorID, the delete predicates, 2025-01-15, and
 * the three February day files. Nothing is taken from the lab's code or from the results file.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { withConnection } from '@racelab/engine';
import { type Figures, UnusableInputError } from './expectations/types';

export const DATA_FILES = {
  january: 'january.parquet',
  feb01: 'feb-2025-02-01.parquet',
  feb02: 'feb-2025-02-02.parquet',
  feb14: 'feb-2025-02-14.parquet',
} as const;

const FEB_DAYS = { feb01: '2025-02-01', feb02: '2025-02-02', feb14: '2025-02-14' } as const;

function literal(path: string): string {
  return `'${path.replaceAll("'", "''")}'`;
}

function count(v: unknown): number {
  if (typeof v === 'bigint' || typeof v === 'number') return Number(v);
  if (v === null || v === undefined) return 0;
  throw new Error(`unexpected count value ${String(v)}`);
}

export async function recount(dataDir: string): Promise<Figures> {
  for (const file of Object.values(DATA_FILES)) {
    try {
      await access(join(dataDir, file));
    } catch {
      throw new UnusableInputError(`data set ${dataDir} has no ${file}`);
    }
  }
  const path = (f: string) => literal(join(dataDir, f));
  try {
    return await withConnection(async (c) => {
      const jan = `read_parquet(${path(DATA_FILES.january)})`;
      const neg = 'fare_amount < 0';
      const zero = 'trip_distance = 0';
      const totals = (
        await c.runAndReadAll(
          `SELECT count(*), count(*) FILTER (WHERE ${neg}), count(*) FILTER (WHERE ${zero}),
                  count(*) FILTER (WHERE ${neg} AND ${zero}),
                  count(*) FILTER (WHERE CAST(tpep_pickup_datetime AS DATE) = DATE '2025-01-15')
           FROM ${jan}`,
        )
      ).getRows()[0];
      const vendors = (
        await c.runAndReadAll(
          `SELECT CAST("VendorID" AS VARCHAR), count(*), count(*) FILTER (WHERE ${neg}), count(*) FILTER (WHERE ${zero})
           FROM ${jan} GROUP BY 1 ORDER BY 1`,
        )
      ).getRows();
      const figures: Figures = {
        january: count(totals?.[0]),
        negativeFare: count(totals?.[1]),
        zeroDistance: count(totals?.[2]),
        both: count(totals?.[3]),
        jan15: count(totals?.[4]),
        byVendor: {},
        negativeFareByVendor: {},
        zeroDistanceByVendor: {},
        feb01: 0,
        feb02: 0,
        feb14: 0,
      };
      for (const [vendor, n, negN, zeroN] of vendors) {
        const key = vendor === null || vendor === undefined ? 'null' : String(vendor);
        figures.byVendor[key] = count(n);
        figures.negativeFareByVendor[key] = count(negN);
        figures.zeroDistanceByVendor[key] = count(zeroN);
      }
      for (const key of ['feb01', 'feb02', 'feb14'] as const) {
        const day = FEB_DAYS[key];
        const row = (
          await c.runAndReadAll(
            `SELECT count(*), count(*) FILTER (WHERE CAST(tpep_pickup_datetime AS DATE) = DATE '${day}')
             FROM read_parquet(${path(DATA_FILES[key])})`,
          )
        ).getRows()[0];
        const all = count(row?.[0]);
        const onDay = count(row?.[1]);
        if (all !== onDay) {
          throw new UnusableInputError(
            `data set ${dataDir}: ${DATA_FILES[key]} holds ${all} trips but only ${onDay} were picked up on ${day}`,
          );
        }
        figures[key] = all;
      }
      return figures;
    });
  } catch (e) {
    if (e instanceof UnusableInputError) throw e;
    throw new UnusableInputError(
      `data set ${dataDir} could not be counted: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`,
    );
  }
}
