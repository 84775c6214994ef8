/**
 * The lab's data sets. Every figure is recounted here with SQL of its own over the written files,
 * never taken from the generator: the synthetic month at scale 0.01 and at scale 1 (docs/lab-cases.md's exact
 * numbers), the cache, bad input, and the TLC path on small fake TLC files.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { withConnection } from '@racelab/engine';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Dataset,
  DatasetError,
  type FebruaryDay,
  type Figures,
  prepareDataset,
  scaledFigures,
  TLC_COLUMNS,
} from '../src/data/index';

const root = mkdtempSync(join(tmpdir(), 'lab-data-test-'));
const cacheDir = join(root, 'cache');
const noTlc = join(root, 'no-tlc');
mkdirSync(noTlc);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const DAYS: FebruaryDay[] = ['2025-02-01', '2025-02-02', '2025-02-14'];

/** All rows of a query, BIGINTs as numbers. */
async function rows(sql: string): Promise<unknown[][]> {
  return withConnection(async (c) => {
    const r = await c.runAndReadAll(sql);
    return (r.getRows() as unknown[][]).map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  });
}
async function one(sql: string): Promise<number> {
  return Number((await rows(sql))[0]?.[0]);
}

const FULL: Omit<Figures, 'scale'> = {
  vendors: { 1: 753_671, 2: 2_719_860, 6: 489, 7: 1_206 },
  januaryTrips: 3_475_226,
  negativeFares: 144_118,
  zeroDistance: 90_893,
  both: 14_451,
  jan15: 125_359,
  feb01: 148_649,
  feb02: 123_646,
  feb14: 158_575,
  rowsPerFile: 400_000,
  flatFiles: 9,
  partitionFiles: { 1: 2, 2: 7, 6: 1, 7: 1 },
};

