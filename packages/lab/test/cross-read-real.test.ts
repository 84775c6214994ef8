/**
 * Delta tables cross the boundary both ways: tables the engine writes (flat, partitioned, column-mapped ones it
 * creates in name and id mode and Delta Spark's it writes into, with a checkpoint, and the engine's update and delete
 * on a table carrying deletion vectors) are read by the real deltalake 1.6.6 with the same rows and version, and
 * tables the real deltalake writes (append, overwrite, partitioned, update, delete) are read by the engine with the
 * same rows and version, a table deltalake creates with deletion vectors enabled (which also requires variantType, no
 * column being a variant) as well, and the engine's append to it keeps its protocol (docs/fidelity.md,
 * "Cross-reading"). An Iceberg table crosses both ways through one SQLite catalog with pyiceberg 0.12.0. This needs
 * the Python side (`npm run setup:python`): without it the test fails with the message that says what is missing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Add,
  appendParquetToIcebergTable,
  createIcebergTable,
  DeltaTable,
  deleteRows,
  IcebergSqliteCatalog,
  openIcebergTable,
  type Protocol,
  type StructType,
  scanIcebergTable,
  update,
  withConnection,
  writeCheckpoint,
  writeDeltaTable,
} from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { pythonEnv } from '../src/real/python-env';
import { type Read, type Row, readByEngine, rowsOf, SCHEMA, sorted } from './helpers/cross-read';

const work = mkdtempSync(join(tmpdir(), 'racelab-cross-read-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let python = '';
beforeAll(async () => {
  python = (await pythonEnv('delta-rs')).python;
  await pythonEnv('pyiceberg');
});

/** Runs a Python script in the venv (args are its argv[1:]) and parses the JSON it prints. */
function runPython<T>(script: string, ...args: string[]): T {
  const { PYTHONPATH: _, ...env } = process.env;
  const r = spawnSync(python, ['-c', script, ...args], { encoding: 'utf8', env, timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/**
 * deltalake's two readers: the DataFusion query path (which applies deletion vectors and column mapping) and
 * `to_pyarrow_table`, which answers null here on two kinds of table: it refuses one whose reader features include
 * deletionVectors, and it reads a column-mapped one (Delta Spark's own golden table too) as rows of nulls. The script ends with
 * os._exit once its answer is flushed: deltalake 1.6.6 aborts at interpreter exit ("terminate called without an
 * active exception") after reading a table with a checkpoint, its own checkpoints as well as the engine's.
 */
const READ = `
import json, os, sys
import pyarrow as pa
from deltalake import DeltaTable, QueryBuilder
t = DeltaTable(sys.argv[1])
cols = json.loads(sys.argv[2])
listed = ", ".join('"' + c + '"' for c in cols) if cols else "*"
query = pa.table(QueryBuilder().register("t", t).execute(f"SELECT {listed} FROM t").read_all()).to_pylist()
dv = "deletionVectors" in (t.protocol().reader_features or [])
mapped = t.metadata().configuration.get("delta.columnMapping.mode", "none") != "none"
arrow = None if dv or mapped else t.to_pyarrow_table(columns=cols or None).to_pylist()
print(json.dumps({"version": t.version(), "rows": query, "arrow": arrow}, default=str))
sys.stdout.flush()
os._exit(0)
`;

/** The table as deltalake reads it; both of its readers must agree where both can read it. */
const readByDeltalake = (dir: string, columns: string[] = []): Read => {
  const r = runPython<Read & { arrow: Row[] | null }>(READ, dir, JSON.stringify(columns));
  const rows = sorted(r.rows);
  if (r.arrow !== null) expect(sorted(r.arrow), 'to_pyarrow_table agrees with the query path').toEqual(rows);
  return { version: r.version, rows };
};

let tables = 0;
const fresh = (): string => join(work, `t${tables++}`);

describe('tables the engine writes, read by the real deltalake 1.6.6', () => {
  it('a flat table: same rows and version', async () => {
    const dir = fresh();
    await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 5) });
    await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(5, 3) }, { mode: 'append' });
    const engine = await readByEngine(dir);
    expect(engine.rows).toHaveLength(8);
    expect(readByDeltalake(dir)).toEqual(engine);
  });

  it('a partitioned table, updated and deleted from by the engine: same rows and version', async () => {
    const dir = fresh();
    await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 6) }, { partitionBy: ['part'] });
    await update(await DeltaTable.open(dir), { predicate: 'id = 2', set: { name: "'two'" } });
    await deleteRows(await DeltaTable.open(dir), "part = 'odd' AND id > 2");
    const engine = await readByEngine(dir);
    expect(engine.version).toBe(2);
    expect(engine.rows.map((r) => r.id)).toEqual([0, 1, 2, 4]);
    expect(engine.rows.find((r) => r.id === 2)?.name).toBe('two');
    expect(readByDeltalake(dir)).toEqual(engine);
  });

  it("the engine's append, update and delete on a column-mapped table (name mode): same logical rows", async () => {
    const dir = fresh();
    cpSync(fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'), dir, { recursive: true });
    const cols = ['LongType', 'StringType'];
    const t = await DeltaTable.open(dir);
    expect(t.columnMapping).toBe('name');
    // Every column of the table, as delta-rs requires of an append; the row leaves all but two null.
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema: t.schema, rows: [{ LongType: 70, StringType: 'seventy' }] },
      { mode: 'append' },
    );
    await update(await DeltaTable.open(dir), { predicate: 'LongType = 1', set: { StringType: "'one'" } });
    await deleteRows(await DeltaTable.open(dir), 'LongType = 3');
    const engine = await readByEngine(dir, cols);
    expect(engine.version).toBe(3);
    expect(engine.rows).toContainEqual({ LongType: 70, StringType: 'seventy' });
    expect(engine.rows).toContainEqual({ LongType: 1, StringType: 'one' });
    expect(engine.rows.map((r) => r.LongType)).not.toContain(3);
    expect(readByDeltalake(dir, cols)).toEqual(engine);
  });

  for (const mode of ['name', 'id'] as const) {
    it(`a column-mapped table the engine creates (${mode} mode, partitioned), appended to: same logical rows`, async () => {
      const dir = fresh();
      const options = { partitionBy: ['part'], configuration: { 'delta.columnMapping.mode': mode } };
      await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 5) }, options);
      await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(5, 120) }, { mode: 'append' });
      const t = await DeltaTable.open(dir);
      expect(t.columnMapping).toBe(mode);
      expect(t.protocol).toEqual({ minReaderVersion: 2, minWriterVersion: 5 });
      const engine = await readByEngine(dir);
      expect(engine).toMatchObject({ version: 1 });
      expect(engine.rows).toHaveLength(125);
      expect(readByDeltalake(dir)).toEqual(engine);
    });
  }

  it('a table with a checkpoint the engine wrote: same rows and version', async () => {
    const dir = fresh();
    await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(0, 2) });
    for (let i = 1; i <= 3; i++)
      await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(i * 10, 2) }, { mode: 'append' });
    const t = await DeltaTable.open(dir);
    await writeCheckpoint(t.store, t.state);
    expect(existsSync(join(dir, '_delta_log', '00000000000000000003.checkpoint.parquet'))).toBe(true);
    await writeDeltaTable(dir, { kind: 'rows', schema: SCHEMA, rows: rowsOf(90, 1) }, { mode: 'append' });
    const engine = await readByEngine(dir);
    expect(engine).toMatchObject({ version: 4 });
    expect(engine.rows).toHaveLength(9);
    expect(readByDeltalake(dir)).toEqual(engine);
  });

  it("the engine's update and delete on a table carrying deletion vectors: same rows and version", async () => {
    const dir = fresh();
    cpSync(fixture('delta-golden', 'table-with-dv-small'), dir, { recursive: true });
    const before = await readByEngine(dir);
    expect(readByDeltalake(dir)).toEqual(before);
    const column = (await DeltaTable.open(dir)).schema.fields[0]?.name ?? '';
    const values = before.rows.map((r) => Number(r[column])).sort((a, b) => a - b);
    await update(await DeltaTable.open(dir), { predicate: `${column} = ${values[0]}`, set: { [column]: '100' } });
    await deleteRows(await DeltaTable.open(dir), `${column} = ${values[1]}`);
    const engine = await readByEngine(dir);
    expect(engine.version).toBe(before.version + 2);
    expect(engine.rows).toHaveLength(before.rows.length - 1);
    expect(readByDeltalake(dir)).toEqual(engine);
  });
});

