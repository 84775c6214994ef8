/**
 * Column mapping (`name` and `id`): files, partition values and stats use physical names (and in `id` mode
 * Parquet field ids), users see logical names only. Delta Spark's golden tables show the common case; tables
 * built here show what those cannot: files whose column names disagree with the physical names (an `id`-mode
 * table must follow the field ids, at every depth), files without ids, files lacking columns, the protocol
 * gate on the property, and broken annotations. OPTIMIZE on such a table is refused, as delta-rs refuses it.
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import {
  type Add,
  ColumnMappingError,
  DeltaTable,
  optimize,
  type Protocol,
  type StructType,
  UnsupportedFeatureError,
  withConnection,
} from '../src/index';
import { tempDir } from './helpers/tmp';

const golden = (name: string) => fixture('delta-spark-golden', name, 'delta');
const root = tempDir('column-mapping');
let copies = 0;
const copyOf = (name: string) => {
  const dir = join(root, `${name}-${copies++}`);
  cpSync(golden(name), dir, { recursive: true });
  return dir;
};

const mapped = (id: number, physical: string) => ({
  'delta.columnMapping.id': id,
  'delta.columnMapping.physicalName': physical,
});

/** id, s {x, y}, l: [{z}], m: string → {w}; every field mapped, physical names `p-<name>`. */
const NESTED: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: mapped(1, 'p-id') },
    {
      name: 's',
      type: {
        type: 'struct',
        fields: [
          { name: 'x', type: 'integer', nullable: true, metadata: mapped(3, 'p-x') },
          { name: 'y', type: 'string', nullable: true, metadata: mapped(4, 'p-y') },
        ],
      },
      nullable: true,
      metadata: mapped(2, 'p-s'),
    },
    {
      name: 'l',
      type: {
        type: 'array',
        elementType: {
          type: 'struct',
          fields: [{ name: 'z', type: 'long', nullable: true, metadata: mapped(6, 'p-z') }],
        },
        containsNull: true,
      },
      nullable: true,
      metadata: mapped(5, 'p-l'),
    },
    {
      name: 'm',
      type: {
        type: 'map',
        keyType: 'string',
        valueType: {
          type: 'struct',
          fields: [{ name: 'w', type: 'integer', nullable: true, metadata: mapped(8, 'p-w') }],
        },
        valueContainsNull: true,
      },
      nullable: true,
      metadata: mapped(7, 'p-m'),
    },
  ],
};

const COLUMN_MAPPING: Protocol = {
  minReaderVersion: 3,
  minWriterVersion: 7,
  readerFeatures: ['columnMapping'],
  writerFeatures: ['columnMapping'],
};

interface DataFile {
  name: string;
  /** A DuckDB SELECT giving the file's columns under the names the file should have. */
  select: string;
  /** DuckDB's FIELD_IDS option, or none for a file without field ids. */
  fieldIds?: string;
}

/** A one-commit table: protocol, metadata and an add (without stats) per file, the files written by DuckDB. */
async function handMade(
  name: string,
  schema: StructType,
  protocol: Protocol,
  configuration: Record<string, string>,
  files: DataFile[],
): Promise<string> {
  const dir = join(root, name);
  mkdirSync(join(dir, '_delta_log'), { recursive: true });
  await withConnection(async (c) => {
    for (const f of files) {
      const ids = f.fieldIds ? `, FIELD_IDS ${f.fieldIds}` : '';
      await c.run(`COPY (${f.select}) TO '${join(dir, f.name)}' (FORMAT parquet${ids})`);
    }
  });
  const metaData = {
    id: `${name}-id`,
    format: { provider: 'parquet', options: {} },
    schemaString: JSON.stringify(schema),
    partitionColumns: [],
    configuration,
  };
  const adds = files.map((f) => ({
    add: { path: f.name, partitionValues: {}, size: 1, modificationTime: 0, dataChange: true },
  }));
  const lines = [{ protocol }, { metaData }, ...adds].map((a) => JSON.stringify(a));
  writeFileSync(join(dir, '_delta_log', '00000000000000000000.json'), lines.join('\n'));
  return dir;
}

/** The rows in id order, nested values as JSON. */
async function nestedRows(dir: string) {
  const t = await DeltaTable.open(dir);
  return t.query<Record<string, unknown>>(
    (rel) =>
      `SELECT CAST(id AS INTEGER) AS id, to_json(s)::VARCHAR AS s, to_json(l)::VARCHAR AS l, to_json(m)::VARCHAR AS m FROM (${rel}) ORDER BY id`,
  );
}

