/**
 * The engine creates column-mapped tables: `delta.columnMapping.mode` name or id on a new table gives every field,
 * nested ones too, an id (1, 2, … a field before the fields inside it, as delta-rs 1.6.6 numbers them) and a
 * physical name `col-<uuid>`, the configuration `delta.columnMapping.maxColumnId`, the protocol reader 2 / writer 5
 * (or `columnMapping` among the features of a table that has features); its data files carry the physical names and
 * the ids as Parquet field_ids, its partition values and stats the physical names, and it reads back its logical rows.
 * Both the small-rows path and DuckDB's path are covered.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ColumnMappingError,
  DeltaTable,
  fromLogPath,
  type Metadata,
  type Protocol,
  parseSchemaString,
  protocolForSchema,
  type StructField,
  type StructType,
  withConnection,
  writeDeltaTable,
} from '../src/index';
import { tempDir } from './helpers/tmp';

const root = tempDir('column-mapping-create');
let tables = 0;
const fresh = () => join(root, `t${tables++}`);
const ID = 'delta.columnMapping.id';
const PHYSICAL = 'delta.columnMapping.physicalName';
const UUID_NAME = /^col-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const FLAT: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'Name', type: 'string', nullable: true, metadata: {} },
    { name: 'part', type: 'string', nullable: true, metadata: {} },
  ],
};
const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, Name: `n${from + i}`, part: (from + i) % 2 ? 'odd' : 'even' }));

/** Every field of a schema at every depth, in the order ids are given. */
function fieldsOf(type: StructField['type']): StructField[] {
  if (typeof type === 'string') return [];
  if (type.type === 'array') return fieldsOf(type.elementType);
  if (type.type === 'map') return [...fieldsOf(type.keyType), ...fieldsOf(type.valueType)];
  return type.fields.flatMap((f) => [f, ...fieldsOf(f.type)]);
}

/** Each data file's Parquet leaf and group names with their field ids (null where none). */
async function parquetColumns(t: DeltaTable): Promise<{ name: string; field_id: number | null }[]> {
  const paths = t.activeFiles().map((f) => `'${join(t.location, fromLogPath(f.path))}'`);
  return withConnection(async (c) => {
    const r = await c.runAndReadAll(
      `SELECT DISTINCT name, field_id FROM parquet_schema([${paths.join(', ')}]) WHERE name <> 'duckdb_schema' AND name <> 'schema'`,
    );
    return (r.getRowObjectsJS() as { name: string; field_id: number | null }[]).map((x) => ({
      name: x.name,
      field_id: x.field_id === null ? null : Number(x.field_id),
    }));
  });
}

