/**
 * A run's warm writer processes for the next race are started once its table is checked, not while it is: each
 * one's start costs 0.4-0.5 s of CPU, which on a 2-core machine the check (inside the run's durationMs) then lost.
 * Also the check's distinct-id count, which uses a bitmap over narrow id ranges and a hash set over wide ones.
 */
import { join } from 'node:path';
import { withConnection } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeltaCase } from '../src/cases/catalog';
import type { Dataset } from '../src/data/index';
import { runDeltaCase } from '../src/formats/delta/run';
import { distinctIds } from '../src/formats/delta/table-check';
import { WriterPool } from '../src/runner/writer-pool';
import type { BaseTables } from '../src/tables/base-tables';
import { smallBase, tempDir } from './helpers/small-base';

const work = tempDir('pool-refill');
let dataset: Dataset;
let bases: BaseTables;
let pool: WriterPool;

beforeAll(async () => {
  ({ dataset, tables: bases } = await smallBase(work));
  pool = await WriterPool.open(2);
});
afterAll(() => pool.close());

const twoAppends: DeltaCase = {
  id: 'T1',
  title: 'two appends',
  format: 'delta',
  table: 'flat',
  writers: [
    { name: 'feb01', operation: { kind: 'append', day: '2025-02-01' } },
    { name: 'feb02', operation: { kind: 'append', day: '2025-02-02' } },
  ],
};

describe('the writer pool around a run', () => {
  it('is refilled after the table check, outside the run’s time', async () => {
    const fills: number[] = [];
    const fill = pool.fill.bind(pool);
    pool.fill = () => {
      fills.push(Date.now());
      fill();
    };
    const before = new Set(pool.pids());
    const started = Date.now();
    const lazy = { ...dataset, get: async () => dataset };
    const run = await runDeltaCase(twoAppends, 1, { dataset: lazy, workDir: join(work, 'lab'), bases, pool });
    expect(run.writers.map((w) => w.committed)).toEqual([true, true]);
    expect(run.table.rows).toBeGreaterThan(0);
    // The run's time ends after its check; the refill comes after that (runDeltaCase started at or after `started`).
    expect(fills).toHaveLength(1);
    expect(fills[0]).toBeGreaterThanOrEqual(started + (run.durationMs ?? Number.POSITIVE_INFINITY));
    // Two new processes wait for the next race; the two the race used are gone from the pool.
    const after = pool.pids();
    expect(after).toHaveLength(2);
    for (const pid of after) expect(before.has(pid)).toBe(false);
  });
});

describe("the check's distinct trip ids", () => {
  const count = (values: (number | null)[], lo: number | null, hi: number | null) =>
    withConnection((c) =>
      distinctIds(c, `SELECT * FROM (VALUES ${values.map((v) => `(${v}::BIGINT)`).join(', ')}) t(trip_id)`, lo, hi),
    );

  it('count each id once, nulls not at all, over a narrow range (a bitmap)', async () => {
    expect(await count([5, 7, 5, null, 9, 7, 5], 5, 9)).toBe(3);
  });

  it('count each id once over a range too wide for a bitmap (a hash set)', async () => {
    // 2^40 ids apart: a bitmap over the range would need 128 GiB.
    expect(await count([1, 2 ** 40, 1, 2 ** 40, 3], 1, 2 ** 40)).toBe(3);
  });

  it('are 0 for no rows', async () => {
    expect(await count([null], null, null)).toBe(0);
  });
});
