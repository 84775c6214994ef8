/**
 * Table layouts of the lab's real base tables at scale 0.01. Every figure is recounted here with
 * DuckDB reading the table's Parquet files directly, never through the code under test.
 */
import { join } from 'node:path';
import { DeltaTable, ExpressionError, update, writeDeltaTable } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../src/data/index';
import { sqlString } from '../src/data/sql';
import type { BaseTables } from '../src/tables/base-tables';
import { type TableLayout, tableLayout } from '../src/tables/layout';
import { query, smallBase, tempDir } from './helpers/small-base';

const work = tempDir('layout');
let dataset: Dataset;
let tables: BaseTables;

beforeAll(async () => {
  ({ dataset, tables } = await smallBase(work));
});

/** Rows per file path (relative to the table) and value of `column`, read from the files themselves. */
async function directCounts(
  table: string,
  layout: TableLayout,
  column: string,
): Promise<Map<string, Map<string, number>>> {
  const files = layout.files.map((f) => join(table, f.path));
  const rows = await query(
    `SELECT filename, CAST("${column}" AS VARCHAR), count(*) FROM read_parquet([${files.map(sqlString).join(', ')}], filename = true) GROUP BY ALL`,
  );
  const out = new Map<string, Map<string, number>>();
  for (const [file, value, n] of rows as [string, string, number][]) {
    const path = (file as string).slice(table.length + 1);
    out.set(path, (out.get(path) ?? new Map()).set(value, n));
  }
  return out;
}

describe('the flat base table', () => {
  it('lists its 9 files with rows and min/max from the log, rows matching the data', async () => {
    const layout = await tableLayout(tables.flat);
    expect(layout.version).toBe(0);
    expect(layout.files).toHaveLength(dataset.figures.flatFiles);
    expect(layout.files.map((f) => f.path)).toEqual([...layout.files.map((f) => f.path)].sort());
    expect(layout.files.reduce((n, f) => n + f.rows, 0)).toBe(dataset.figures.januaryTrips);
    for (const f of layout.files) {
      expect(f.countsBy).toBeUndefined();
      expect(f.partitionValues).toEqual({});
      const [[n, lo, hi]] = (await query(
        `SELECT count(*), min(VendorID), max(VendorID) FROM read_parquet(${sqlString(join(tables.flat, f.path))})`,
      )) as [[number, number, number]];
      expect(f.rows).toBe(n);
      expect([f.minValues.VendorID, f.maxValues.VendorID]).toEqual([lo, hi]);
    }
  });

  it('counts rows per VendorID in each file from the data, summing to the file rows, sorted by value', async () => {
    const layout = await tableLayout(tables.flat, 'VendorID');
    const direct = await directCounts(tables.flat, layout, 'VendorID');
    for (const f of layout.files) {
      const counts = f.countsBy ?? [];
      expect(counts.reduce((n, c) => n + c.rows, 0)).toBe(f.rows);
      expect(new Map(counts.map((c) => [c.value, c.rows]))).toEqual(direct.get(f.path));
      const values = counts.map((c) => Number(c.value));
      expect(values).toEqual([...values].sort((a, b) => a - b));
    }
    // The lesson's shape that min/max cannot show: VendorID 6 only in the last two files, 7 only in the others.
    const holding = (v: string) => layout.files.filter((f) => f.countsBy?.some((c) => c.value === v)).length;
    expect(holding('6')).toBe(2);
    expect(holding('7')).toBe(7);
  });

  it('resolves countBy like a column in a predicate (exactly, as delta-rs does) and refuses an unknown one', async () => {
    const layout = await tableLayout(tables.flat, '"VendorID"');
    expect(layout.files[0]?.countsBy?.length).toBeGreaterThan(1);
    const cased = await tableLayout(tables.flat, 'vendorid').catch((err: unknown) => err);
    expect(cased).toBeInstanceOf(ExpressionError);
    expect((cased as Error).message).toMatch(
      /^countBy: unknown column 'vendorid' .*did you mean 'VendorID'\?\); columns are: VendorID, /,
    );
    const e = await tableLayout(tables.flat, 'no_such"col').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ExpressionError);
    expect((e as Error).message).toMatch(/^countBy: unknown column 'no_such"col'/);
  });
});

describe('the partitioned base table', () => {
  it('takes a partition column count from the partition values: one value per file', async () => {
    const layout = await tableLayout(tables.partitioned, 'VendorID');
    expect(layout.files).toHaveLength(Object.values(dataset.figures.partitionFiles).reduce((a, b) => a + b, 0));
    const direct = await directCounts(tables.partitioned, layout, 'tip_amount');
    for (const f of layout.files) {
      expect(f.countsBy).toEqual([{ value: f.partitionValues.VendorID, rows: f.rows }]);
      const rows = [...(direct.get(f.path)?.values() ?? [])].reduce((a, b) => a + b, 0);
      expect(f.rows).toBe(rows);
    }
    const perVendor = (v: string) =>
      layout.files.filter((f) => f.partitionValues.VendorID === v).reduce((n, f) => n + f.rows, 0);
    expect(perVendor('6')).toBe(dataset.figures.vendors[6]);
    expect(perVendor('2')).toBe(dataset.figures.vendors[2]);
  });

  it('counts a data column per file in one query, matching the files', async () => {
    const layout = await tableLayout(tables.partitioned, 'payment_type');
    const direct = await directCounts(tables.partitioned, layout, 'payment_type');
    for (const f of layout.files) {
      expect(new Map(f.countsBy?.map((c) => [c.value, c.rows]))).toEqual(direct.get(f.path));
    }
    expect((await DeltaTable.open(tables.partitioned)).version).toBe(layout.version);
  });
});

describe('after a commit', () => {
  it('lists the active files of the latest version only', async () => {
    const path = join(work, 'updated');
    await writeDeltaTable(path, { kind: 'parquet', paths: [dataset.january] }, { rowsPerFile: dataset.rowsPerFile });
    const before = await tableLayout(path, 'VendorID');
    const rewritten = before.files.filter((f) => f.countsBy?.some((c) => c.value === '6')).map((f) => f.path);
    await update(await DeltaTable.open(path), { predicate: 'VendorID = 6', set: { tip_amount: 'tip_amount + 1' } });
    const after = await tableLayout(path, 'VendorID');
    expect(after.version).toBe(1);
    expect(rewritten).toHaveLength(2);
    for (const path of rewritten) expect(after.files.map((f) => f.path)).not.toContain(path);
    expect(after.files).toHaveLength(before.files.length - rewritten.length + 1);
    expect(after.files.reduce((n, f) => n + f.rows, 0)).toBe(dataset.figures.januaryTrips);
  });
});
