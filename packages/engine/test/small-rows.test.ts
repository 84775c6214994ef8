/**
 * A small write's file encoded in TypeScript (ops/parquet/small-rows.ts, ops/parquet/parquet-encode.ts) against the same rows
 * written by DuckDB's COPY (ops/parquet/parquet-write.ts): DuckDB must read back the same rows with the same column
 * types (and the same names and field ids on a column-mapped table), filters on each column must find the rows
 * (the file's own min/max statistics), and the add action's stats must be the same. Then the write path: which
 * writes take it, and that one that cannot still writes what DuckDB would.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ColumnMappingMode,
  DeltaTable,
  field,
  LocalObjectStore,
  readCommit,
  SchemaMismatchError,
  type StructField,
  type StructType,
  statsColumns,
  writeDeltaTable,
} from '../src/index';
import { withConnection } from '../src/ops/parquet/duck';
import { writeDataFiles, writeRowsFile } from '../src/ops/parquet/parquet-write';
import { smallRowsColumns } from '../src/ops/parquet/small-rows';
import { conformToSchema, prepareSource } from '../src/ops/parquet/source';
import { TLC_SCHEMA, taxiRows } from './helpers/taxi';
import { tempDir } from './helpers/tmp';

const root = tempDir('small-rows');
let n = 0;
const fresh = (name: string) => join(root, `${name}-${n++}`);

/** Every flat type the engine writes, nullable, and one required column. */
const EVERY_TYPE: StructType = {
  type: 'struct',
  fields: [
    field('b', 'boolean'),
    field('i8', 'byte'),
    field('i16', 'short'),
    field('i32', 'integer'),
    field('i64', 'long'),
    field('f32', 'float'),
    field('f64', 'double'),
    field('s', 'string'),
    field('bin', 'binary'),
    field('d', 'date'),
    field('ts', 'timestamp'),
    field('ntz', 'timestamp_ntz'),
    field('dec_small', 'decimal(5,2)'),
    field('dec_mid', 'decimal(18,3)'),
    field('dec_wide', 'decimal(38,4)'),
    field('id', 'long', false),
  ],
};

const EVERY_ROWS: Record<string, unknown>[] = [
  {
    b: true,
    i8: -128,
    i16: 32_767,
    i32: -2_147_483_648,
    i64: 9_007_199_254_740_993n,
    f32: 0.1,
    f64: -0.25,
    s: 'zürich 😀',
    bin: 'ab',
    d: '1969-12-31',
    ts: '2024-02-29T23:59:59.123456Z',
    ntz: '1999-01-01 00:00:00',
    dec_small: '-123.45',
    dec_mid: 12.5,
    dec_wide: '-99999999999999999999999999999999.0001',
    id: 1,
  },
  {
    b: false,
    i8: 127,
    i16: -32_768,
    i32: 7,
    i64: -(2n ** 63n),
    f32: 3.4e38,
    f64: 1e300,
    s: '',
    bin: 'z',
    d: '2100-12-31',
    ts: new Date(Date.UTC(1960, 0, 1, 12, 30)),
    ntz: '2025-01-15T08:15:30.5',
    dec_small: 0.07,
    dec_mid: '-0.001',
    dec_wide: 3,
    id: 2,
  },
  {
    b: null,
    i8: null,
    i16: null,
    i32: null,
    i64: 0,
    f32: -1e-45,
    f64: 123_456.789,
    s: 'é',
    bin: null,
    d: null,
    ts: '2000-01-01 00:00:00+00',
    ntz: null,
    dec_small: null,
    dec_mid: null,
    id: 3,
  },
  { id: 4, f32: 16_777_217, f64: -0, s: 'A' },
];

interface Written {
  path: string;
  stats: unknown;
}