describe('tables the real deltalake 1.6.6 writes, read by the engine', () => {
  it('append, overwrite, a partitioned table, an update and a delete: same rows and version', async () => {
    const flat = fresh();
    const parted = fresh();
    const script = `
import sys
import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
flat, parted = sys.argv[1].split("|")
def rows(start, n):
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()), "name": [f"n{i}" for i in ids],
                     "part": ["odd" if i % 2 else "even" for i in ids]})
write_deltalake(flat, rows(0, 5))
write_deltalake(flat, rows(5, 3), mode="append")
write_deltalake(flat, rows(100, 4), mode="overwrite")
write_deltalake(flat, rows(200, 2), mode="append")
write_deltalake(parted, rows(0, 6), partition_by=["part"])
DeltaTable(parted).update(predicate="id = 2", updates={"name": "'two'"})
DeltaTable(parted).delete("part = 'odd' AND id > 2")
print("{}")
`;
    runPython(script, `${flat}|${parted}`);
    const flatRead = await readByEngine(flat);
    expect(flatRead.version).toBe(3);
    expect(flatRead.rows.map((r) => r.id)).toEqual([100, 101, 102, 103, 200, 201]);
    expect(flatRead).toEqual(readByDeltalake(flat));
    const partedRead = await readByEngine(parted);
    expect(partedRead.version).toBe(2);
    expect(partedRead.rows.map((r) => r.id)).toEqual([0, 1, 2, 4]);
    expect(partedRead.rows.find((r) => r.id === 2)?.name).toBe('two');
    expect(partedRead).toEqual(readByDeltalake(parted));
  });

  it("the engine reads deltalake's DV-enabled table with the same rows, and its append keeps the protocol", async () => {
    const dir = fresh();
    const script = `
import sys
import pyarrow as pa
from deltalake import DeltaTable, write_deltalake
write_deltalake(sys.argv[1], pa.table({"id": pa.array(range(10), pa.int64())}),
                configuration={"delta.enableDeletionVectors": "true"})
DeltaTable(sys.argv[1]).delete("id % 3 = 0")
print("{}")
`;
    runPython(script, dir);
    const log = readdirSync(join(dir, '_delta_log'))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .flatMap((f) =>
        readFileSync(join(dir, '_delta_log', f), 'utf8')
          .trim()
          .split('\n'),
      )
      .map((line) => JSON.parse(line) as { protocol?: Protocol; add?: Add });
    // deltalake 1.6.6 cannot write a deletion vector: its delete rewrote the file.
    expect(log.some((a) => a.add?.deletionVector)).toBe(false);
    // It lists variantType among the reader features though no column is a variant; the engine reads such a table.
    const protocol = log.find((a) => a.protocol)?.protocol;
    expect([...(protocol?.readerFeatures ?? [])].sort()).toEqual(['deletionVectors', 'variantType']);
    const engine = await readByEngine(dir);
    expect(engine).toEqual({ version: 1, rows: [1, 2, 4, 5, 7, 8].map((id) => ({ id })) });
    expect(readByDeltalake(dir)).toEqual(engine);

    const schema: StructType = { type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] };
    await writeDeltaTable(dir, { kind: 'rows', schema, rows: [{ id: 42 }] }, { mode: 'append' });
    const appended = await DeltaTable.open(dir);
    expect(appended.protocol).toEqual(protocol);
    expect(readFileSync(join(dir, '_delta_log', '00000000000000000002.json'), 'utf8')).not.toContain('"protocol"');
    const after = await readByEngine(dir);
    expect(after.rows).toContainEqual({ id: 42 });
    expect(readByDeltalake(dir)).toEqual(after);
  });
});

