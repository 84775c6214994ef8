/**
 * The table check reads a base table's files once and, on later runs, only the files a run's writers added.
 * Its figures must still be the whole table's: each check here is held against the same figures
 * computed by plain SQL over every live row, after appends, an update, a delete, and an append that repeats
 * trip ids already in the table (so distinct ids span both the remembered files and the new ones).
 */
import { join } from 'node:path';
import { DeltaTable, withConnection } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WriterOperation } from '../src/cases/catalog';
import { prepareChange } from '../src/cases/operations';
import type { Dataset } from '../src/data/index';
import { LAB_DAYS } from '../src/data/lab-days';
import { checkTable } from '../src/formats/delta/table-check';
import { freshCopy } from '../src/tables/fresh-copy';
import { smallBase, tempDir } from './helpers/small-base';

const work = tempDir('table-check-figures');
let dataset: Dataset;
let base: string;

beforeAll(async () => {
  const b = await smallBase(work);
  dataset = b.dataset;
  base = b.tables.flat;
});

/** The lab's figures over every live row of the table, in one place, computed directly over every row. */
async function wholeTable(dir: string) {
  const t = await DeltaTable.open(dir);
  return withConnection(async (c) => {
    const rel = await t.relation(c);
    const rows = async (sql: string) =>
      (await c.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
    const jan = `read_parquet('${dataset.january}')`;
    const [[n, ids] = []] = await rows(`SELECT count(*), count(DISTINCT trip_id) FROM (${rel})`);
    const days = await rows(
      `SELECT strftime(CAST(tpep_pickup_datetime AS DATE), '%Y-%m-%d'), count(*) FROM (${rel})
       WHERE strftime(CAST(tpep_pickup_datetime AS DATE), '%Y-%m-%d') IN (${LAB_DAYS.map((d) => `'${d}'`).join(', ')}) GROUP BY 1`,
    );
    const tipRel = `SELECT o."VendorID" AS v, t.tip_amount - o.tip_amount AS d, t.tip_amount IS DISTINCT FROM o.tip_amount AS ch
      FROM (${rel}) t JOIN ${jan} o USING (trip_id) WHERE t.trip_id < 10000000`;
    const tips = await rows(
      `SELECT v, count(*), sum(d), count(*) FILTER (WHERE ch) FROM (${tipRel}) GROUP BY 1 ORDER BY 1`,
    );
    const values = await rows(`SELECT DISTINCT round(d, 6) AS x FROM (${tipRel}) WHERE ch ORDER BY 1 LIMIT 10`);
    const by = (i: number, f = (x: unknown) => Number(x)) =>
      Object.fromEntries(tips.map((r) => [String(r[0]), f(r[i])]));
    return {
      rows: n,
      distinctTripIds: ids,
      tripsOnDay: Object.fromEntries(days.map((r) => [String(r[0]), Number(r[1])])),
      tipDeltaByVendor: by(2, (x) => Math.round(Number(x) * 1e6) / 1e6),
      tipChangedByVendor: by(3),
      tipDeltaValues: values.map((r) => Number(r[0])),
      tripsByVendor: by(1),
    };
  });
}

async function change(dir: string, op: WriterOperation, rowsFile?: string) {
  const { prepared } = await prepareChange(await DeltaTable.open(dir), op, {}, rowsFile, {});
  await prepared?.commit();
}

async function expectWholeTable(dir: string) {
  const check = await checkTable(dir, { januaryFile: dataset.january });
  const { rows, ...figures } = await wholeTable(dir);
  expect(check).toMatchObject({ rows, ...figures });
  expect(Object.keys(check.tripsByVendor ?? {})).toEqual(Object.keys(figures.tripsByVendor));
  return check;
}

describe("the table check's lab figures", () => {
  it('are the whole table’s on the base copy, read twice (the second time from what the first read)', async () => {
    const dir = join(work, 'copy-twice');
    await freshCopy(base, dir);
    const first = await expectWholeTable(dir);
    expect(await expectWholeTable(dir)).toEqual(first);
  });

  it('are the whole table’s after two appends, reading only the appended files', async () => {
    const dir = join(work, 'appends');
    await freshCopy(base, dir);
    await expectWholeTable(dir);
    await change(dir, { kind: 'append', day: '2025-02-01' }, dataset.february('2025-02-01'));
    await change(dir, { kind: 'append', day: '2025-02-14' }, dataset.february('2025-02-14'));
    const check = await expectWholeTable(dir);
    expect(check.tripsOnDay?.['2025-02-14']).toBeGreaterThan(0);
  });

  it('count a January trip appended again once among distinct ids, and its tip against the original', async () => {
    const dir = join(work, 'repeat');
    await freshCopy(base, dir);
    await expectWholeTable(dir);
    // The January file again: every trip id now appears twice, across remembered and new files.
    await change(dir, { kind: 'append', from: { file: dataset.january } }, dataset.january);
    const check = await expectWholeTable(dir);
    expect(check.rows).toBe(2 * (check.distinctTripIds ?? 0));
  });

  it('are the whole table’s after an update of tips and a delete', async () => {
    const dir = join(work, 'update');
    await freshCopy(base, dir);
    await expectWholeTable(dir);
    await change(dir, { kind: 'update', predicate: 'VendorID = 1', set: { tip_amount: 'tip_amount + 1' } });
    const updated = await expectWholeTable(dir);
    expect(updated.tipChangedByVendor?.['1']).toBeGreaterThan(0);
    await change(dir, { kind: 'delete', predicate: 'trip_distance = 0' });
    await expectWholeTable(dir);
  });
});
