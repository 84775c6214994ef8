/**
 * Writes follow delta-rs 1.6.x (python-v1.6.3): UPDATE and DELETE on copies of deletion-vector and column-mapped
 * tables commit the actions delta-rs would (removes carrying the old vector, new files without one; physical names,
 * field ids, physical partition keys and stats, random two-hex folders) and read back the rows DuckDB computes from
 * the original table's expected rows; the features its protocol checker refuses are refused with its text.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import {
  type Add,
  CommitFailedError,
  DeltaTable,
  deleteRows,
  deltaToDuckType,
  fromLogPath,
  optimize,
  type Protocol,
  type Remove,
  type StructField,
  type StructType,
  UnsupportedFeatureError,
  update,
  withConnection,
  writeDeltaTable,
} from '../src/index';
import { canonicalRows } from './helpers/rows';
import { tempDir } from './helpers/tmp';

const root = tempDir('write-features');
let copies = 0;
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;
const PHYSICAL = 'delta.columnMapping.physicalName';

interface Case {
  table: string;
  /** The fixture table's folder. */
  source: string;
  /** A DuckDB SELECT giving the original table's expected rows (any types; cast to the table's). */
  expected: (c: { dir: string }) => string;
  update: { predicate: string; set: Record<string, string> };
  delete: string;
}

const sparkExpected = (name: string) => () => {
  const dir = fixture('delta-spark-golden', name, 'expected');
  const files = readdirSync(dir).filter((f) => f.endsWith('.parquet'));
  return `SELECT * FROM read_parquet([${files.map((f) => `'${join(dir, f)}'`).join(', ')}])`;
};

const CASES: Case[] = [
  {
    table: 'table-with-dv-small',
    source: fixture('delta-golden', 'table-with-dv-small'),
    expected: ({ dir }) => {
      const rows = (JSON.parse(readFileSync(fixture('delta-golden', 'table-with-dv-small', 'expected.json'), 'utf8'))
        .rows ?? []) as unknown[];
      const file = join(dir, '..', `expected-${copies++}.json`);
      writeFileSync(file, JSON.stringify(rows));
      return `SELECT * FROM read_json_auto('${file}')`;
    },
    update: { predicate: 'value = 3', set: { value: 'value + 100' } },
    delete: 'value < 3',
  },
  {
    table: 'dv-partitioned-with-checkpoint',
    source: fixture('delta-spark-golden', 'dv-partitioned-with-checkpoint', 'delta'),
    expected: sparkExpected('dv-partitioned-with-checkpoint'),
    update: { predicate: 'col1 > 20', set: { col2: "'changed'" } },
    delete: 'col1 % 3 = 0',
  },
  {
    table: 'table-with-columnmapping-mode-name',
    source: fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'),
    expected: sparkExpected('table-with-columnmapping-mode-name'),
    update: { predicate: 'IntegerType = 1', set: { StringType: "'one'", LongType: 'LongType + 10' } },
    delete: 'ByteType = 2',
  },
  {
    table: 'data-reader-timestamp_ntz-id-mode',
    source: fixture('delta-spark-golden', 'data-reader-timestamp_ntz-id-mode', 'delta'),
    expected: sparkExpected('data-reader-timestamp_ntz-id-mode'),
    update: { predicate: 'id < 4', set: { id: 'id + 100' } },
    delete: 'id = 1 OR id = 5',
  },
];

function copyOf(source: string): string {
  const dir = join(root, `t${copies++}`, 'table');
  mkdirSync(dir, { recursive: true });
  cpSync(source, dir, { recursive: true });
  return dir;
}

/** The rows DuckDB leaves after applying `change` (an UPDATE or DELETE statement on `exp`) to the expected rows. */
async function expectedAfter(c: Case, dir: string, schema: StructType, change: string): Promise<string[]> {
  return withConnection(async (conn) => {
    const cols = schema.fields.map((f) => `CAST(${ident(f.name)} AS ${deltaToDuckType(f.type)}) AS ${ident(f.name)}`);
    await conn.run(`CREATE TEMP TABLE exp AS SELECT ${cols.join(', ')} FROM (${c.expected({ dir })})`);
    try {
      await conn.run(change);
      const r = await conn.runAndReadAll('SELECT * FROM exp');
      return canonicalRows(r.getRowObjectsJson() as Record<string, unknown>[], schema.fields);
    } finally {
      await conn.run('DROP TABLE exp');
    }
  });
}

