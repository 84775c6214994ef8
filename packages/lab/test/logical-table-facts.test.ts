/**
 * Layouts, forecasts and the jobs audit on the tables teams really have, Delta Spark's own golden tables: one
 * with deletion vectors (its log's numRecords count rows the vectors deleted) and one with column mapping (its
 * log keys stats by physical names such as `col-95b3…`). What people see is rows a scan returns and the columns
 * a predicate names. The tables are copies in a temporary folder, so nothing here can write into the fixtures.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { DeltaTable, parseStats } from '@racelab/engine';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { auditJobs, type Job } from '../src/audit/index';
import { forecastConflict, tableFacts } from '../src/forecast/conflict-forecast';
import { tableLayout } from '../src/tables/layout';
import { tempDir } from './helpers/small-base';

const GOLDEN = fixture('delta-spark-golden');

const work = tempDir('logical-facts');
const roots = join(work, 'tables');
const copy = (golden: string, as: string) => {
  const dir = join(roots, as);
  cpSync(join(GOLDEN, golden, 'delta'), dir, { recursive: true });
  return dir;
};
const DV = copy('dv-partitioned-with-checkpoint', 'dv');
const MAPPED = copy('table-with-columnmapping-mode-name', 'mapped');
/** How the log names a column of a column-mapped table that Delta Spark wrote. */
const PHYSICAL = /col-[0-9a-f]{8}-/;

const sum = (ns: readonly number[]) => ns.reduce((a, b) => a + b, 0);

describe('deletion vectors: rows are counted net', () => {
  it('each file of the layout has the rows a scan returns, not the rows its stats were written with', async () => {
    const table = await DeltaTable.open(DV);
    const layout = await tableLayout(table, 'col1');
    const adds = new Map(table.activeFiles().map((f) => [f.path, f]));
    const withVector = [...adds.values()].filter((f) => f.deletionVector);
    expect(withVector.length).toBeGreaterThan(0);
    for (const f of layout.files) {
      const add = adds.get(f.path);
      const gross = parseStats(add?.stats)?.numRecords as number;
      expect(f.rows, f.path).toBe(gross - (add?.deletionVector?.cardinality ?? 0));
      // countsBy is counted by DuckDB from the data, which never returns a deleted row.
      expect(sum((f.countsBy ?? []).map((c) => c.rows)), f.path).toBe(f.rows);
      expect(parseStats(f.stats)?.numRecords, f.path).toBe(f.rows);
    }
    const six = layout.files.find((f) => f.partitionValues.part === '6');
    expect(six).toMatchObject({
      rows: 2,
      countsBy: [
        { value: '36', rows: 1 },
        { value: '46', rows: 1 },
      ],
    });
    expect(sum(layout.files.map((f) => f.rows))).toBe(await table.count());
  });

  it("a forecast counts a file's rows net: deleting every live row of a file with a vector leaves no file", async () => {
    const table = await DeltaTable.open(DV);
    const first = { name: 'first', operation: { kind: 'delete' as const, predicate: 'part = 6' } };
    const second = { name: 'second', operation: { kind: 'delete' as const, predicate: 'part = 8' } };
    const facts = await tableFacts(table, []);
    const six = facts.snapshot.files.filter((f) => f.partitionValues.part === '6');
    expect(six.map((f) => parseStats(f.stats)?.numRecords)).toEqual([2]);
    const f = await forecastConflict({ table, first, second });
    // The file's stats say 3 rows, its vector deletes 1, the delete takes the other 2: nothing is left to write.
    expect(f.first).toMatchObject({ committed: true, filesRemoved: 1, filesAdded: 0 });
    expect(f.secondReadsFiles).toBe(1);
    expect(f.secondCommits).toBe(true);
  });
});

describe('column mapping: logical names', () => {
  it('the layout keys min/max and stats by the logical names, and predicates in them count rows', async () => {
    const layout = await tableLayout(MAPPED, 'IntegerType', { predicates: ['IntegerType > 3', "StringType = '2'"] });
    expect(layout.files).toHaveLength(2);
    for (const f of layout.files) {
      expect(Object.keys(f.minValues)).toEqual(expect.arrayContaining(['ByteType', 'IntegerType', 'nested_struct']));
      expect(JSON.stringify(f), f.path).not.toMatch(PHYSICAL);
      expect(sum((f.countsBy ?? []).map((c) => c.rows)), f.path).toBe(f.rows);
    }
    expect(sum(layout.files.map((f) => f.rows))).toBe(6);
    expect(layout.files.map((f) => f.maxValues.IntegerType)).toEqual([3, 4]);
    expect(layout.files.map((f) => f.matches)).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('a forecast prunes with the logical stats, as the checker of a real commit would', async () => {
    const first = {
      name: 'first',
      operation: { kind: 'update' as const, predicate: 'IntegerType = 1', set: { StringType: "'x'" } },
    };
    const second = { name: 'second', operation: { kind: 'delete' as const, predicate: 'IntegerType > 3' } };
    const facts = await tableFacts(await DeltaTable.open(MAPPED), []);
    expect(JSON.stringify(facts.snapshot.files)).not.toMatch(PHYSICAL);
    const f = await forecastConflict({ table: MAPPED, first, second });
    // Only the file whose IntegerType reaches 4 can hold a match; with the log's physical keys both files could.
    expect(f.secondReadsFiles).toBe(1);
    expect(f.first.filesRemoved).toBeGreaterThan(0);
  });

  it("an audit's findings and forecasts name the columns as the schema does", async () => {
    const job = (name: string, predicate: string): Job => ({
      name,
      table: 'mapped',
      engine: 'delta-rs 1.6.6',
      operation: 'delete',
      predicate,
      onCommitFailed: 'redo-whole-change',
    });
    const audit = await auditJobs(
      { jobs: [job('low', 'IntegerType = 0'), job('high', 'IntegerType = 2')] },
      { roots: [roots], workDir: work },
    );
    const shared = audit.findings.find((f) => f.rule === 'predicates-share-files');
    expect(shared?.evidence).toMatch(/^low's 'IntegerType = 0' and high's 'IntegerType = 2' both match rows in/);
    // Found by grouping the rows on each logical column: ByteType's values keep the two predicates' rows apart.
    expect(shared?.fix).toMatch(/^partition the table by ByteType \(6 values\)/);
    expect(audit.pairs.map((p) => p.secondCommits)).toEqual([false, false]);
    expect(JSON.stringify(audit)).not.toMatch(PHYSICAL);
  });
});