describe('Iceberg both ways through one SQLite catalog with the real pyiceberg 0.12.0', () => {
  it("the engine's appends read by pyiceberg, then pyiceberg's append read by the engine: same rows", async () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    const db = join(dir, 'catalog.db');
    const parquet = (first: number, n: number): Promise<string> => {
      const file = join(dir, `rows-${first}.parquet`);
      return withConnection(async (c) => {
        await c.run(
          `COPY (SELECT (${first} + i)::BIGINT AS id, 'n' || (${first} + i)::VARCHAR AS name FROM range(${n}) t(i)) ` +
            `TO '${file}' (FORMAT parquet)`,
        );
        return file;
      });
    };
    const catalog = await IcebergSqliteCatalog.open({ path: db, warehouse: join(dir, 'warehouse') });
    try {
      const first = await parquet(0, 3);
      await createIcebergTable(catalog, 'lab.cross', { schemaFrom: first });
      await appendParquetToIcebergTable(catalog, 'lab.cross', [first]);
      await appendParquetToIcebergTable(catalog, 'lab.cross', [await parquet(10, 2)]);
    } finally {
      await catalog.close();
    }
    const script = `
import json, sys
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
catalog = SqlCatalog("default", uri=f"sqlite:///{sys.argv[1]}")
table = catalog.load_table("lab.cross")
before = table.scan().to_arrow().to_pylist()
table.append(pa.table({"id": pa.array([20, 21], pa.int64()), "name": ["n20", "n21"]}, schema=table.schema().as_arrow()))
print(json.dumps({"before": before, "snapshots": len(table.snapshots())}))
`;
    const py = runPython<{ before: Row[]; snapshots: number }>(script, db);
    const expected = (ids: number[]): Row[] => sorted(ids.map((id) => ({ id, name: `n${id}` })));
    expect(sorted(py.before)).toEqual(expected([0, 1, 2, 10, 11]));
    expect(py.snapshots).toBe(3);

    const reopened = await IcebergSqliteCatalog.open({ path: db, warehouse: join(dir, 'warehouse') });
    try {
      const scan = await scanIcebergTable(await openIcebergTable(reopened, 'lab.cross'));
      expect(scan.columns).toEqual(['id', 'name']);
      const rows = scan.rows.map(([id, name]) => ({ id: Number(id), name }));
      expect(sorted(rows)).toEqual(expected([0, 1, 2, 10, 11, 20, 21]));
    } finally {
      await reopened.close();
    }
  });
});