describe('a new column-mapped table', () => {
  for (const mode of ['name', 'id'] as const) {
    it(`${mode} mode, partitioned, small rows then DuckDB's path: annotations, protocol, files, rows`, async () => {
      const dir = fresh();
      await writeDeltaTable(
        dir,
        { kind: 'rows', schema: FLAT, rows: rows(0, 4) },
        { partitionBy: ['part'], configuration: { 'delta.columnMapping.mode': mode } },
      );
      await writeDeltaTable(dir, { kind: 'rows', schema: FLAT, rows: rows(4, 150) }, { mode: 'append' });
      const t = await DeltaTable.open(dir);
      expect(t.columnMapping).toBe(mode);
      expect(t.protocol).toEqual({ minReaderVersion: 2, minWriterVersion: 5 });
      expect(t.configuration).toEqual({ 'delta.columnMapping.mode': mode, 'delta.columnMapping.maxColumnId': '3' });
      expect(t.schema.fields.map((f) => [f.name, f.metadata[ID]])).toEqual([
        ['id', 1],
        ['Name', 2],
        ['part', 3],
      ]);
      const physical = t.schema.fields.map((f) => f.metadata[PHYSICAL] as string);
      for (const p of physical) expect(p).toMatch(UUID_NAME);
      expect(new Set(physical).size).toBe(3);

      // Files: physical names with the ids as field_ids; partition values and stats by physical name.
      const columns = await parquetColumns(t);
      expect(columns).toHaveLength(2);
      expect(columns).toEqual(
        expect.arrayContaining([
          { name: physical[0], field_id: 1 },
          { name: physical[1], field_id: 2 },
        ]),
      );
      for (const add of t.activeFiles()) {
        expect(Object.keys(add.partitionValues)).toEqual([physical[2]]);
        expect(add.path).toMatch(/^[0-9a-f]{2}\//);
        const stats = JSON.parse(add.stats ?? '{}') as { minValues: Record<string, unknown> };
        expect(Object.keys(stats.minValues).sort()).toEqual([physical[0], physical[1]].sort());
      }
      expect(t.activeFiles().length).toBeGreaterThanOrEqual(4);

      const read = await t.query<{ n: bigint; odd: bigint; max: bigint }>(
        (rel) => `SELECT count(*) AS n, count(*) FILTER (WHERE part = 'odd') AS odd, max(id) AS max FROM (${rel})`,
      );
      expect(read).toEqual([{ n: 154n, odd: 77n, max: 153n }]);
      expect(await t.count("Name = 'n7'")).toBe(1);
    });
  }

  it('nested fields are numbered before the next column, inside arrays and maps too', async () => {
    const dir = fresh();
    const schema: StructType = {
      type: 'struct',
      fields: [
        { name: 'id', type: 'long', nullable: true, metadata: {} },
        {
          name: 's',
          type: {
            type: 'struct',
            fields: [
              { name: 'a', type: 'long', nullable: true, metadata: {} },
              {
                name: 'b',
                type: { type: 'struct', fields: [{ name: 'c', type: 'string', nullable: true, metadata: {} }] },
                nullable: true,
                metadata: {},
              },
            ],
          },
          nullable: true,
          metadata: {},
        },
        {
          name: 'arr',
          type: {
            type: 'array',
            elementType: { type: 'struct', fields: [{ name: 'e', type: 'long', nullable: true, metadata: {} }] },
            containsNull: true,
          },
          nullable: true,
          metadata: {},
        },
        {
          name: 'm',
          type: {
            type: 'map',
            keyType: 'string',
            valueType: { type: 'struct', fields: [{ name: 'v', type: 'long', nullable: true, metadata: {} }] },
            valueContainsNull: true,
          },
          nullable: true,
          metadata: {},
        },
        { name: 'last', type: 'integer', nullable: true, metadata: {} },
      ],
    };
    const row = { id: 1, s: { a: 2, b: { c: 'x' } }, arr: [{ e: 3 }], m: { k: { v: 5 } }, last: 4 };
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema, rows: [row] },
      { configuration: { 'delta.columnMapping.mode': 'id' } },
    );
    const t = await DeltaTable.open(dir);
    expect(fieldsOf(t.schema).map((f) => [f.name, f.metadata[ID]])).toEqual([
      ['id', 1],
      ['s', 2],
      ['a', 3],
      ['b', 4],
      ['c', 5],
      ['arr', 6],
      ['e', 7],
      ['m', 8],
      ['v', 9],
      ['last', 10],
    ]);
    expect(t.configuration['delta.columnMapping.maxColumnId']).toBe('10');
    const columns = await parquetColumns(t);
    for (const f of fieldsOf(t.schema))
      expect(columns).toContainEqual({ name: f.metadata[PHYSICAL], field_id: f.metadata[ID] });
    const [back] = await t.rows();
    expect({ ...back, id: Number(back?.id) }).toEqual({
      id: 1,
      s: { a: 2n, b: { c: 'x' } },
      arr: [{ e: 3n }],
      m: [{ key: 'k', value: { v: 5n } }],
      last: 4,
    });
  });

  it('a table with features lists columnMapping among both, beside timestampNtz', () => {
    const schema: StructType = {
      type: 'struct',
      fields: [{ name: 'ts', type: 'timestamp_ntz', nullable: true, metadata: {} }],
    };
    const expected: Protocol = {
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['timestampNtz', 'columnMapping'],
      writerFeatures: ['timestampNtz', 'columnMapping'],
    };
    expect(protocolForSchema(schema, { 'delta.columnMapping.mode': 'name' })).toEqual(expected);
    expect(protocolForSchema(schema, { 'delta.columnMapping.mode': 'none' })).toEqual({
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['timestampNtz'],
      writerFeatures: ['timestampNtz'],
    });
  });

  it("mode none writes no annotations; an unknown mode is refused before anything's written", async () => {
    const dir = fresh();
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema: FLAT, rows: rows(0, 2) },
      { configuration: { 'delta.columnMapping.mode': 'none' } },
    );
    const t = await DeltaTable.open(dir);
    expect(t.protocol).toEqual({ minReaderVersion: 1, minWriterVersion: 2 });
    expect(t.schema).toEqual(FLAT);
    const metadata: Metadata = t.metadata;
    expect(parseSchemaString(metadata.schemaString)).toEqual(FLAT);

    const bad = fresh();
    await expect(
      writeDeltaTable(
        bad,
        { kind: 'rows', schema: FLAT, rows: rows(0, 2) },
        { configuration: { 'delta.columnMapping.mode': 'names' } },
      ),
    ).rejects.toThrow(new ColumnMappingError("unknown delta.columnMapping.mode 'names': it must be none, name or id"));
    await expect(DeltaTable.open(bad)).rejects.toThrow();
  });
});
