/**
 * The API on tables teams really have, over real HTTP: copies of Delta Spark's golden tables with deletion
 * vectors and with column mapping under the API's table root (LAB_ROOTS). The layout the dashboard draws and
 * forecasts from counts the rows a scan returns and names the columns as the schema does; the table audit reads
 * such tables as any other. A copy whose checkpoint is truncated answers the same rows, with the engine's warning
 * naming the skipped checkpoint by its key.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { gql } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const GOLDEN = fixture('delta-spark-golden');
/** How the log names a column of a column-mapped table that Delta Spark wrote. */
const PHYSICAL = /col-[0-9a-f]{8}-/;
/** The golden table's one checkpoint, by its key. */
const CHECKPOINT = '_delta_log/00000000000000000010.checkpoint.parquet';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  cpSync(join(GOLDEN, 'dv-partitioned-with-checkpoint', 'delta'), join(stack.dir, 'tables', 'dv'), { recursive: true });
  cpSync(join(GOLDEN, 'table-with-columnmapping-mode-name', 'delta'), join(stack.dir, 'tables', 'mapped'), {
    recursive: true,
  });
  const corrupt = join(stack.dir, 'tables', 'dv-corrupt');
  cpSync(join(GOLDEN, 'dv-partitioned-with-checkpoint', 'delta'), corrupt, { recursive: true });
  const checkpoint = join(corrupt, CHECKPOINT);
  writeFileSync(checkpoint, readFileSync(checkpoint).subarray(0, 100));
});
afterAll(async () => {
  await stack?.stop();
});

interface LayoutView {
  tableLayout: {
    files: {
      path: string;
      rows: number;
      stats: string;
      partitionValues: { key: string; value: string }[];
      minValues: string;
      countsBy: { value: string; rows: number }[];
      matches: number[] | null;
    }[];
  };
}
const LAYOUT = `query($l: String!, $c: String, $p: [String!]) { tableLayout(location: $l, countBy: $c, predicates: $p) {
  files { path rows stats partitionValues { key value } minValues countsBy { value rows } matches } } }`;

describe('tableLayout and predictConflict on golden tables', () => {
  it('a table whose checkpoint cannot be read: the same rows from the JSON commits, and the warning', async () => {
    const query = `query($l: String!) { tableLayout(location: $l) { version warnings files { path rows } } }`;
    type View = { tableLayout: { version: number; warnings: string[]; files: { path: string; rows: number }[] } };
    const healthy = await gql<View>(stack.apiUrl, query, { l: 'dv' });
    const corrupt = await gql<View>(stack.apiUrl, query, { l: 'dv-corrupt' });
    expect([healthy.errors, corrupt.errors]).toEqual([undefined, undefined]);
    expect(healthy.data?.tableLayout.warnings).toEqual([]);
    expect(corrupt.data?.tableLayout.version).toBe(15);
    expect(corrupt.data?.tableLayout.files).toEqual(healthy.data?.tableLayout.files);
    expect(corrupt.data?.tableLayout.warnings).toHaveLength(1);
    expect(corrupt.data?.tableLayout.warnings[0]).toMatch(
      new RegExp(
        `^${CHECKPOINT}: unreadable checkpoint skipped, version 15 loaded from the JSON commits from version 0`,
      ),
    );
    expect(JSON.stringify(corrupt)).not.toContain(stack.dir);
  });

  it('a table with deletion vectors: rows per file net of the vectors, as the data counts them', async () => {
    const r = await gql<LayoutView>(stack.apiUrl, LAYOUT, { l: 'dv', c: 'col1' });
    expect(r.errors).toBeUndefined();
    const files = r.data?.tableLayout.files ?? [];
    expect(files).toHaveLength(15);
    for (const f of files) {
      expect(
        f.countsBy.reduce((n, c) => n + c.rows, 0),
        f.path,
      ).toBe(f.rows);
      expect(JSON.parse(f.stats).numRecords, f.path).toBe(f.rows);
    }
    // Partition 6's one file was written with 3 rows; its deletion vector deletes the row with col1 = 26.
    expect(files.find((f) => f.partitionValues[0]?.value === '6')).toMatchObject({
      rows: 2,
      partitionValues: [{ key: 'part', value: '6' }],
      countsBy: [
        { value: '36', rows: 1 },
        { value: '46', rows: 1 },
      ],
    });
    expect(files.reduce((n, f) => n + f.rows, 0)).toBe(35);
  });

  it('a column-mapped table: logical names in min/max and stats, predicates in logical names', async () => {
    const r = await gql<LayoutView>(stack.apiUrl, LAYOUT, { l: 'mapped', c: 'IntegerType', p: ['IntegerType > 3'] });
    expect(r.errors).toBeUndefined();
    const files = r.data?.tableLayout.files ?? [];
    expect(files.map((f) => JSON.parse(f.minValues).IntegerType)).toEqual([1, 0]);
    expect(files.map((f) => f.matches)).toEqual([[0], [1]]);
    expect(JSON.stringify(files)).not.toMatch(PHYSICAL);

    const forecast = await gql<{ predictConflict: { secondCommits: boolean; secondReadsFiles: number } }>(
      stack.apiUrl,
      `{ predictConflict(input: { table: "mapped",
        first: { name: "low", operation: "delete", predicate: "IntegerType = 1" },
        second: { name: "high", operation: "delete", predicate: "IntegerType > 3" } }) { secondCommits secondReadsFiles } }`,
    );
    expect(forecast.errors).toBeUndefined();
    // The stats say only one file reaches IntegerType 4; the log's physical keys alone would leave both possible.
    expect(forecast.data?.predictConflict.secondReadsFiles).toBe(1);
  });

  it('auditTables reads both tables', async () => {
    const r = await gql<{ auditTables: { location: string; tableVersion: number }[] }>(
      stack.apiUrl,
      'mutation { auditTables(locations: ["dv", "mapped"]) { location tableVersion } }',
      {},
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.auditTables).toEqual([
      { location: 'dv', tableVersion: 15 },
      { location: 'mapped', tableVersion: 0 },
    ]);
  });
});