/** The rows written once by DuckDB's COPY and once by the small path, each into a store of its own. */
async function writeBoth(schema: StructType, rows: Record<string, unknown>[], columnMapping: ColumnMappingMode) {
  const stats = statsColumns(schema, [], {});
  const duckStore = new LocalObjectStore(fresh('duck'));
  const duck = await withConnection(async (conn) => {
    const staging = await duckStore.stagingDir();
    const prepared = await prepareSource(conn, { kind: 'rows', schema, rows }, staging);
    return writeDataFiles(conn, {
      store: duckStore,
      staging,
      schema,
      partitionColumns: [],
      statsColumns: stats,
      source: conformToSchema(prepared, schema),
      targetFileSize: 100 * 1024 * 1024,
      columnMapping,
    });
  });
  const smallStore = new LocalObjectStore(fresh('small'));
  const columns = smallRowsColumns({ schema, rows }, schema);
  if (!columns) throw new Error('the rows were expected to have plain forms');
  const small = await writeRowsFile({
    store: smallStore,
    schema,
    statsColumns: stats,
    columnMapping,
    columns,
    rows: rows.length,
  });
  const one = async (store: LocalObjectStore, w: typeof duck): Promise<Written> => {
    expect(w.adds).toHaveLength(1);
    const add = w.adds[0] as NonNullable<(typeof w.adds)[0]>;
    return { path: await store.localPath(add.path), stats: JSON.parse(add.stats ?? 'null') };
  };
  return { duck: await one(duckStore, duck), small: await one(smallStore, small) };
}

/** What DuckDB reads from a file: rows in order, column names and types, and the Parquet field ids. */
async function readBack(path: string) {
  return withConnection(async (c) => {
    // Sorted: DuckDB's COPY of a JSON source does not always keep the rows' order.
    const rows = (await c.runAndReadAll(`SELECT * FROM read_parquet('${path}') ORDER BY ALL`)).getRowObjectsJson();
    const types = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path}')`)).getRowObjectsJson();
    const ids = (
      await c.runAndReadAll(`SELECT name, field_id FROM parquet_schema('${path}') WHERE type IS NOT NULL`)
    ).getRowObjectsJson();
    return { rows, types: types.map((t) => [t.column_name, t.column_type]), ids };
  });
}

/**
 * For every column, how many rows a filter `column = constant` finds for each of its non-null values: DuckDB
 * prunes a row group by its min/max statistics for such a filter, so a wrong bound makes a row vanish.
 */
async function filtersFind(path: string) {
  return withConnection(async (c) => {
    const q = async (sql: string) => (await c.runAndReadAll(sql)).getRows();
    const out: Record<string, number[]> = {};
    for (const [name, type] of (await q(`DESCRIBE SELECT * FROM read_parquet('${path}')`)) as [string, string][]) {
      const col = `"${name}"`;
      const texts = await q(
        `SELECT CAST(${col} AS VARCHAR) FROM read_parquet('${path}') WHERE ${col} IS NOT NULL ORDER BY ${col}`,
      );
      out[name] = [];
      for (const [text] of texts as [string][]) {
        const literal = `CAST('${text.replaceAll("'", "''")}' AS ${type})`;
        const [[found]] = (await q(`SELECT count(*) FROM read_parquet('${path}') WHERE ${col} = ${literal}`)) as [
          [bigint],
        ];
        out[name].push(Number(found));
      }
    }
    return out;
  });
}

describe('a small file encoded in TypeScript', () => {
  it.each([
    ['every flat type, with nulls', EVERY_TYPE, EVERY_ROWS],
    ['the lab’s trips schema', TLC_SCHEMA, taxiRows('2025-01-15', 0, 40)],
  ])('reads back as DuckDB’s own file does, with the same stats: %s', async (_name, schema, rows) => {
    const { duck, small } = await writeBoth(schema, rows, 'none');
    const [a, b] = [await readBack(duck.path), await readBack(small.path)];
    expect(b.types).toEqual(a.types);
    expect(b.rows).toEqual(a.rows);
    expect(small.stats).toEqual(duck.stats);
    const found = await filtersFind(small.path);
    expect(found).toEqual(await filtersFind(duck.path));
    expect(
      Object.values(found)
        .flat()
        .every((count) => count > 0),
    ).toBe(true);
  });

  it('takes physical names and field ids on a column-mapped table', async () => {
    const mapped: StructType = {
      type: 'struct',
      fields: EVERY_TYPE.fields.map((f: StructField, i) => ({
        ...f,
        metadata: { 'delta.columnMapping.id': i + 1, 'delta.columnMapping.physicalName': `col-${i}-${f.name}` },
      })),
    };
    const { duck, small } = await writeBoth(mapped, EVERY_ROWS, 'name');
    const [a, b] = [await readBack(duck.path), await readBack(small.path)];
    expect(b.ids).toEqual(a.ids);
    expect(b.ids.map((r) => r.field_id)).toEqual(mapped.fields.map((_, i) => String(i + 1)));
    expect(b.types).toEqual(a.types);
    expect(b.rows).toEqual(a.rows);
    expect(small.stats).toEqual(duck.stats);
    expect(Object.keys((small.stats as { nullCount: object }).nullCount)).toContain('col-0-b');
  });
});

