/** Shared pieces of the Iceberg tests: fixture path resolution, a tiny source Parquet file, a temp catalog. */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixture } from '../../../../fixtures';
import { defaultResolvePath, type PathResolver } from '../../src/ops/iceberg/paths';
import { sqlString, withConnection } from '../../src/ops/parquet/duck';

export const ICEBERG_GOLDEN = fixture('iceberg-golden');
export const ICEBERG_SPEC = fixture('iceberg-spec');

/** Fixture paths are relative to the duckdb-iceberg repo root (`data/persistent/…`). */
export const goldenResolver: PathResolver = (p) => {
  const prefix = 'data/persistent/';
  return p.startsWith(prefix) ? join(ICEBERG_GOLDEN, p.slice(prefix.length)) : defaultResolvePath(p);
};

/** A copy of a fixture's catalog database (opening it may create tables). */
export function copyGoldenCatalog(table: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const to = join(dir, `${table}-catalog.db`);
  copyFileSync(join(ICEBERG_GOLDEN, table, 'pyiceberg_catalog.db'), to);
  return to;
}

/** `n` trips with ids from `first`: the shape of the lab's taxi rows, small. */
export async function writeTripsParquet(file: string, first: number, n: number): Promise<string> {
  await withConnection((c) =>
    c.run(
      `COPY (SELECT (${first} + i)::BIGINT AS trip_id, (1 + i % 2)::INTEGER AS "VendorID", ` +
        `TIMESTAMP '2024-01-15 00:00:00' + INTERVAL (i) MINUTE AS tpep_pickup_datetime, ` +
        `(i * 1.5)::DOUBLE AS fare_amount, CASE WHEN i % 3 = 0 THEN NULL ELSE 'N' END AS store_and_fwd_flag ` +
        `FROM range(${n}) t(i)) TO ${sqlString(file)} (FORMAT parquet)`,
    ),
  );
  return file;
}
