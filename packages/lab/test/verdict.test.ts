/**
 * The serial-replay oracle on real runs (writer processes behind the barrier, DuckDB comparisons): A1 is
 * serializable, E1 writes its day twice, I5 is the update before the append, and a delete that loses to a
 * compaction leaves its rows as they were; Iceberg's F1 and F2 replay their snapshots' writers. The expected
 * verdicts live here, never in the oracle.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendParquetToIcebergTable,
  createIcebergTable,
  IcebergSqliteCatalog,
  openIcebergTable,
  prepareIcebergAppend,
  withConnection,
} from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES, type IcebergCase } from '../src/cases/catalog';
import { scaledFigures } from '../src/data/index';
import { icebergVerdict, racedIcebergState } from '../src/formats/iceberg/verdict';
import {
  type CaseResult,
  customCase,
  type LabResults,
  prepareDataset,
  type RunVerdict,
  runLab,
  type WriterResult,
} from '../src/index';
import { diffRows, parquetRows } from '../src/oracle/compare';
import { otherOrders } from '../src/oracle/orders';
import { ensureJan15 } from '../src/tables/base-tables';
import { writerResult } from './helpers/writer-result';

const SCALE = 0.02;
const F = scaledFigures(SCALE);
const work = join(tmpdir(), `racelab-verdict-test-${process.pid}`);
let results: LabResults;

const verdictOf = (c: CaseResult | undefined): RunVerdict => {
  const v = c?.runs[0]?.verdict;
  if (!v) throw new Error(`no verdict for ${c?.id}`);
  return v;
};
const emptyResult = (name: string): WriterResult =>
  writerResult(name, { operation: 'iceberg-append', committed: false });
const caseVerdict = (id: string) => verdictOf(results.cases.find((c) => c.id === id));

beforeAll(async () => {
  mkdirSync(work, { recursive: true, mode: 0o755 });
  results = await runLab({ cases: ['A1', 'E1', 'I5'], runs: 1, scale: SCALE, workDir: work });
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the serial-replay verdict', () => {
  it('A1: both appends, data OK, the oracle timed apart from the run', () => {
    const v = caseVerdict('A1');
    expect(v).toMatchObject({ status: 'serializable', summary: 'data OK', failedWriters: [] });
    expect(v.order).toHaveLength(2);
    expect(v.oracleMs).toBeGreaterThan(0);
    expect(v.rowsDuplicated).toBeUndefined();
  });

  it("E1: the day written twice, the second job's append applied twice", () => {
    const run = results.cases.find((c) => c.id === 'E1')?.runs[0];
    const v = caseVerdict('E1');
    expect(v.status).toBe('not-serializable');
    expect(v).toMatchObject({ rowsDuplicated: F.feb14, rowsMissing: 0, rowsExtra: 0 });
    expect(v.summary).toBe(`${F.feb14.toLocaleString('en-US')} rows written twice`);
    // The job that committed second appended although, serially, it would have found the first job's rows.
    const second = run?.commitOrder?.[1];
    expect(v.writers?.find((w) => w.name === second)).toMatchObject({ appliedTwice: true, notApplied: false });
    expect(v.writers?.find((w) => w.name !== second)).toMatchObject({ appliedTwice: false, notApplied: false });
    expect(v.examples?.length).toBe(5);
    expect(v.examples?.every((e) => e.kind === 'duplicated')).toBe(true);
    expect(String(v.examples?.[0]?.row.tpep_pickup_datetime)).toMatch(/^2025-02-14T/);
  });

  it('I5: equal only with the update before the append, as WriteSerializable allows', () => {
    const v = caseVerdict('I5');
    expect(v.status).toBe('reordered');
    expect(v.summary).toBe('reordered: update before append, as WriteSerializable allows');
    expect(v.order).toHaveLength(2);
  });

  it("a delete that loses to a compaction: its VendorID 7 rows are still there, and the oracle's copies are gone", async () => {
    const race = customCase({
      table: 'flat',
      writers: [
        { name: 'compact', operation: 'optimize' },
        { name: 'gdpr', operation: 'delete', predicate: 'VendorID = 7', startAfter: 'compact' },
      ],
    });
    const custom = await runLab({ cases: [race], runs: 1, scale: SCALE, workDir: work });
    const run = custom.cases[0]?.runs[0];
    expect(run?.writers.find((w) => w.name === 'gdpr')?.committed).toBe(false);
    const v = verdictOf(custom.cases[0]);
    expect(v.status).toBe('serializable');
    expect(v.failedWriters).toEqual([
      {
        name: 'gdpr',
        rowsTouched: F.vendors[7],
        untouched: true,
        summary: `gdpr's delete failed: its ${F.vendors[7]} VendorID 7 rows are still there`,
      },
    ]);
    const runs = join(work, 'runs');
    expect(existsSync(runs) ? readdirSync(runs) : []).toEqual([]);
  }, 120_000);
});

describe('the serial-replay verdict on Iceberg runs', () => {
  let iceberg: LabResults;
  beforeAll(async () => {
    iceberg = await runLab({ cases: ['F1', 'F2'], runs: 1, scale: SCALE, workDir: work });
  }, 240_000);

  it('F1: both appends committed, in their snapshots’ order, and the table is their serial result', () => {
    const run = iceberg.cases.find((c) => c.id === 'F1')?.runs[0];
    expect(run?.writers.every((w) => w.committed)).toBe(true);
    const v = verdictOf(iceberg.cases.find((c) => c.id === 'F1'));
    expect(v).toMatchObject({ status: 'serializable', summary: 'data OK', failedWriters: [] });
    expect([...v.order].sort()).toEqual(['feb01', 'feb02']);
    expect(run?.commitOrder).toEqual(v.order);
    expect(run?.table.rows).toBe(F.jan15 + F.feb01 + F.feb02);
    expect(v.oracleMs).toBeGreaterThan(0);
  });

  it("F2: the loser's append failed and its Feb 2 trips are not in the table", () => {
    const run = iceberg.cases.find((c) => c.id === 'F2')?.runs[0];
    expect(run?.writers.find((w) => w.name === 'feb02')?.committed).toBe(false);
    const v = verdictOf(iceberg.cases.find((c) => c.id === 'F2'));
    expect(v).toMatchObject({ status: 'serializable', order: ['feb01'] });
    expect(v.failedWriters).toEqual([
      {
        name: 'feb02',
        rowsTouched: F.feb02,
        untouched: true,
        summary: `feb02's append failed: its ${F.feb02.toLocaleString('en-US')} 2025-02-02 trips are not in the table`,
      },
    ]);
    expect(existsSync(join(work, 'runs')) ? readdirSync(join(work, 'runs')) : []).toEqual([]);
  });

  it('a writer that reported committed but whose snapshot is not there: its rows missing, not applied', async () => {
    const dataset = await prepareDataset({ scale: SCALE, cacheDir: join(work, 'data') });
    const dir = join(work, 'lost-append');
    const catalogPath = join(dir, 'catalog.db');
    mkdirSync(dir, { recursive: true });
    const catalog = await IcebergSqliteCatalog.open({ path: catalogPath, warehouse: join(dir, 'warehouse') });
    const jan15 = await ensureJan15(work, dataset);
    await createIcebergTable(catalog, 'lab.trips', { schemaFrom: jan15 });
    const start = (await appendParquetToIcebergTable(catalog, 'lab.trips', [jan15])).metadataLocation;
    const feb01 = await prepareIcebergAppend(
      await openIcebergTable(catalog, 'lab.trips'),
      [dataset.february('2025-02-01')],
      {
        snapshotProperties: { writer: 'feb01' },
      },
    );
    await feb01.commit();
    await catalog.close();
    const writers = (CASES.find((c) => c.id === 'F1') as IcebergCase).writers;
    const reported = (name: string) => ({ ...emptyResult(name), committed: true });
    const v = await icebergVerdict({
      raced: await racedIcebergState(catalogPath, 'lab.trips'),
      table: 'lab.trips',
      start,
      results: [reported('feb01'), reported('feb02')],
      writers,
      rowsFile: (op) => ('day' in op ? dataset.february(op.day) : undefined),
      copyDir: (i) => join(dir, `oracle-${i}`),
    });
    expect(v).toMatchObject({ status: 'not-serializable', order: ['feb01', 'feb02'], rowsMissing: F.feb02 });
    expect(v.rowsDuplicated).toBe(0);
    expect(v.writers).toEqual([
      { name: 'feb01', notApplied: false, appliedTwice: false },
      { name: 'feb02', notApplied: true, appliedTwice: false },
    ]);
    expect(
      v.examples?.every((e) => e.kind === 'missing' && String(e.row.tpep_pickup_datetime).startsWith('2025-02-02')),
    ).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['catalog.db', 'warehouse']);
  });
});

describe('the multiset comparison', () => {
  const write = async (name: string, values: number[]) => {
    const path = join(work, `${name}.parquet`);
    await withConnection((c) =>
      c.run(
        `COPY (SELECT v, 'trip ' || v AS label FROM unnest([${values.join(', ')}]) AS t(v)) TO '${path}' (FORMAT parquet)`,
      ),
    );
    return path;
  };

  it('finds the same rows in another order equal, and a swapped copy with the same count different', async () => {
    const a = await write('a', [1, 2, 2, 3]);
    const b = await write('b', [3, 2, 1, 2]);
    const c = await write('c', [1, 2, 3, 3]);
    const side = (path: string) => [parquetRows([path], path)];
    expect(await diffRows(side(a), side(b))).toEqual({ duplicated: 0, missing: 0, extra: 0, examples: [] });
    const d = await diffRows(side(c), side(a));
    expect(d).toMatchObject({ duplicated: 1, missing: 1, extra: 0 });
    expect(d.examples).toEqual([
      { kind: 'duplicated', row: { v: 3, label: 'trip 3' } },
      { kind: 'missing', row: { v: 2, label: 'trip 2' } },
    ]);
  });
});

describe('the other orders tried', () => {
  it('tries each distinct sequence of changes once', () => {
    expect(otherOrders(['a', 'b', 'c'])).toHaveLength(5);
    const change = (name: string) => (name === 'c' ? 'delete' : 'append');
    expect(otherOrders(['a', 'b', 'c'], change)).toEqual([
      ['a', 'c', 'b'],
      ['c', 'a', 'b'],
    ]);
    expect(otherOrders(['job1', 'job2'], () => 'check-then-append')).toEqual([]);
  });
});
