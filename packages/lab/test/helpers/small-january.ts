/**
 * A small January for the P-case tests: 3,000 trips, per 30 trips 7 of VendorID 1, 20 of 2, 1 of 6 and 2 of 7, with
 * tips from 0.01 to 9.99 (no two neighbours alike).
 */
import { withConnection } from '@racelab/engine';

export const VENDOR_TRIPS: Record<string, number> = { '1': 700, '2': 2000, '6': 100, '7': 200 };
export const TRIPS = 3000;

export async function writeSmallJanuary(file: string): Promise<void> {
  await withConnection(async (c) => {
    await c.run(`COPY (
      SELECT i::BIGINT AS trip_id,
             (CASE WHEN i % 30 < 7 THEN 1 WHEN i % 30 < 27 THEN 2 WHEN i % 30 = 27 THEN 6 ELSE 7 END)::INTEGER AS "VendorID",
             round(((i * 37) % 1000) / 100.0 + 0.01, 2)::DOUBLE AS tip_amount
        FROM range(${TRIPS}) t(i)
    ) TO '${file}' (FORMAT parquet)`);
  });
}