/** Recounts every figure of docs/lab-cases.md from the files of `ds` and checks the promised layout. */
async function verify(ds: Dataset, want: Figures): Promise<void> {
  const jan = `read_parquet(${q(ds.january)}, file_row_number = true)`;
  const R = want.rowsPerFile;
  expect(ds.rowsPerFile).toBe(R);

  // Schema: the 2025 TLC columns, then trip_id BIGINT, in every file.
  const expectedColumns = [...TLC_COLUMNS.map((c) => [c.name, c.type]), ['trip_id', 'BIGINT']];
  for (const file of [ds.january, ...DAYS.map((d) => ds.february(d))]) {
    const d = await rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${q(file)}))`);
    expect(d).toEqual(expectedColumns);
  }

  // Vendor counts, nothing else.
  const vendors = await rows(`SELECT "VendorID", count(*) FROM ${jan} GROUP BY 1 ORDER BY 1`);
  expect(vendors).toEqual([
    [1, want.vendors[1]],
    [2, want.vendors[2]],
    [6, want.vendors[6]],
    [7, want.vendors[7]],
  ]);
  expect(await one(`SELECT count(*) FROM ${jan}`)).toBe(want.januaryTrips);

  // trip_id = position in the file.
  expect(await one(`SELECT count(*) FROM ${jan} WHERE trip_id IS DISTINCT FROM file_row_number`)).toBe(0);

  // The flat layout: 9 chunks of R rows in trip_id order.
  const chunks = await rows(`SELECT file_row_number // ${R} AS k, count(*), min("VendorID"), max("VendorID"),
        count(*) FILTER (WHERE "VendorID" = 1), count(*) FILTER (WHERE "VendorID" = 2),
        count(*) FILTER (WHERE "VendorID" = 6), count(*) FILTER (WHERE "VendorID" = 7),
        count(*) FILTER (WHERE fare_amount < 0), count(*) FILTER (WHERE trip_distance = 0)
      FROM ${jan} GROUP BY 1 ORDER BY 1`);
  expect(chunks.map((c) => c[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  for (const [k, n, lo, hi, v1, v2, v6, v7, neg, zero] of chunks as number[][]) {
    expect(n).toBe((k as number) < 8 ? R : want.januaryTrips - 8 * R);
    expect([k, lo, hi]).toEqual([k, 1, (k as number) < 7 ? 7 : 6]);
    expect(v1).toBeGreaterThan(0);
    expect(v2).toBeGreaterThan(0);
    if ((k as number) < 7) {
      expect(v7, `chunk ${k}`).toBeGreaterThanOrEqual(1);
      expect(v6, `chunk ${k}`).toBe(0);
    } else {
      expect(v6, `chunk ${k}`).toBeGreaterThanOrEqual(1);
      expect(v7, `chunk ${k}`).toBe(0);
    }
    expect(neg, `chunk ${k}`).toBeGreaterThan(0);
    expect(zero, `chunk ${k}`).toBeGreaterThan(0);
  }

  // Split by VendorID with the same cap: 2 + 7 + 1 + 1 files.
  const perVendor = Object.fromEntries(vendors.map(([v, n]) => [v, Math.ceil((n as number) / R)]));
  expect(perVendor).toEqual({ 1: 2, 2: 7, 6: 1, 7: 1 });

  // The predicates of B2.
  const [neg, zero, both, negV1, negV2, zeroV1, zeroV2] = (
    await rows(`SELECT count(*) FILTER (WHERE fare_amount < 0), count(*) FILTER (WHERE trip_distance = 0),
        count(*) FILTER (WHERE fare_amount < 0 AND trip_distance = 0),
        count(*) FILTER (WHERE fare_amount < 0 AND "VendorID" = 1), count(*) FILTER (WHERE fare_amount < 0 AND "VendorID" = 2),
        count(*) FILTER (WHERE trip_distance = 0 AND "VendorID" = 1), count(*) FILTER (WHERE trip_distance = 0 AND "VendorID" = 2)
      FROM ${jan}`)
  )[0] as number[];
  expect([neg, zero, both]).toEqual([want.negativeFares, want.zeroDistance, want.both]);
  for (const n of [negV1, negV2, zeroV1, zeroV2]) expect(n).toBeGreaterThan(0);

  // The Iceberg base table's day.
  expect(await one(`SELECT count(*) FROM ${jan} WHERE CAST(tpep_pickup_datetime AS DATE) = DATE '2025-01-15'`)).toBe(
    want.jan15,
  );

  // Plausible values.
  const [badTips, badTimes, outside, nullShare] = (
    await rows(`SELECT count(*) FILTER (WHERE tip_amount < 0 OR tip_amount IS NULL),
        count(*) FILTER (WHERE tpep_dropoff_datetime < tpep_pickup_datetime),
        count(*) FILTER (WHERE tpep_pickup_datetime < TIMESTAMP '2025-01-01' OR tpep_pickup_datetime >= TIMESTAMP '2025-02-01'),
        avg(CASE WHEN passenger_count IS NULL THEN 1.0 ELSE 0.0 END)
      FROM ${jan}`)
  )[0] as number[];
  expect([badTips, badTimes, outside]).toEqual([0, 0, 0]);
  expect(nullShare).toBeGreaterThan(0.02);
  expect(nullShare).toBeLessThan(0.04);

  // February: that day's trips only, trip_id = 10,000,000 + position in the notional February file.
  let first = 10_000_000;
  const febWant = { '2025-02-01': want.feb01, '2025-02-02': want.feb02, '2025-02-14': want.feb14 };
  for (const day of DAYS) {
    const feb = `read_parquet(${q(ds.february(day))}, file_row_number = true)`;
    const [n, offDay, misplaced, v12] = (
      await rows(`SELECT count(*), count(*) FILTER (WHERE CAST(tpep_pickup_datetime AS DATE) <> DATE ${q(day)}),
          count(*) FILTER (WHERE trip_id <> ${first} + file_row_number),
          count(*) FILTER (WHERE "VendorID" IN (1, 2))
        FROM ${feb}`)
    )[0] as number[];
    expect([day, n, offDay, misplaced]).toEqual([day, febWant[day], 0, 0]);
    expect(v12 as number).toBeGreaterThan(0.99 * (n as number));
    first += n as number;
  }

  // No trip_id twice across the January and February files.
  const all = [ds.january, ...DAYS.map((d) => ds.february(d))];
  const [total, distinct] = (
    await rows(`SELECT count(*), count(DISTINCT trip_id) FROM read_parquet([${all.map(q).join(', ')}])`)
  )[0] as number[];
  expect(total).toBe(want.januaryTrips + want.feb01 + want.feb02 + want.feb14);
  expect(distinct).toBe(total);

  expect(ds.figures).toEqual(want);
}

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('scaledFigures', () => {
  it('gives the lesson figures at scale 1', () => {
    expect(scaledFigures(1)).toEqual({ scale: 1, ...FULL });
  });

  it('scales every part with round(n·S) at 0.01, the base being the sum of the scaled vendors', () => {
    expect(scaledFigures(0.01)).toEqual({
      scale: 0.01,
      vendors: { 1: 7537, 2: 27199, 6: 5, 7: 12 },
      januaryTrips: 7537 + 27199 + 5 + 12,
      negativeFares: 1441,
      zeroDistance: 909,
      both: 145,
      jan15: 1254,
      feb01: 1486,
      feb02: 1236,
      feb14: 1586,
      rowsPerFile: 4000,
      flatFiles: 9,
      partitionFiles: { 1: 2, 2: 7, 6: 1, 7: 1 },
    });
  });

  it('refuses scales outside [0.01, 1]', () => {
    for (const bad of [0, 1.5, -1, 0.005, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => scaledFigures(bad)).toThrow(DatasetError);
    }
    try {
      scaledFigures(0);
    } catch (e) {
      expect((e as Error).name).toBe('DatasetError');
    }
  });
});

describe('synthetic data set', () => {
  it('rejects a bad scale before writing anything', async () => {
    for (const scale of [0, 1.5]) {
      await expect(prepareDataset({ scale, cacheDir, dataDir: noTlc })).rejects.toThrow(DatasetError);
    }
    expect(() => statSync(cacheDir)).toThrow();
  });

  it('reproduces every figure at scale 0.01', async () => {
    const ds = await prepareDataset({ scale: 0.01, cacheDir, dataDir: noTlc });
    expect(ds.source).toBe('synthetic');
    expect(ds.dir).toBe(join(cacheDir, 'synthetic-0.01'));
    expect(ds.january).toBe(join(ds.dir, 'january.parquet'));
    expect(ds.february('2025-02-14')).toBe(join(ds.dir, 'feb-2025-02-14.parquet'));
    await verify(ds, scaledFigures(0.01));
    expect(readdirSync(cacheDir)).toEqual(['synthetic-0.01']);
    const done = JSON.parse(readFileSync(join(ds.dir, 'done.json'), 'utf8'));
    expect(done.figures).toEqual(scaledFigures(0.01));
  });

  it('reuses a complete data set without rewriting it', async () => {
    const dir = join(cacheDir, 'synthetic-0.01');
    const before = ['done.json', 'january.parquet'].map((f) => statSync(join(dir, f)).mtimeMs);
    const ds = await prepareDataset({ scale: 0.01, cacheDir, dataDir: noTlc });
    expect(ds.dir).toBe(dir);
    expect(['done.json', 'january.parquet'].map((f) => statSync(join(dir, f)).mtimeMs)).toEqual(before);
    expect(ds.figures).toEqual(scaledFigures(0.01));
  });

  it('rebuilds a folder without its done marker', async () => {
    const dir = join(cacheDir, 'synthetic-0.01');
    const before = digest(join(dir, 'january.parquet'));
    rmSync(join(dir, 'done.json'));
    const ds = await prepareDataset({ scale: 0.01, cacheDir, dataDir: noTlc });
    expect(statSync(join(dir, 'done.json')).isFile()).toBe(true);
    // Deterministic: the same bytes again.
    expect(digest(ds.january)).toBe(before);
    expect(readdirSync(cacheDir)).toEqual(['synthetic-0.01']);
  });

  it('writes the same bytes in another cache folder', async () => {
    const other = await prepareDataset({ scale: 0.01, cacheDir: join(root, 'cache-2'), dataDir: noTlc });
    const first = join(cacheDir, 'synthetic-0.01');
    for (const f of ['january.parquet', ...DAYS.map((d) => `feb-${d}.parquet`)]) {
      expect(digest(join(other.dir, f)), f).toBe(digest(join(first, f)));
    }
  });

  it('reproduces the lesson figures exactly at scale 1', async () => {
    const started = Date.now();
    const ds = await prepareDataset({ scale: 1, cacheDir, dataDir: noTlc });
    const built = Date.now() - started;
    console.log(`scale 1: generated in ${built} ms`);
    await verify(ds, { scale: 1, ...FULL });
    expect(built).toBeLessThan(60_000);
  });
});

/** Fake TLC files: `n` rows of the 2025 schema; `pickup` is a SQL expression of i. */
async function fakeTlc(file: string, n: number, pickup: string, change: { drop?: string; retype?: string } = {}) {
  const values: Record<string, string> = {
    VendorID: 'CASE i % 4 WHEN 0 THEN 1 WHEN 3 THEN 7 ELSE 2 END',
    tpep_pickup_datetime: pickup,
    tpep_dropoff_datetime: `${pickup} + INTERVAL 9 MINUTE`,
    passenger_count: 'CASE WHEN i % 30 = 0 THEN NULL ELSE 1 + i % 3 END',
    trip_distance: 'CASE WHEN i % 10 = 0 THEN 0.0 ELSE (i % 50) / 7.0 END',
    RatecodeID: 'CASE WHEN i % 30 = 0 THEN NULL ELSE 1 END',
    store_and_fwd_flag: `CASE WHEN i % 30 = 0 THEN NULL ELSE 'N' END`,
    PULocationID: '1 + i % 263',
    DOLocationID: '1 + (i * 7) % 263',
    payment_type: '1 + i % 2',
    fare_amount: 'CASE WHEN i % 6 = 0 THEN -5.0 ELSE 4.0 + i % 40 END',
    extra: '1.0',
    mta_tax: '0.5',
    tip_amount: '(i % 5) * 1.0',
    tolls_amount: '0.0',
    improvement_surcharge: '1.0',
    total_amount: '10.0 + i % 40',
    congestion_surcharge: 'CASE WHEN i % 30 = 0 THEN NULL ELSE 2.5 END',
    Airport_fee: 'CASE WHEN i % 30 = 0 THEN NULL ELSE 0.0 END',
    cbd_congestion_fee: '0.75',
  };
  const cols = TLC_COLUMNS.filter((c) => c.name !== change.drop).map(({ name, type }) => {
    const t = name === change.retype ? 'VARCHAR' : type;
    // The February fake spells the fee the way some TLC months did.
    const alias = name === 'Airport_fee' && basename(file).includes('2025-02') ? 'airport_fee' : name;
    return `CAST(${values[name]} AS ${t}) AS "${alias}"`;
  });
  await withConnection((c) =>
    c.run(
      `COPY (SELECT ${cols.join(', ')}, 'x' AS some_other_column FROM range(0, ${n}) t(i)) TO ${q(file)} (FORMAT parquet)`,
    ),
  );
}

const JAN_PICKUP = `TIMESTAMP '2025-01-01 00:00:00' + INTERVAL (i * 137) MINUTE`;
// February rows in file order cycle over 02-01, 02-02, 02-14, 02-03 and a January straggler.
const FEB_PICKUP = `CASE i % 5 WHEN 0 THEN TIMESTAMP '2025-02-01 00:00:00' WHEN 1 THEN TIMESTAMP '2025-02-02 00:00:00'
  WHEN 2 THEN TIMESTAMP '2025-02-14 00:00:00' WHEN 3 THEN TIMESTAMP '2025-02-03 00:00:00'
  ELSE TIMESTAMP '2025-01-31 12:00:00' END + INTERVAL (i * 11) SECOND`;

describe('TLC data set', () => {
  const tlcDir = join(root, 'tlc');
  const tlcCache = join(root, 'tlc-cache');
  const janFile = join(tlcDir, 'yellow_tripdata_2025-01.parquet');
  const febFile = join(tlcDir, 'yellow_tripdata_2025-02.parquet');

  it('converts the TLC files: trip_id = position, February split by pickup day', async () => {
    mkdirSync(tlcDir);
    await fakeTlc(janFile, 300, JAN_PICKUP);
    await fakeTlc(febFile, 400, FEB_PICKUP);
    const ds = await prepareDataset({ scale: 1, cacheDir: tlcCache, dataDir: tlcDir });
    expect(ds.source).toBe('tlc');
    expect(ds.dir).toBe(join(tlcCache, 'tlc-1'));
    expect(ds.rowsPerFile).toBe(400_000);

    const expectedColumns = [...TLC_COLUMNS.map((c) => [c.name, c.type]), ['trip_id', 'BIGINT']];
    for (const file of [ds.january, ...DAYS.map((d) => ds.february(d))]) {
      expect(
        await rows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${q(file)}))`),
      ).toEqual(expectedColumns);
    }

    // January: every row, in order, unchanged, trip_id = 0-based position.
    const ids = (await rows(`SELECT trip_id FROM read_parquet(${q(ds.january)})`)).map((r) => r[0]);
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => i));
    const names = TLC_COLUMNS.map((c) => `"${c.name}"`).join(', ');
    expect(
      await one(`SELECT count(*) FROM (
        SELECT ${names}, file_row_number AS trip_id FROM read_parquet(${q(janFile)}, file_row_number = true)
        EXCEPT ALL SELECT * FROM read_parquet(${q(ds.january)}))`),
    ).toBe(0);

    // February: that day's rows only, trip_id = 10,000,000 + position in the February file.
    for (const [k, day] of DAYS.entries()) {
      const got = await rows(
        `SELECT trip_id, CAST(tpep_pickup_datetime AS DATE)::VARCHAR FROM read_parquet(${q(ds.february(day))})`,
      );
      const want = Array.from({ length: 400 }, (_, i) => i)
        .filter((i) => i % 5 === k)
        .map((i) => [10_000_000 + i, day]);
      expect(got).toEqual(want);
    }

    expect(ds.figures).toMatchObject({
      scale: 1,
      januaryTrips: 300,
      vendors: { 1: 75, 2: 150, 6: 0, 7: 75 },
      negativeFares: 50,
      zeroDistance: 30,
      both: 10,
      jan15: await one(`SELECT count(*) FROM range(0, 300) t(i) WHERE CAST(${JAN_PICKUP} AS DATE) = DATE '2025-01-15'`),
      feb01: 80,
      feb02: 80,
      feb14: 80,
      rowsPerFile: 400_000,
    });
  });

  it('reuses the converted files, and converts again when a TLC file changes', async () => {
    const marker = join(tlcCache, 'tlc-1', 'done.json');
    const first = statSync(marker).mtimeMs;
    await prepareDataset({ scale: 1, cacheDir: tlcCache, dataDir: tlcDir });
    expect(statSync(marker).mtimeMs).toBe(first);
    const later = new Date(Date.now() + 5_000);
    utimesSync(febFile, later, later);
    await prepareDataset({ scale: 1, cacheDir: tlcCache, dataDir: tlcDir });
    expect(statSync(marker).mtimeMs).not.toBe(first);
    expect(readdirSync(tlcCache)).toEqual(['tlc-1']);
  });

  it('refuses to scale real data, unless asked for the synthetic month', async () => {
    await expect(prepareDataset({ scale: 0.5, cacheDir: tlcCache, dataDir: tlcDir })).rejects.toThrow(DatasetError);
    const ds = await prepareDataset({ scale: 0.01, cacheDir, dataDir: tlcDir, source: 'synthetic' });
    expect(ds.source).toBe('synthetic');
    await expect(prepareDataset({ scale: 1, cacheDir: tlcCache, dataDir: noTlc, source: 'tlc' })).rejects.toThrow(
      /yellow_tripdata_2025-01\.parquet/,
    );
  });

  it.each([
    ['a missing column', { drop: 'fare_amount' }, /yellow_tripdata_2025-01\.parquet: column fare_amount is missing/],
    [
      'a wrong type',
      { retype: 'trip_distance' },
      /yellow_tripdata_2025-01\.parquet: column trip_distance has type VARCHAR, expected DOUBLE/,
    ],
  ])('names the file and the column on %s, and leaves nothing behind', async (label, change, message) => {
    const dir = join(root, `bad-${label.replaceAll(' ', '-')}`);
    const cache = join(root, `bad-cache-${label.replaceAll(' ', '-')}`);
    mkdirSync(dir);
    await fakeTlc(join(dir, 'yellow_tripdata_2025-01.parquet'), 50, JAN_PICKUP, change);
    await fakeTlc(join(dir, 'yellow_tripdata_2025-02.parquet'), 50, FEB_PICKUP);
    const attempt = prepareDataset({ scale: 1, cacheDir: cache, dataDir: dir });
    await expect(attempt).rejects.toThrow(DatasetError);
    await expect(attempt).rejects.toThrow(message);
    expect(readdirSync(cache)).toEqual([]);
  });
});
