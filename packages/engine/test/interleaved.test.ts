/**
 * The lesson's races, interleaved deterministically in one process: two transactions open the
 * same version, one commits, then the other. Outcomes and messages are not written anywhere in the
 * engine: they emerge from real commits on real tables.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CommitFailedError,
  DeltaTable,
  type PreparedOperation,
  prepareOptimize,
  prepareUpdate,
  prepareWrite,
} from '../src/index';
import { february, JAN_ROWS, lessonTable } from './helpers/lesson';
import { validatedLog } from './helpers/log';
import { tempDir } from './helpers/tmp';

const root = tempDir('interleaved');
const ADDED_NEW_DATA =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const DELETED_READ =
  "Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read.\nHelp: This transaction's query must be rerun to exclude the removed data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

const must = <T>(x: T | null): T => {
  if (x === null) throw new Error('nothing to commit');
  return x;
};
const tipUpdate = async (dir: string, vendor: number) =>
  must(
    await prepareUpdate(await DeltaTable.open(dir), {
      predicate: `VendorID = ${vendor}`,
      set: { tip_amount: 'tip_amount + 1' },
    }),
  );
const failure = async (p: PreparedOperation) => {
  try {
    await p.commit();
  } catch (e) {
    return e as CommitFailedError;
  }
  throw new Error('expected the commit to fail');
};
const parquetCount = (dir: string) =>
  readdirSync(dir, { recursive: true }).filter(
    (f) => String(f).endsWith('.parquet') && !String(f).startsWith('_delta_log'),
  ).length;

async function tipsByVendor(dir: string, version?: number) {
  const t = await DeltaTable.open(dir, version === undefined ? {} : { version });
  const rows = await t.query<{ VendorID: number; tips: number; n: bigint }>(
    (rel) => `SELECT "VendorID", sum(tip_amount) AS tips, count(*) AS n FROM (${rel}) GROUP BY 1 ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.VendorID, { tips: r.tips, n: Number(r.n) }]));
}

describe('A: two appends', () => {
  it('A1: both commit; the later one moves to version 2 inside the call', async () => {
    const dir = await lessonTable(root, 'A1');
    const a = must(await prepareWrite(dir, february('2025-02-01', 50, 0), { mode: 'append' }));
    const b = must(await prepareWrite(dir, february('2025-02-02', 40, 1000), { mode: 'append' }));
    expect((await a.commit()).version).toBe(1);
    expect((await b.commit()).version).toBe(2);
    const t = await DeltaTable.open(dir);
    const [row] = await t.query<{ n: bigint; ids: bigint }>(
      (rel) => `SELECT count(*) AS n, count(DISTINCT trip_id) AS ids FROM (${rel})`,
    );
    expect(row).toEqual({ n: BigInt(JAN_ROWS + 90), ids: BigInt(JAN_ROWS + 90) });
  });

  it('A2: with max commit retries 0 the later one fails with "Failed to commit transaction: 0"', async () => {
    const dir = await lessonTable(root, 'A2');
    const a = must(await prepareWrite(dir, february('2025-02-01', 50, 0), { mode: 'append', maxCommitRetries: 0 }));
    const b = must(await prepareWrite(dir, february('2025-02-02', 40, 1000), { mode: 'append', maxCommitRetries: 0 }));
    await b.commit();
    const err = await failure(a);
    expect(err).toBeInstanceOf(CommitFailedError);
    expect(err.message).toBe('Failed to commit transaction: 0');
    expect(await (await DeltaTable.open(dir)).count()).toBe(JAN_ROWS + 40);
  });
});

describe('B: two updates', () => {
  it('B1: on the flat table the second fails with "added new data"; the folder holds 11 files, the log names 1', async () => {
    const dir = await lessonTable(root, 'B1');
    const before = await tipsByVendor(dir);
    const one = await tipUpdate(dir, 1);
    const two = await tipUpdate(dir, 2);
    expect((await one.commit()).version).toBe(1);
    const err = await failure(two);
    expect(err.message).toBe(ADDED_NEW_DATA);
    expect(err.kind).toBe('ConcurrentAppend');
    const after = await tipsByVendor(dir);
    expect(after[1]?.tips).toBeCloseTo((before[1]?.tips ?? 0) + (before[1]?.n ?? 0), 6);
    expect(after[2]?.tips).toBeCloseTo(before[2]?.tips ?? 0, 6);
    expect((await DeltaTable.open(dir)).activeFiles()).toHaveLength(1);
    expect(parquetCount(dir)).toBe(11);
    validatedLog(dir);
  });

  it('B3: on the partitioned copy both commit and every vendor 1 and 2 tip is exactly +1', async () => {
    const dir = await lessonTable(root, 'B3', { partitioned: true });
    const before = await tipsByVendor(dir);
    const one = await tipUpdate(dir, 1);
    const two = await tipUpdate(dir, 2);
    expect((await one.commit()).version).toBe(1);
    expect((await two.commit()).version).toBe(2);
    const after = await tipsByVendor(dir);
    for (const v of [1, 2]) expect(after[v]?.tips).toBeCloseTo((before[v]?.tips ?? 0) + (before[v]?.n ?? 0), 6);
    for (const v of [6, 7]) expect(after[v]).toEqual(before[v]);
  });
});

describe('C: compaction against an update', () => {
  it('C2: compaction commits first, then the update fails with "added new data"', async () => {
    const dir = await lessonTable(root, 'C2');
    const compact = must(await prepareOptimize(await DeltaTable.open(dir)));
    const upd = await tipUpdate(dir, 2);
    await compact.commit();
    expect((await failure(upd)).message).toBe(ADDED_NEW_DATA);
    expect(await (await DeltaTable.open(dir)).count()).toBe(JAN_ROWS);
  });

  it('C3: the update commits first, then the compaction fails with "deleted data this operation read"', async () => {
    const dir = await lessonTable(root, 'C3');
    const compact = must(await prepareOptimize(await DeltaTable.open(dir)));
    const upd = await tipUpdate(dir, 2);
    await upd.commit();
    const err = await failure(compact);
    expect(err.message).toBe(DELETED_READ);
    expect(err.kind).toBe('ConcurrentDeleteRead');
    const [row] = await (await DeltaTable.open(dir)).query<{ n: bigint; ids: bigint }>(
      (rel) => `SELECT count(*) AS n, count(DISTINCT trip_id) AS ids FROM (${rel})`,
    );
    expect(row).toEqual({ n: BigInt(JAN_ROWS), ids: BigInt(JAN_ROWS) });
  });
});

describe('I: an append marked blind, then an update that read version 0', () => {
  async function race(name: string, level: string) {
    const dir = await lessonTable(root, name, { configuration: { 'delta.isolationLevel': level } });
    const upd = await tipUpdate(dir, 2);
    const append = must(
      await prepareWrite(dir, february('2025-02-01', 60, 0), {
        mode: 'append',
        customMetadata: { isBlindAppend: true },
      }),
    );
    await append.commit();
    return { dir, upd };
  }

  it('I4: capital-W WriteSerializable acts as unset: the update fails', async () => {
    const { upd } = await race('I4', 'WriteSerializable');
    expect((await failure(upd)).message).toBe(ADDED_NEW_DATA);
  });

  it('I5: small-w writeSerializable skips the blind append: the update commits and the appended rows keep their tips', async () => {
    const { dir, upd } = await race('I5', 'writeSerializable');
    const before = await tipsByVendor(dir, 0);
    expect((await upd.commit()).version).toBe(2);
    const t = await DeltaTable.open(dir);
    const feb = await t.query<{ tips: number }>(
      (rel) => `SELECT sum(tip_amount) AS tips FROM (${rel}) WHERE trip_id >= 10000000`,
    );
    expect(feb[0]?.tips).toBeCloseTo(februaryTips(60), 6);
    const jan2 = await t.query<{ tips: number }>(
      (rel) => `SELECT sum(tip_amount) AS tips FROM (${rel}) WHERE trip_id < 10000000 AND "VendorID" = 2`,
    );
    expect(jan2[0]?.tips).toBeCloseTo((before[2]?.tips ?? 0) + (before[2]?.n ?? 0), 6);
  });
});

function februaryTips(n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += (i % 5) / 2;
  return s;
}