async function tableRows(t: DeltaTable): Promise<string[]> {
  const rows = await withConnection(async (c) => {
    const rel = await t.relation(c);
    return (await c.runAndReadAll(`SELECT * FROM (${rel})`)).getRowObjectsJson() as Record<string, unknown>[];
  });
  return canonicalRows(rows, t.schema.fields);
}

/** The raw JSON actions of one commit (as written, so absent keys stay absent). */
function commitActions(dir: string, version: number): Record<string, Record<string, unknown>>[] {
  const text = readFileSync(join(dir, '_delta_log', `${String(version).padStart(20, '0')}.json`), 'utf8');
  return text.split('\n').map((l) => JSON.parse(l));
}

/** Checks the commit is what delta-rs 1.6.x writes for a DML on this table. */
async function expectDeltaRsActions(before: DeltaTable, dir: string, version: number): Promise<void> {
  const actions = commitActions(dir, version);
  expect(Object.keys(actions[0] ?? {})).toEqual(['commitInfo']);
  const removes = actions.flatMap((a) => (a.remove ? [a.remove as unknown as Remove] : []));
  const adds = actions.flatMap((a) => (a.add ? [a.add as unknown as Add] : []));
  expect(removes.length).toBeGreaterThan(0);
  const old = new Map(before.activeFiles().map((f) => [f.path, f]));
  for (const r of removes) {
    const was = old.get(r.path) as Add;
    expect(was, `${r.path} was active`).toBeDefined();
    expect(r.dataChange).toBe(true);
    // The remove names exactly the rows it ends: the old file's deletion vector, when it had one.
    if (was.deletionVector) expect(r.deletionVector).toEqual(was.deletionVector);
    else expect(r).not.toHaveProperty('deletionVector');
  }
  expect(removes.some((r) => r.deletionVector) || before.columnMapping !== 'none').toBe(true);
  const after = await DeltaTable.open(dir);
  for (const a of adds) {
    // delta-rs never writes a deletion vector: the key is absent, and numRecords counts only the rows written.
    expect(a).not.toHaveProperty('deletionVector');
    expect(a).toMatchObject({ tags: null, baseRowId: null, defaultRowCommitVersion: null, clusteringProvider: null });
    const stats = JSON.parse(a.stats as string);
    const n = await after.query<{ n: bigint }>((rel) => `SELECT count(*) AS n FROM (${rel})`);
    expect(stats.numRecords).toBeGreaterThan(0);
    expect(stats.numRecords).toBeLessThanOrEqual(Number(n[0]?.n));
    if (before.columnMapping === 'none') continue;
    await expectPhysicalFile(before, dir, a, stats);
  }
}

/** A column-mapped table's new file: physical names, field ids, partition keys and stats, under a 2-hex folder. */
async function expectPhysicalFile(t: DeltaTable, dir: string, a: Add, stats: Record<string, Record<string, unknown>>) {
  expect(a.path).toMatch(/^[0-9a-f]{2}\/part-\d{5}-[0-9a-f-]{36}-c000\.snappy\.parquet$/);
  const physical = (f: StructField) => f.metadata[PHYSICAL] as string;
  const partitionFields = t.schema.fields.filter((f) => t.partitionColumns.includes(f.name));
  expect(Object.keys(a.partitionValues).sort()).toEqual(partitionFields.map(physical).sort());
  const dataFields = t.schema.fields.filter((f) => !t.partitionColumns.includes(f.name));
  const known = new Set(dataFields.map(physical));
  for (const key of ['minValues', 'maxValues', 'nullCount']) {
    const keys = Object.keys(stats[key] ?? {});
    for (const k of keys) expect(known.has(k), `stats key ${k} is a physical name`).toBe(true);
  }
  expect(Object.keys(stats.nullCount ?? {}).length).toBeGreaterThan(0);
  const schema = await withConnection(async (c) => {
    const r = await c.runAndReadAll(
      `SELECT name, field_id FROM parquet_schema('${join(dir, fromLogPath(a.path))}') WHERE field_id IS NOT NULL`,
    );
    return new Map((r.getRows() as [string, bigint][]).map(([n, id]) => [n, Number(id)]));
  });
  // Every field, nested struct fields included, under its physical name with its column mapping id.
  const walk = (fields: readonly StructField[]): void => {
    for (const f of fields) {
      expect(schema.get(physical(f)), `${f.name} as ${physical(f)}`).toBe(f.metadata['delta.columnMapping.id']);
      let type = f.type;
      while (typeof type === 'object' && type.type !== 'struct')
        type = type.type === 'array' ? type.elementType : type.valueType;
      if (typeof type === 'object') walk(type.fields);
    }
  };
  walk(dataFields);
}

