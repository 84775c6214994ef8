/**
 * The reader feature `variantType`: a table that requires it but holds no `variant` column reads like any other,
 * and the engine's writes keep its protocol as it is (no protocol action, the same reader and writer features);
 * a `variant` column, at the top or nested in a struct, array or map, refuses the table at open, naming the column.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DeltaTable,
  deleteRows,
  type Protocol,
  type StructType,
  UnsupportedFeatureError,
  writeDeltaTable,
} from '../src/index';
import { tempDir } from './helpers/tmp';

const root = tempDir('variant-type');
let tables = 0;

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'name', type: 'string', nullable: true, metadata: {} },
  ],
};
/** deltalake 1.6.6's protocol for a table created with `delta.enableDeletionVectors=true`. */
const VARIANT_PROTOCOL: Protocol = {
  minReaderVersion: 3,
  minWriterVersion: 7,
  readerFeatures: ['deletionVectors', 'variantType'],
  writerFeatures: ['deletionVectors', 'variantType', 'appendOnly', 'invariants'],
};

const logFile = (dir: string, version: number) => join(dir, '_delta_log', `${String(version).padStart(20, '0')}.json`);

/** A table of three rows at version 0, then a version 1 whose actions are given (a protocol upgrade, a schema). */
async function tableThen(actions: object[]): Promise<string> {
  const dir = join(root, `t${tables++}`);
  await writeDeltaTable(dir, {
    kind: 'rows',
    schema: SCHEMA,
    rows: [0, 1, 2].map((id) => ({ id, name: `n${id}` })),
  });
  writeFileSync(logFile(dir, 1), `${actions.map((a) => JSON.stringify(a)).join('\n')}\n`);
  return dir;
}

/** The metaData of version 0 with another schema. */
function withSchema(dir: string, schema: object): object {
  const v0 = readFileSync(logFile(dir, 0), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const { metaData } = v0.find((a) => a.metaData);
  return { metaData: { ...metaData, schemaString: JSON.stringify(schema) } };
}

describe('variantType without a variant column', () => {
  it('reads the rows, and the engine writes keep the protocol and its features', async () => {
    const dir = await tableThen([{ protocol: VARIANT_PROTOCOL }]);
    const t = await DeltaTable.open(dir);
    expect((await t.rows()).map((r) => Number(r.id)).sort()).toEqual([0, 1, 2]);

    await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: [{ id: 3, name: 'n3' }] }, { mode: 'append' });
    await deleteRows(await DeltaTable.open(dir), 'id = 0');
    const after = await DeltaTable.open(dir);
    expect(after.version).toBe(3);
    expect(after.protocol).toEqual(VARIANT_PROTOCOL);
    for (const v of [2, 3]) expect(readFileSync(logFile(dir, v), 'utf8')).not.toContain('"protocol"');
    expect((await after.rows()).map((r) => Number(r.id)).sort()).toEqual([1, 2, 3]);
  });

  it('the preview name reads the same', async () => {
    const dir = await tableThen([
      {
        protocol: {
          ...VARIANT_PROTOCOL,
          readerFeatures: ['variantType-preview'],
          writerFeatures: ['variantType-preview'],
        },
      },
    ]);
    expect(await (await DeltaTable.open(dir)).count()).toBe(3);
  });
});

describe('a variant column refuses the table, naming the column', () => {
  const variantIn = (type: unknown): object => ({
    type: 'struct',
    fields: [...SCHEMA.fields, { name: 'payload', type, nullable: true, metadata: {} }],
  });
  const cases: [string, unknown, string][] = [
    ['a top-level column', 'variant', 'payload'],
    [
      'a struct field',
      { type: 'struct', fields: [{ name: 'raw', type: 'variant', nullable: true, metadata: {} }] },
      'payload.raw',
    ],
    ['an array element', { type: 'array', elementType: { type: 'variant' }, containsNull: true }, 'payload[]'],
    [
      'a map value',
      { type: 'map', keyType: 'string', valueType: 'variant', valueContainsNull: true },
      'payload{value}',
    ],
  ];
  for (const [where, type, column] of cases) {
    it(`in ${where}`, async () => {
      const dir = await tableThen([{ protocol: VARIANT_PROTOCOL }]);
      writeFileSync(logFile(dir, 2), `${JSON.stringify(withSchema(dir, variantIn(type)))}\n`);
      const open = DeltaTable.open(dir);
      await expect(open).rejects.toThrow(UnsupportedFeatureError);
      await expect(open).rejects.toThrow(
        `column '${column}' is of type variant (table feature variantType), which this engine does not read`,
      );
      // The version before the variant column still reads.
      expect(await (await DeltaTable.open(dir, { version: 1 })).count()).toBe(3);
    });
  }
});
