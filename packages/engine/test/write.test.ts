/**
 * Create, append, full overwrite and scans on real tables: the log the engine writes (validated
 * against the Delta protocol's shapes), the stats it records, the files it lays out, and what reads return.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeltaTable, parseStats, TableExistsError, withConnection, writeDeltaTable } from '../src/index';
import { commitInfoOf, validatedLog } from './helpers/log';
import { TAXI, taxiRows } from './helpers/taxi';
import { tempDir } from './helpers/tmp';

const root = tempDir('write');
const rows = (day: string, first: number, n: number) => ({
  kind: 'rows' as const,
  schema: TAXI,
  rows: taxiRows(day, first, n),
});

describe('create, append, overwrite', () => {
  const dir = join(root, 'flat');

  it('creates a table whose first commit is commitInfo, protocol, metaData, then adds', async () => {
    const r = await writeDeltaTable(dir, rows('2025-01-15', 0, 3000));
    expect(r).toMatchObject({ version: 0, attempts: 1, filesAdded: 1, rowsWritten: 3000, filesRemoved: 0 });
    const [v0] = validatedLog(dir);
    expect(v0?.map((a) => Object.keys(a)[0])).toEqual(['commitInfo', 'protocol', 'metaData', 'add']);
    const info = commitInfoOf(v0);
    expect(info.operation).toBe('WRITE');
    expect(info.operationParameters).toEqual({ mode: 'ErrorIfExists' });
    expect(info).not.toHaveProperty('readVersion');
    // Naive timestamps make it a reader 3 / writer 7 table with the timestampNtz feature, as delta-rs does.
    expect(v0?.find((a) => 'protocol' in a)).toEqual({
      protocol: {
        minReaderVersion: 3,
        minWriterVersion: 7,
        readerFeatures: ['timestampNtz'],
        writerFeatures: ['timestampNtz'],
      },
    });
  });

  it('records stats in delta-rs formats for the first 32 non-partition columns', async () => {
    const t = await DeltaTable.open(dir);
    const [add] = t.activeFiles();
    const stats = parseStats(add?.stats);
    expect(stats?.numRecords).toBe(3000);
    expect(Object.keys(stats?.minValues ?? {}).sort()).toEqual(TAXI.fields.map((f) => f.name).sort());
    expect(stats?.minValues?.tpep_pickup_datetime).toBe('2025-01-15 00:00:00');
    expect(stats?.maxValues?.tpep_pickup_datetime).toMatch(/^2025-01-15 23:5\d:\d\d\.\d{6}$/);
    expect(stats?.minValues?.fare_amount).toBe(-5);
    expect(stats?.minValues?.VendorID).toBe(1);
    expect(stats?.maxValues?.VendorID).toBe(7);
    expect(stats?.nullCount?.store_and_fwd_flag).toBe(
      taxiRows('2025-01-15', 0, 3000).filter((r) => r.store_and_fwd_flag === null).length,
    );
    expect(add?.size).toBe(readFileSync(join(dir, add?.path ?? '')).length);
    expect(add?.path).toMatch(/^part-00000-[0-9a-f-]{36}-c000\.snappy\.parquet$/);
  });

  it('refuses to create over an existing table in error mode, writing nothing', async () => {
    const before = readdirSync(dir).sort();
    await expect(writeDeltaTable(dir, rows('2025-01-16', 5000, 10))).rejects.toThrow(TableExistsError);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('appends with readVersion-less WRITE Append and custom metadata in commitInfo', async () => {
    const r = await writeDeltaTable(dir, rows('2025-02-01', 10_000_000, 500), {
      mode: 'append',
      customMetadata: { writer: 'w1', isBlindAppend: true },
    });
    expect(r).toMatchObject({ version: 1, attempts: 1, filesAdded: 1 });
    const log = validatedLog(dir);
    const info = commitInfoOf(log[1]);
    expect(Object.keys(info)).toEqual([
      'timestamp',
      'operation',
      'operationParameters',
      'isBlindAppend',
      'engineInfo',
      'clientVersion',
      'writer',
      'operationMetrics',
    ]);
    expect(info.operationParameters).toEqual({ mode: 'Append' });
    const t = await DeltaTable.open(dir);
    expect(await t.count()).toBe(3500);
  });

  it('scans with a predicate, skipping files by stats', async () => {
    const t = await DeltaTable.open(dir);
    expect(t.filesMatching("tpep_pickup_datetime >= TIMESTAMP '2025-02-01 00:00:00'")).toHaveLength(1);
    expect(await t.count("tpep_pickup_datetime >= TIMESTAMP '2025-02-01 00:00:00'")).toBe(500);
    const all = [...taxiRows('2025-01-15', 0, 3000), ...taxiRows('2025-02-01', 10_000_000, 500)];
    const expected = all.filter((r) => (r.fare_amount as number) < 0 && r.trip_distance === 0);
    expect(await t.count('fare_amount < 0 AND trip_distance = 0')).toBe(expected.length);
  });

  it('overwrites every file with removes that carry size and partition values', async () => {
    const r = await writeDeltaTable(dir, rows('2025-02-14', 20_000_000, 100), { mode: 'overwrite' });
    expect(r).toMatchObject({ version: 2, filesRemoved: 2, filesAdded: 1 });
    const log = validatedLog(dir);
    const removes = (log[2] ?? [])
      .filter((a) => 'remove' in a)
      .map((a) => (a as unknown as { remove: Record<string, unknown> }).remove);
    expect(removes).toHaveLength(2);
    for (const rm of removes) {
      expect(Object.keys(rm)).toEqual([
        'path',
        'dataChange',
        'deletionTimestamp',
        'extendedFileMetadata',
        'partitionValues',
        'size',
      ]);
      expect(rm.dataChange).toBe(true);
    }
    const t = await DeltaTable.open(dir);
    expect(await t.count()).toBe(100);
    expect(t.tombstones()).toHaveLength(2);
  });

  it('time-travels to each earlier version', async () => {
    expect(await (await DeltaTable.open(dir, { version: 0 })).count()).toBe(3000);
    expect(await (await DeltaTable.open(dir, { version: 1 })).count()).toBe(3500);
    await expect(DeltaTable.open(dir, { version: 3 })).rejects.toThrow(
      'version 3 does not exist; the latest version is 2',
    );
  });
});

describe('layout', () => {
  it('caps rows per file when asked, keeping row order across files', async () => {
    const dir = join(root, 'capped');
    const r = await writeDeltaTable(dir, rows('2025-01-15', 0, 2500), { rowsPerFile: 600 });
    expect(r?.filesAdded).toBe(5);
    const t = await DeltaTable.open(dir);
    const counts = t.activeFiles().map((f) => parseStats(f.stats)?.numRecords);
    expect(counts).toEqual([600, 600, 600, 600, 100]);
    // Files in name order hold consecutive trip ids, as the lesson's 400,000-row files do.
    const ranges = t
      .activeFiles()
      .map((f) => [parseStats(f.stats)?.minValues?.trip_id, parseStats(f.stats)?.maxValues?.trip_id]);
    expect(ranges).toEqual([
      [0, 599],
      [600, 1199],
      [1200, 1799],
      [1800, 2399],
      [2400, 2499],
    ]);
  });

  it('cuts several Parquet source files into capped files by row position', async () => {
    const dir = join(root, 'capped-parquet');
    const srcs = [0, 1].map((i) => join(root, `part-src-${i}.parquet`));
    await withConnection(async (c) => {
      for (const [i, src] of srcs.entries()) {
        await c.run(`COPY (SELECT ${i * 700} + range AS id FROM range(700)) TO '${src}' (FORMAT parquet)`);
      }
    });
    await writeDeltaTable(dir, { kind: 'parquet', paths: srcs }, { rowsPerFile: 500 });
    const t = await DeltaTable.open(dir);
    const ranges = t
      .activeFiles()
      .map((f) => parseStats(f.stats))
      .map((s) => [s?.minValues?.id, s?.maxValues?.id, s?.numRecords]);
    expect(ranges).toEqual([
      [0, 499, 500],
      [500, 999, 500],
      [1000, 1399, 400],
    ]);
  });

  it('writes Hive-style partition folders without the partition column in the files', async () => {
    const dir = join(root, 'partitioned');
    const data = taxiRows('2025-01-15', 0, 2000);
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema: TAXI, rows: data },
      { partitionBy: ['VendorID'], rowsPerFile: 500 },
    );
    const t = await DeltaTable.open(dir);
    const byVendor = new Map<string, number>();
    for (const f of t.activeFiles()) {
      const v = f.partitionValues.VendorID as string;
      expect(f.path.startsWith(`VendorID=${v}/`)).toBe(true);
      byVendor.set(v, (byVendor.get(v) ?? 0) + 1);
      expect(parseStats(f.stats)?.minValues).not.toHaveProperty('VendorID');
    }
    const counts = (v: number) => data.filter((r) => r.VendorID === v).length;
    expect(Object.fromEntries(byVendor)).toEqual(
      Object.fromEntries([1, 2, 6, 7].map((v) => [String(v), Math.ceil(counts(v) / 500)])),
    );
    const [first] = t.activeFiles();
    const cols = await withConnection(
      async (c) =>
        (
          await c.runAndReadAll(
            `DESCRIBE SELECT * FROM read_parquet('${join(dir, first?.path ?? '')}', hive_partitioning=false)`,
          )
        ).getColumns()[0],
    );
    expect(cols).not.toContain('VendorID');
    expect(await t.count('VendorID = 6')).toBe(counts(6));
    expect(t.filesMatching('VendorID = 6')).toHaveLength(1);
    const info = commitInfoOf(validatedLog(dir)[0]);
    expect(info.operationParameters).toEqual({ mode: 'ErrorIfExists', partitionBy: '["VendorID"]' });
  });

  it('writes a Parquet source and keeps a plain reader 1 / writer 2 protocol without naive timestamps', async () => {
    const dir = join(root, 'from-parquet');
    const src = join(root, 'src.parquet');
    await withConnection((c) =>
      c.run(
        `COPY (SELECT range AS id, range % 3 AS k, TIMESTAMPTZ '2025-01-01 00:00:00+00' + INTERVAL (range) MINUTE AS ts FROM range(1000)) TO '${src}' (FORMAT parquet)`,
      ),
    );
    await writeDeltaTable(dir, { kind: 'parquet', paths: [src] });
    const t = await DeltaTable.open(dir);
    expect(t.protocol).toEqual({ minReaderVersion: 1, minWriterVersion: 2 });
    expect(t.schema.fields.map((f) => [f.name, f.type])).toEqual([
      ['id', 'long'],
      ['k', 'long'],
      ['ts', 'timestamp'],
    ]);
    const stats = parseStats(t.activeFiles()[0]?.stats);
    expect(stats?.minValues?.ts).toBe('2025-01-01T00:00:00Z');
    expect(stats?.maxValues?.ts).toBe('2025-01-01T16:39:00Z');
    expect(await t.count('k = 1')).toBe(333);
  });
});