describe.each(CASES)('$table: update and delete commit as delta-rs 1.6.x would, and read back right', (c) => {
  it('update', async () => {
    const dir = copyOf(c.source);
    const t = await DeltaTable.open(dir);
    const set = Object.entries(c.update.set)
      .map(([k, v]) => `${ident(k)} = ${v}`)
      .join(', ');
    const expected = await expectedAfter(c, dir, t.schema, `UPDATE exp SET ${set} WHERE ${c.update.predicate}`);
    const r = await update(t, c.update);
    expect(r?.version).toBe(t.version + 1);
    await expectDeltaRsActions(t, dir, t.version + 1);
    expect(await tableRows(await DeltaTable.open(dir))).toEqual(expected);
  });

  it('delete', async () => {
    const dir = copyOf(c.source);
    const t = await DeltaTable.open(dir);
    const expected = await expectedAfter(c, dir, t.schema, `DELETE FROM exp WHERE ${c.delete}`);
    const r = await deleteRows(t, c.delete);
    expect(r?.version).toBe(t.version + 1);
    await expectDeltaRsActions(t, dir, t.version + 1);
    const after = await DeltaTable.open(dir);
    expect(await tableRows(after)).toEqual(expected);
    expect(await after.count()).toBe(expected.length);
  });
});

describe('deletion vectors in DELETE without a predicate and OPTIMIZE', () => {
  it('DELETE with no predicate removes every file, the vectors on the removes, and writes nothing', async () => {
    const dir = copyOf(fixture('delta-spark-golden', 'dv-partitioned-with-checkpoint', 'delta'));
    const t = await DeltaTable.open(dir);
    await deleteRows(t);
    const actions = commitActions(dir, t.version + 1);
    expect(actions.some((a) => a.add)).toBe(false);
    const removes = actions.flatMap((a) => (a.remove ? [a.remove as unknown as Remove] : []));
    expect(removes.map((r) => r.path).sort()).toEqual(
      t
        .activeFiles()
        .map((f) => f.path)
        .sort(),
    );
    const withDv = t.activeFiles().filter((f) => f.deletionVector);
    expect(withDv.length).toBeGreaterThan(0);
    for (const f of withDv) expect(removes.find((r) => r.path === f.path)?.deletionVector).toEqual(f.deletionVector);
    expect(await (await DeltaTable.open(dir)).count()).toBe(0);
  });

  it('OPTIMIZE rewrites multi-file bins with live rows only (removes keep their vectors), a lone file not', async () => {
    const dir = copyOf(fixture('delta-golden', 'table-with-dv-small'));
    const t = await DeltaTable.open(dir);
    const before = await tableRows(t);
    // delta-rs's own test appends two rows to this table, then compacts (command_optimize.rs L388-452).
    const schema = t.schema;
    expect(await optimize(t), 'a file alone in its bin is not rewritten').toBeNull();
    await writeDeltaTable(dir, { kind: 'rows', schema, rows: [{ value: 10 }, { value: 11 }] }, { mode: 'append' });
    const appended = await DeltaTable.open(dir);
    await optimize(appended);
    const actions = commitActions(dir, appended.version + 1);
    const removes = actions.flatMap((a) => (a.remove ? [a.remove as unknown as Remove] : []));
    const adds = actions.flatMap((a) => (a.add ? [a.add as unknown as Add] : []));
    expect(removes).toHaveLength(2);
    expect(adds).toHaveLength(1);
    const dvFile = t.activeFiles()[0] as Add;
    expect(removes.find((r) => r.path === dvFile.path)).toMatchObject({
      dataChange: false,
      deletionVector: dvFile.deletionVector,
    });
    expect(adds[0]).not.toHaveProperty('deletionVector');
    expect(JSON.parse(adds[0]?.stats as string).numRecords).toBe(10);
    const after = await DeltaTable.open(dir);
    const values = (await after.rows()).map((r) => r.value).sort((a, b) => Number(a) - Number(b));
    expect(values).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10, 11]);
    expect(before).toHaveLength(8);
  });
});

