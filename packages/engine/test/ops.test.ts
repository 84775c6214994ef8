/**
 * The operations of delta-rs that the lab needs: what each records in commitInfo (operation,
 * stringified parameters, readVersion), which files it rewrites, and what the table holds after.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CommitFailedError,
  DeltaTable,
  deleteRows,
  merge,
  optimize,
  PredicateViolationError,
  parseStats,
  prepareWrite,
  update,
  VacuumRetentionError,
  vacuum,
  writeDeltaTable,
} from '../src/index';
import { february, JAN_ROWS, january, LESSON, lessonTable } from './helpers/lesson';
import { commitInfoOf, validatedLog } from './helpers/log';
import { tempDir } from './helpers/tmp';

const root = tempDir('ops');
const jan = january();
const count = (pred: (r: Record<string, unknown>) => boolean) => jan.filter(pred).length;
const lastInfo = (dir: string) => commitInfoOf(validatedLog(dir).at(-1));

describe('update', () => {
  it('rewrites only the files holding a matching row: VendorID 6 lives in files 8 and 9 only', async () => {
    const dir = await lessonTable(root, 'upd6');
    const t0 = await DeltaTable.open(dir);
    expect(t0.filesMatching('VendorID = 6')).toHaveLength(9); // stats cannot rule any file out
    const r = await update(t0, { predicate: 'VendorID = 6', set: { tip_amount: 'tip_amount + 1' } });
    expect(r).toMatchObject({ version: 1, filesRemoved: 2, filesAdded: 1 });
    const info = lastInfo(dir);
    expect(info.operation).toBe('UPDATE');
    // As delta-rs 1.6.6 records it (DataFusion's unparser quotes an identifier with upper case).
    expect(info.operationParameters).toEqual({ predicate: '"VendorID" = 6' });
    expect(info.readVersion).toBe(0);
    expect(info.operationMetrics).toMatchObject({
      num_updated_rows: count((x) => x.VendorID === 6),
      num_removed_files: 2,
    });
    const t1 = await DeltaTable.open(dir);
    const [add] = t1.activeFiles().filter((f) => !t0.activeFiles().some((g) => g.path === f.path));
    expect(parseStats(add?.stats)?.maxValues?.VendorID).toBe(6);
  });

  it('without a predicate updates every row and records the predicate "true"', async () => {
    const dir = await lessonTable(root, 'updAll');
    await update(await DeltaTable.open(dir), { set: { tip_amount: '0' } });
    expect(lastInfo(dir).operationParameters).toEqual({ predicate: 'true' });
    expect(await (await DeltaTable.open(dir)).count('tip_amount = 0')).toBe(JAN_ROWS);
  });

  it('commits nothing when no row matches, and refuses a bad expression before writing', async () => {
    const dir = await lessonTable(root, 'updNone');
    const t = await DeltaTable.open(dir);
    expect(await update(t, { predicate: 'VendorID = 99', set: { tip_amount: 'tip_amount + 1' } })).toBeNull();
    await expect(update(t, { predicate: 'VendorID = 1', set: { tip_amount: "tip_amount + 'x'" } })).rejects.toThrow();
    await expect(update(t, { predicate: 'VendorID = 1', set: { nope: '1' } })).rejects.toThrow(/unknown column 'nope'/);
    expect((await DeltaTable.open(dir)).version).toBe(0);
  });
});

describe('delete', () => {
  it('keeps rows where the predicate is NULL and records the predicate and read version', async () => {
    const dir = join(root, 'delnull');
    const rows = [1, 2, 3, null].map((v, i) => ({ ...jan[i], fare_amount: v }));
    await writeDeltaTable(dir, { kind: 'rows', schema: LESSON, rows });
    const r = await deleteRows(await DeltaTable.open(dir), 'fare_amount < 2.5');
    expect(r).toMatchObject({ filesRemoved: 1, filesAdded: 1, rowsWritten: 2 });
    const info = lastInfo(dir);
    expect(info).toMatchObject({
      operation: 'DELETE',
      operationParameters: { predicate: 'fare_amount < 2.5' },
      readVersion: 0,
    });
    expect(await (await DeltaTable.open(dir)).count()).toBe(2);
  });

  it('drops whole files without rewriting them, and commits nothing when nothing matches', async () => {
    const dir = await lessonTable(root, 'delfiles');
    const r = await deleteRows(await DeltaTable.open(dir), 'trip_id < 240');
    expect(r).toMatchObject({ filesRemoved: 2, filesAdded: 0 });
    expect(await deleteRows(await DeltaTable.open(dir), 'trip_id < 0')).toBeNull();
    expect((await DeltaTable.open(dir)).version).toBe(1);
  });

  it('without a predicate removes every file with empty parameters', async () => {
    const dir = await lessonTable(root, 'delall');
    await deleteRows(await DeltaTable.open(dir));
    expect(lastInfo(dir).operationParameters).toEqual({});
    expect(await (await DeltaTable.open(dir)).count()).toBe(0);
  });
});

describe('overwrite with a predicate', () => {
  it('removes the files holding matching rows and writes their other rows again beside the new ones', async () => {
    const dir = await lessonTable(root, 'replace');
    const day = february('2025-01-04', 30, 0);
    const r = await writeDeltaTable(dir, day, {
      mode: 'overwrite',
      predicate: "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-01-04'",
    });
    expect(r).toMatchObject({ filesRemoved: 1, filesAdded: 1 });
    expect(lastInfo(dir).operationParameters).toMatchObject({
      mode: 'Overwrite',
      predicate: expect.stringContaining('2025-01-04'),
    });
    const t = await DeltaTable.open(dir);
    expect(await t.count("CAST(tpep_pickup_datetime AS DATE) = DATE '2025-01-04'")).toBe(30);
    expect(await t.count()).toBe(JAN_ROWS - 120 + 30);
  });

  it('refuses new rows that the predicate does not cover, writing nothing', async () => {
    const dir = await lessonTable(root, 'replaceBad');
    await expect(
      writeDeltaTable(dir, february('2025-02-14', 5, 0), {
        mode: 'overwrite',
        predicate: "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-15'",
      }),
    ).rejects.toThrow(PredicateViolationError);
    expect((await DeltaTable.open(dir)).version).toBe(0);
  });
});

describe('merge', () => {
  it('updates matched keys, inserts the others, and reads only the source key range', async () => {
    const dir = await lessonTable(root, 'merge');
    const src = [5, 6, 2_000_000].map((id) => ({ ...jan[0], trip_id: id, tip_amount: 99 }));
    const r = await merge(await DeltaTable.open(dir), { kind: 'rows', schema: LESSON, rows: src }, { on: ['trip_id'] });
    expect(r?.filesRemoved).toBe(1);
    const info = lastInfo(dir);
    expect(info.operation).toBe('MERGE');
    expect(info.operationParameters).toEqual({
      predicate: 'trip_id BETWEEN 5 AND 2000000',
      mergePredicate: 'target.trip_id = source.trip_id',
      matchedPredicates: '[{"actionType":"update"}]',
      notMatchedPredicates: '[{"actionType":"insert"}]',
      notMatchedBySourcePredicates: '[]',
    });
    expect(info.operationMetrics).toMatchObject({ num_target_rows_updated: 2, num_target_rows_inserted: 1 });
    const t = await DeltaTable.open(dir);
    expect(await t.count('tip_amount = 99')).toBe(3);
    expect(await t.count()).toBe(JAN_ROWS + 1);
  });
});

describe('optimize.compact', () => {
  it('bins small files per partition into one file each with dataChange false, readVersion recorded', async () => {
    const dir = await lessonTable(root, 'optimize', { partitioned: true });
    const t0 = await DeltaTable.open(dir);
    const r = await optimize(t0);
    const actions = validatedLog(dir).at(-1) ?? [];
    expect(actions.filter((a) => 'add' in a).every((a) => 'add' in a && a.add.dataChange === false)).toBe(true);
    expect(actions.filter((a) => 'remove' in a).every((a) => 'remove' in a && a.remove.dataChange === false)).toBe(
      true,
    );
    const info = commitInfoOf(actions);
    expect(info).toMatchObject({
      operation: 'OPTIMIZE',
      operationParameters: { targetSize: '104857600', predicate: '[]' },
      readVersion: 0,
    });
    const t1 = await DeltaTable.open(dir);
    // One file per partition that had two or more.
    const partitions = new Set(t1.activeFiles().map((f) => f.partitionValues.VendorID));
    expect(t1.activeFiles()).toHaveLength(partitions.size);
    const groups = new Map<string | null | undefined, number>();
    for (const f of t0.activeFiles())
      groups.set(f.partitionValues.VendorID, (groups.get(f.partitionValues.VendorID) ?? 0) + 1);
    const compacted = [...groups.values()].filter((n) => n >= 2);
    expect(r).toMatchObject({ filesRemoved: compacted.reduce((a, b) => a + b, 0), filesAdded: compacted.length });
    expect(await t1.count()).toBe(JAN_ROWS);
    expect(await optimize(t1)).toBeNull();
  });
});

describe('vacuum', () => {
  it('refuses a short retention unless told, dry-runs by default, then deletes removed and zombie files', async () => {
    const dir = await lessonTable(root, 'vacuum');
    await update(await DeltaTable.open(dir), { predicate: 'VendorID = 6', set: { tip_amount: 'tip_amount + 1' } });
    const t = await DeltaTable.open(dir);
    await expect(vacuum(t, { retentionHours: 0 })).rejects.toThrow(VacuumRetentionError);
    await expect(vacuum(t, { retentionHours: 0 })).rejects.toThrow(
      'Invalid retention period, minimum retention for vacuum is configured to be greater than 168 hours, got 0 hours',
    );
    expect((await vacuum(t)).files).toEqual([]);
    const dry = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false });
    expect(dry.dryRun).toBe(true);
    expect(dry.files).toHaveLength(2);
    const done = await vacuum(t, { retentionHours: 0, enforceRetentionDuration: false, dryRun: false });
    expect(done.files).toEqual(dry.files);
    const log = validatedLog(dir);
    expect(log.slice(-2).map((c) => commitInfoOf(c).operation)).toEqual(['VACUUM START', 'VACUUM END']);
    expect(commitInfoOf(log.at(-2)).operationParameters).toEqual({
      retentionCheckEnabled: 'false',
      defaultRetentionMillis: '604800000',
      specifiedRetentionMillis: '0',
    });
    const after = await DeltaTable.open(dir);
    expect(await after.count()).toBe(JAN_ROWS);
    expect(readdirSync(dir).filter((f) => f.endsWith('.parquet'))).toHaveLength(after.activeFiles().length);
  });
});

describe('app transactions', () => {
  it('records txn last, keeps the latest version per appId, and conflicts on the same appId', async () => {
    const dir = await lessonTable(root, 'txn');
    await writeDeltaTable(dir, february('2025-02-01', 5, 0), {
      mode: 'append',
      appTransactions: [{ appId: 'etl', version: 1 }],
    });
    const t = await DeltaTable.open(dir);
    expect(t.appTransactions().get('etl')?.version).toBe(1);
    const a = await prepareWrite(dir, february('2025-02-02', 5, 100), {
      mode: 'append',
      appTransactions: [{ appId: 'etl', version: 2 }],
    });
    const b = await prepareWrite(dir, february('2025-02-03', 5, 200), {
      mode: 'append',
      appTransactions: [{ appId: 'etl', version: 3 }],
    });
    await a?.commit();
    await expect(b?.commit()).rejects.toThrow(CommitFailedError);
    await expect(b?.commit()).rejects.toThrow('Failed to commit transaction: Concurrent transaction failed.');
    expect((await DeltaTable.open(dir)).appTransactions().get('etl')?.version).toBe(2);
  });
});