/** One row under the physical names, nested ones included. */
const ROW = (id: number) =>
  `${id}::BIGINT, {'p-x': ${id}::INTEGER, 'p-y': 'y${id}'}, [{'p-z': ${id}::BIGINT}, NULL], MAP {'k${id}': {'p-w': ${id}::INTEGER}, 'n': NULL}`;
const PHYSICAL_IDS = `{"p-id": 1, "p-s": {__duckdb_field_id: 2, "p-x": 3, "p-y": 4}, "p-l": {__duckdb_field_id: 5, element: {"p-z": 6}}, "p-m": {__duckdb_field_id: 7, value: {"p-w": 8}}}`;
const EXPECTED = (id: number) => ({
  id,
  s: `{"x":${id},"y":"y${id}"}`,
  l: `[{"z":${id}},null]`,
  m: `{"k${id}":{"w":${id}},"n":null}`,
});

describe('name mode (Delta Spark golden tables)', () => {
  it('shows logical names in rows, nested values included', async () => {
    const t = await DeltaTable.open(golden('table-with-columnmapping-mode-name'));
    expect(t.columnMapping).toBe('name');
    const [row] = await t.rows('ByteType = 1');
    expect(Object.keys(row ?? {})).toEqual(t.schema.fields.map((f) => f.name));
    expect(row?.nested_struct).toEqual({ aa: '1', ac: { aca: 1 } });
    expect(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain('col-');
  });

  it('prunes files by stats the log keys by physical name, and shows them under logical names', async () => {
    const t = await DeltaTable.open(golden('table-with-columnmapping-mode-name'));
    // part-00000 holds ByteType 1..3, part-00001 holds 0..4: only the second can hold a 0.
    expect(t.filesMatching('ByteType = 0').map((f) => f.path.slice(0, 10))).toEqual(['part-00001']);
    expect(await t.count('ByteType = 0')).toBe(1);
    const stats = t.fileStats(t.activeFiles()[0] as Add);
    expect(Object.keys(stats.minValues ?? {})).toContain('ByteType');
    expect(stats.minValues?.nested_struct).toMatchObject({ aa: expect.any(String), ac: { aca: expect.any(Number) } });
    expect(JSON.stringify(stats)).not.toContain('col-');
  });

  it('names logical columns in errors', async () => {
    const t = await DeltaTable.open(golden('table-with-columnmapping-mode-name'));
    const error = await t.count('no_such_column = 1').catch((e: Error) => e);
    expect(String(error)).toContain('no_such_column');
    expect(String(error)).not.toContain('col-');
  });
});

describe('id mode', () => {
  it('reads partition values the log keys by physical name, and prunes by them', async () => {
    const t = await DeltaTable.open(golden('data-reader-timestamp_ntz-id-mode'));
    expect(t.columnMapping).toBe('id');
    const nulls = t.filesMatching('tsNtzPartition IS NULL');
    expect(nulls).toHaveLength(1);
    expect(t.partitionValues(nulls[0] as Add)).toEqual({ tsNtzPartition: null });
    expect(await t.count('tsNtzPartition IS NULL')).toBe(
      (await t.rows()).filter((r) => r.tsNtzPartition === null).length,
    );
  });

  it('follows field ids, not names, at every depth; falls back to physical names; reads what a file lacks as NULL', async () => {
    const dir = await handMade('by-id', NESTED, COLUMN_MAPPING, { 'delta.columnMapping.mode': 'id' }, [
      {
        // Written under the physical names, with ids: the common case.
        name: 'physical.parquet',
        select: `SELECT * FROM (SELECT ${ROW(1)}) t("p-id", "p-s", "p-l", "p-m")`,
        fieldIds: PHYSICAL_IDS,
      },
      {
        // Names that mislead: the id column is called p-s, the struct's x and y are swapped, and so on.
        name: 'renamed.parquet',
        select: `SELECT id AS "p-s", {'p-y': s['p-x'], 'p-x': s['p-y']} AS "p-id", [CASE WHEN e IS NULL THEN NULL ELSE {'q': e['p-z']} END FOR e IN l] AS other_l, map_from_entries([{'key': e.key, 'value': CASE WHEN e.value IS NULL THEN NULL ELSE {'v': e.value['p-w']} END} FOR e IN map_entries(m)]) AS other_m FROM (SELECT ${ROW(2)}) t(id, s, l, m)`,
        fieldIds: `{"p-s": 1, "p-id": {__duckdb_field_id: 2, "p-y": 3, "p-x": 4}, other_l: {__duckdb_field_id: 5, element: {q: 6}}, other_m: {__duckdb_field_id: 7, value: {v: 8}}}`,
      },
      {
        // No field ids at all: the physical names are all there is.
        name: 'no-ids.parquet',
        select: `SELECT * FROM (SELECT ${ROW(3)}) t("p-id", "p-s", "p-l", "p-m")`,
      },
      {
        // Only some columns: the rest, and the struct's missing field, are NULL.
        name: 'partial.parquet',
        select: `SELECT 4::BIGINT AS renamed_id, {'renamed_x': 4::INTEGER} AS "p-s"`,
        fieldIds: `{renamed_id: 1, "p-s": {__duckdb_field_id: 2, renamed_x: 3}}`,
      },
    ]);
    expect(await nestedRows(dir)).toEqual([
      EXPECTED(1),
      EXPECTED(2),
      EXPECTED(3),
      { id: 4, s: '{"x":4,"y":null}', l: null, m: null },
    ]);
  });

  it('in name mode, matches by physical name only, whatever the field ids say', async () => {
    const dir = await handMade('by-name', NESTED, COLUMN_MAPPING, { 'delta.columnMapping.mode': 'name' }, [
      {
        name: 'physical.parquet',
        select: `SELECT * FROM (SELECT ${ROW(1)}) t("p-id", "p-s", "p-l", "p-m")`,
        // Ids that point elsewhere: name mode must not look at them.
        fieldIds: `{"p-id": 2, "p-s": {__duckdb_field_id: 1, "p-x": 4, "p-y": 3}, "p-l": {__duckdb_field_id: 7, element: {"p-z": 8}}, "p-m": {__duckdb_field_id: 5, value: {"p-w": 6}}}`,
      },
    ]);
    expect(await nestedRows(dir)).toEqual([EXPECTED(1)]);
  });
});

describe('when the property counts', () => {
  it('ignores delta.columnMapping.mode on a reader-3 table without the columnMapping feature, as the protocol says', async () => {
    const plain: Protocol = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: [], writerFeatures: [] };
    const dir = await handMade('ignored', NESTED, plain, { 'delta.columnMapping.mode': 'name' }, [
      {
        name: 'logical.parquet',
        select: `SELECT 1::BIGINT AS id, {'x': 1::INTEGER, 'y': 'y1'} AS s, [{'z': 1::BIGINT}, NULL] AS l, MAP {'k1': {'w': 1::INTEGER}, 'n': NULL} AS m`,
      },
    ]);
    const t = await DeltaTable.open(dir);
    expect(t.columnMapping).toBe('none');
    expect(await nestedRows(dir)).toEqual([EXPECTED(1)]);
  });

  it('refuses a mapped schema whose field lacks its physical name, naming the field by its logical path', async () => {
    const broken = structuredClone(NESTED);
    const s = broken.fields[1]?.type as StructType;
    delete (s.fields[1] as { metadata: Record<string, unknown> }).metadata['delta.columnMapping.physicalName'];
    const dir = await handMade('broken', broken, COLUMN_MAPPING, { 'delta.columnMapping.mode': 'name' }, []);
    const error = await DeltaTable.open(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ColumnMappingError);
    expect(String(error)).toMatch(/field 's\.y' has no delta\.columnMapping\.physicalName/);
  });

  it('refuses an unknown mode by name', async () => {
    const dir = await handMade('unknown-mode', NESTED, COLUMN_MAPPING, { 'delta.columnMapping.mode': 'ids' }, []);
    await expect(DeltaTable.open(dir)).rejects.toThrow(/unknown delta\.columnMapping\.mode 'ids'/);
  });
});

describe('OPTIMIZE on a column-mapped table is refused, as delta-rs 1.6.x refuses it, before anything is written', () => {
  // UPDATE, DELETE, MERGE and appends write physical files now: test/write-features.test.ts.
  /** Every file in the table's folder (an engine's empty staging folder is no file). */
  const listing = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();

  it.each(['table-with-columnmapping-mode-name', 'data-reader-timestamp_ntz-id-mode'])('%s', async (name) => {
    const dir = copyOf(name);
    const t = await DeltaTable.open(dir);
    const before = listing(dir);
    const reason = await optimize(t, { targetSize: 1 << 30 }).catch((e: unknown) => e);
    expect(reason).toBeInstanceOf(UnsupportedFeatureError);
    expect(String((reason as Error).message)).toBe(
      "Column mapping is not supported for write operation 'OPTIMIZE' yet",
    );
    expect(listing(dir)).toEqual(before);
  });
});