describe('column mapping: OPTIMIZE is refused with delta-rs text; appends write physical files', () => {
  it('OPTIMIZE', async () => {
    const dir = copyOf(fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'));
    const t = await DeltaTable.open(dir);
    await expect(optimize(t, { targetSize: 1 << 30 })).rejects.toThrow(
      new UnsupportedFeatureError("Column mapping is not supported for write operation 'OPTIMIZE' yet"),
    );
  });

  it('append to an id-mode partitioned table', async () => {
    const dir = copyOf(fixture('delta-spark-golden', 'data-reader-timestamp_ntz-id-mode', 'delta'));
    const t = await DeltaTable.open(dir);
    const rows = [{ id: 42, tsNtz: '2020-01-01 00:00:00', tsNtzPartition: '2021-11-18 02:30:00.123' }];
    await writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows }, { mode: 'append' });
    const actions = commitActions(dir, t.version + 1);
    const add = actions.find((a) => a.add)?.add as unknown as Add;
    await expectPhysicalFile(t, dir, add, JSON.parse(add.stats as string));
    const after = await DeltaTable.open(dir);
    expect(await after.count('id = 42')).toBe(1);
    expect(await after.count()).toBe((await t.count()) + 1);
  });
});

/** A one-commit table with `protocol` and `configuration`, holding the rows 1..4 of one int column `v`. */
async function tableWith(protocol: Protocol, configuration: Record<string, string> = {}, fields?: StructField[]) {
  const dir = join(root, `p${copies++}`);
  const schema: StructType = {
    type: 'struct',
    fields: fields ?? [{ name: 'v', type: 'integer', nullable: true, metadata: {} }],
  };
  await writeDeltaTable(dir, { kind: 'rows', schema, rows: [1, 2, 3, 4].map((v) => ({ v })) });
  const log = join(dir, '_delta_log', '00000000000000000001.json');
  const meta = (await DeltaTable.open(dir)).metadata;
  writeFileSync(
    log,
    [
      JSON.stringify({ protocol }),
      JSON.stringify({ metaData: { ...meta, schemaString: JSON.stringify(schema), configuration } }),
    ].join('\n'),
  );
  return dir;
}

const v7 = (features: string[], readerFeatures: string[] = []): Protocol => ({
  minReaderVersion: 3,
  minWriterVersion: 7,
  readerFeatures,
  writerFeatures: features,
});

describe('features delta-rs 1.6.x refuses are refused with its text', () => {
  it.each([
    ['vacuumProtocolCheck', v7(['vacuumProtocolCheck'], ['vacuumProtocolCheck']), 'VacuumProtocolCheck'],
    ['domainMetadata', v7(['domainMetadata']), 'DomainMetadata'],
    ['rowTracking', v7(['rowTracking', 'domainMetadata']), 'RowTracking, DomainMetadata'],
    ['inCommitTimestamp', v7(['inCommitTimestamp']), 'InCommitTimestamp'],
    ['identityColumns', v7(['identityColumns']), 'IdentityColumns'],
    ['typeWidening', v7(['typeWidening'], ['typeWidening']), 'TypeWidening'],
    ['clustering', v7(['clustering', 'domainMetadata']), 'ClusteredTable, DomainMetadata'],
    ['icebergCompatV2', v7(['icebergCompatV2', 'columnMapping']), 'IcebergCompatV2'],
    ['an unknown feature', v7(['fooBar']), 'Unknown("fooBar")'],
    ['legacy writer version 6', { minReaderVersion: 1, minWriterVersion: 6 }, 'IdentityColumns'],
  ])('%s', async (_name, protocol, names) => {
    const dir = await tableWith(protocol);
    const t = await DeltaTable.open(dir);
    const text = `Unsupported table features required: [${names}]`;
    for (const op of [
      () => update(t, { predicate: 'v = 1', set: { v: 'v + 1' } }),
      () => deleteRows(t, 'v = 1'),
      () => writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: 9 }] }, { mode: 'append' }),
      () => optimize(t, { targetSize: 1 << 30 }),
    ]) {
      await expect(op()).rejects.toThrow(new UnsupportedFeatureError(text));
    }
    expect(readdirSync(join(dir, '_delta_log')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
  });
});