/** Who wrote the table's newest data file: the TypeScript encoder or DuckDB. */
async function writerOfNewest(dir: string): Promise<string> {
  const t = await DeltaTable.open(dir);
  const adds = (await readCommit(t.store, t.version)).flatMap((a) => ('add' in a ? [a.add] : []));
  const path = await t.store.localPath((adds[0] as { path: string }).path);
  return withConnection(async (c) => {
    const r = await c.runAndReadAll(`SELECT created_by FROM parquet_file_metadata('${path}')`);
    return String(r.getRows()[0]?.[0]);
  });
}

describe('the write path', () => {
  const schema: StructType = {
    type: 'struct',
    fields: [field('id', 'long'), field('at', 'timestamp'), field('n', 'integer')],
  };
  const rows = (count: number, at: unknown = '2025-01-01 00:00:00') =>
    Array.from({ length: count }, (_, id) => ({ id, at, n: id % 7 }));

  it('encodes up to 100 plain rows itself and leaves more, or values without a plain form, to DuckDB', async () => {
    const dir = fresh('path');
    await writeDeltaTable(dir, { kind: 'rows', schema, rows: rows(1) });
    expect(await writerOfNewest(dir)).toBe('racelab small-rows writer');
    await writeDeltaTable(dir, { kind: 'rows', schema, rows: rows(100) }, { mode: 'append' });
    expect(await writerOfNewest(dir)).toBe('racelab small-rows writer');
    await writeDeltaTable(dir, { kind: 'rows', schema, rows: rows(101) }, { mode: 'append' });
    expect(await writerOfNewest(dir)).toMatch(/^DuckDB/);
    // An offset other than UTC has no plain form here: DuckDB reads it, and gives the instant.
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema, rows: rows(1, '2025-01-01 02:00:00+02:00') },
      { mode: 'append' },
    );
    expect(await writerOfNewest(dir)).toMatch(/^DuckDB/);
    const t = await DeltaTable.open(dir);
    expect(await t.count()).toBe(203);
    const [r] = await t.query<{ n: bigint }>(
      (rel) => `SELECT count(*) AS n FROM (${rel}) WHERE "at" = TIMESTAMPTZ '2025-01-01 00:00:00+00'`,
    );
    expect(Number(r?.n)).toBe(203);
  });

  // Invariants and CHECK constraints (also left to DuckDB, which evaluates them) are held by write-features.test.ts,
  // whose one-row appends must be refused.
  it('leaves partitioned tables to DuckDB', async () => {
    const parted = fresh('parted');
    await writeDeltaTable(parted, { kind: 'rows', schema, rows: rows(1) }, { partitionBy: ['n'] });
    expect(await writerOfNewest(parted)).toMatch(/^DuckDB/);
  });

  it('refuses data that does not fit the table with the DuckDB path’s words', async () => {
    const dir = fresh('refuse');
    await writeDeltaTable(dir, { kind: 'rows', schema, rows: rows(1) });
    const extra: StructType = { type: 'struct', fields: [...schema.fields, field('extra', 'string')] };
    const attempt = (count: number) =>
      writeDeltaTable(
        dir,
        { kind: 'rows', schema: extra, rows: rows(count).map((r) => ({ ...r, extra: 'x' })) },
        { mode: 'append' },
      ).catch((e: unknown) => e);
    const [small, large] = [await attempt(1), await attempt(101)];
    expect(small).toBeInstanceOf(SchemaMismatchError);
    expect((small as Error).message).toBe((large as Error).message);
  });
});