describe('features delta-rs 1.6.x accepts', () => {
  const APPEND_ONLY = 'The transaction includes Remove action with data change but Delta table is append-only';

  it('appendOnly: DELETE and UPDATE refused up front even when nothing matches; append and OPTIMIZE allowed', async () => {
    const dir = await tableWith(v7(['appendOnly']), { 'delta.appendOnly': 'true' });
    const t = await DeltaTable.open(dir);
    await expect(deleteRows(t, 'v = 99')).rejects.toThrow(new CommitFailedError('AppendOnly', APPEND_ONLY));
    await expect(update(t, { predicate: 'v = 99', set: { v: '0' } })).rejects.toThrow(APPEND_ONLY);
    await expect(
      writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: 5 }] }, { mode: 'overwrite' }),
    ).rejects.toThrow(APPEND_ONLY);
    await writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: 5 }] }, { mode: 'append' });
    expect(await optimize(await DeltaTable.open(dir))).not.toBeNull();
    expect(await (await DeltaTable.open(dir)).count()).toBe(5);
  });

  it('checkConstraints: rows that break a constraint are refused with delta-rs text; DELETE is not checked', async () => {
    const dir = await tableWith(v7(['checkConstraints']), { 'delta.constraints.small': 'v < 10' });
    const t = await DeltaTable.open(dir);
    const error = await update(t, { predicate: 'v > 2', set: { v: 'v * 10' } }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toBe(
      [
        'Invalid data found: 2 rows failed validation check.',
        'Preview of invalid data:',
        '',
        '+----+',
        '| v  |',
        '+----+',
        '| 30 |',
        '| 40 |',
        '+----+',
      ].join('\n'),
    );
    await expect(
      writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: null }] }, { mode: 'append' }),
    ).rejects.toThrow('Invalid data found: 1 rows failed validation check.');
    expect(await deleteRows(t, 'v = 1')).not.toBeNull();
    expect(await (await DeltaTable.open(dir)).count()).toBe(3);
  });

  it('invariants (writer 2): checked on write', async () => {
    const fields: StructField[] = [
      {
        name: 'v',
        type: 'integer',
        nullable: true,
        metadata: { 'delta.invariants': JSON.stringify({ expression: { expression: 'v > 0' } }) },
      },
    ];
    const dir = await tableWith({ minReaderVersion: 1, minWriterVersion: 2 }, {}, fields);
    const t = await DeltaTable.open(dir);
    await expect(
      writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: 0 }] }, { mode: 'append' }),
    ).rejects.toThrow('Invalid data found: 1 rows failed validation check.');
    await writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: 7 }] }, { mode: 'append' });
    expect(await (await DeltaTable.open(dir)).count()).toBe(5);
  });

  it('changeDataFeed on: writes that need change data files are refused; appends and whole-file deletes are not', async () => {
    const dir = await tableWith(v7(['changeDataFeed']), { 'delta.enableChangeDataFeed': 'true' });
    const t = await DeltaTable.open(dir);
    await expect(update(t, { predicate: 'v = 1', set: { v: '0' } })).rejects.toThrow(
      /delta.enableChangeDataFeed is true.*refuses the UPDATE/,
    );
    await expect(deleteRows(t, 'v = 1')).rejects.toThrow(/refuses the DELETE/);
    await writeDeltaTable(dir, { kind: 'rows', schema: t.schema, rows: [{ v: 5 }] }, { mode: 'append' });
    expect(await deleteRows(await DeltaTable.open(dir))).not.toBeNull();
  });

  it('generatedColumns: writes refused, naming the column; DELETE allowed', async () => {
    const fields: StructField[] = [
      { name: 'v', type: 'integer', nullable: true, metadata: { 'delta.generationExpression': '1' } },
    ];
    const dir = await tableWith(v7(['generatedColumns']), {}, fields);
    const t = await DeltaTable.open(dir);
    await expect(update(t, { predicate: 'v = 1', set: { v: '1' } })).rejects.toThrow(
      /column\(s\) v are generated.*refuses the UPDATE/,
    );
    expect(await deleteRows(t, 'v = 1')).not.toBeNull();
  });
});
