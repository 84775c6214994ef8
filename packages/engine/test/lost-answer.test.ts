/**
 * A commit whose put landed but whose answer was lost, through LostAnswerStore on a real local table: what
 * delta-rs 1.6.x's loop makes of it (the resent put is told "already exists", the writer judges its own entry as a
 * winner and appends again), this engine's byte recognition, and application transactions (txn).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnswerLostError,
  CommitFailedError,
  DeltaTable,
  LocalObjectStore,
  LostAnswerStore,
  readCommit,
  writeDeltaTable,
} from '../src/index';
import { TAXI, taxiRows } from './helpers/taxi';
import { tempDir } from './helpers/tmp';

const root = tempDir('lost-answer');
const rows = (day: string, first: number, n: number) => ({
  kind: 'rows' as const,
  schema: TAXI,
  rows: taxiRows(day, first, n),
});

let tables = 0;
/** A new table of 100 January rows at version 0, and a store over it that loses one answer. */
async function tableWithLoss(how: 'connection-closed' | 'timeout') {
  const dir = join(root, `t${tables++}`);
  await writeDeltaTable(dir, rows('2025-01-15', 0, 100));
  return { dir, store: new LostAnswerStore(new LocalObjectStore(dir), how) };
}

const versionsOf = async (dir: string) => (await DeltaTable.open(dir)).version;

describe('LostAnswerStore', () => {
  it('connection-closed: the put lands, the resend is refused, the caller is told "already exists"', async () => {
    const { dir, store } = await tableWithLoss('connection-closed');
    const key = '_delta_log/00000000000000000001.json';
    const body = new TextEncoder().encode('{"commitInfo":{}}');
    expect(await store.putIfAbsent(key, body)).toBe(false);
    expect(new TextDecoder().decode(await store.get(key))).toBe('{"commitInfo":{}}');
    expect(store.events).toEqual([{ key, how: 'connection-closed', told: 'already exists' }]);
    // Only the first landing put loses its answer.
    expect(await store.putIfAbsent('_delta_log/00000000000000000002.json', body)).toBe(true);
    expect(await versionsOf(dir)).toBe(2);
  });

  it('timeout: the put lands and the caller gets an AnswerLostError', async () => {
    const { store } = await tableWithLoss('timeout');
    const key = '_delta_log/00000000000000000001.json';
    await expect(store.putIfAbsent(key, new TextEncoder().encode('{}'))).rejects.toBeInstanceOf(AnswerLostError);
    expect(await store.head(key)).not.toBeNull();
    expect(store.events).toEqual([{ key, how: 'timeout', told: 'error' }]);
  });

  it('a put refused for a taken version keeps the fault armed for the first one that lands', async () => {
    const { store } = await tableWithLoss('connection-closed');
    expect(await store.putIfAbsent('_delta_log/00000000000000000000.json', new Uint8Array([1]))).toBe(false);
    expect(store.events).toEqual([]);
  });
});

describe('a commit whose answer was lost', () => {
  it("delta-rs's default: the writer meets its own entry as a winner and writes the same bytes at the next version", async () => {
    const { dir, store } = await tableWithLoss('connection-closed');
    const r = await writeDeltaTable(store, rows('2025-02-01', 1000, 10), { mode: 'append' });
    expect(r).toMatchObject({ version: 2, attempts: 2 });
    expect(r?.recognisedOwnCommit).toBeUndefined();
    const t = await DeltaTable.open(dir);
    expect(t.version).toBe(2);
    // The entry is in the log twice, byte for byte (delta-rs prepares the bytes once and resends them): the second
    // re-adds the file the first added, so a snapshot holds the rows once and an incremental reader reads them twice.
    const [v1, v2] = [
      await t.store.get('_delta_log/00000000000000000001.json'),
      await t.store.get('_delta_log/00000000000000000002.json'),
    ];
    expect(Buffer.compare(v1, v2)).toBe(0);
    expect(t.activeFiles()).toHaveLength(2);
    expect(await t.count()).toBe(110);
  });

  it("this engine's recogniseOwnCommit: the taken version holds its own bytes, so it committed once", async () => {
    const { dir, store } = await tableWithLoss('connection-closed');
    const r = await writeDeltaTable(store, rows('2025-02-01', 1000, 10), {
      mode: 'append',
      recogniseOwnCommit: true,
    });
    expect(r).toMatchObject({ version: 1, attempts: 1, recognisedOwnCommit: true });
    expect(await versionsOf(dir)).toBe(1);
    expect(await (await DeltaTable.open(dir)).count()).toBe(110);
  });

  it('recogniseOwnCommit does not take another writer’s entry for its own', async () => {
    const dir = join(root, `t${tables++}`);
    await writeDeltaTable(dir, rows('2025-01-15', 0, 100));
    const opened = await DeltaTable.open(dir);
    // Someone else takes version 1 after this writer read version 0.
    await writeDeltaTable(dir, rows('2025-02-02', 2000, 5), { mode: 'append' });
    const r = await writeDeltaTable(opened, rows('2025-02-01', 1000, 10), {
      mode: 'append',
      recogniseOwnCommit: true,
    });
    expect(r).toMatchObject({ version: 2 });
    expect(r?.recognisedOwnCommit).toBeUndefined();
    expect(await (await DeltaTable.open(dir)).count()).toBe(115);
  });

  it('timeout: the error reaches the writer although its commit landed', async () => {
    const { dir, store } = await tableWithLoss('timeout');
    await expect(writeDeltaTable(store, rows('2025-02-01', 1000, 10), { mode: 'append' })).rejects.toBeInstanceOf(
      AnswerLostError,
    );
    expect(await versionsOf(dir)).toBe(1);
    expect(await (await DeltaTable.open(dir)).count()).toBe(110);
  });
});

describe('application transactions (txn)', () => {
  it('a commit carries txn(appId, version), last in the entry, and the table reads it back', async () => {
    const dir = join(root, `t${tables++}`);
    await writeDeltaTable(dir, rows('2025-01-15', 0, 100));
    const txn = { appId: 'nightly-load', version: 7, lastUpdated: 1_700_000_000_000 };
    await writeDeltaTable(dir, rows('2025-02-01', 1000, 10), { mode: 'append', appTransactions: [txn] });
    const t = await DeltaTable.open(dir);
    expect(t.appTransactions().get('nightly-load')).toEqual(txn);
    expect((await readCommit(t.store, 1)).at(-1)).toEqual({ txn });
    // A later commit of another app leaves it as it was.
    await writeDeltaTable(dir, rows('2025-02-02', 2000, 5), {
      mode: 'append',
      appTransactions: [{ appId: 'other', version: 1 }],
    });
    const later = await DeltaTable.open(dir);
    expect(later.appTransactions().get('nightly-load')?.version).toBe(7);
    expect(later.appTransactions().get('other')?.version).toBe(1);
  });

  it('with a txn, the resent put meets its own txn as a concurrent transaction: rows once, the writer told it failed', async () => {
    const { dir, store } = await tableWithLoss('connection-closed');
    const err = await writeDeltaTable(store, rows('2025-02-01', 1000, 10), {
      mode: 'append',
      appTransactions: [{ appId: 'nightly-load', version: 1 }],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommitFailedError);
    expect((err as CommitFailedError).kind).toBe('ConcurrentTransaction');
    expect((err as Error).message).toBe('Failed to commit transaction: Concurrent transaction failed.');
    const t = await DeltaTable.open(dir);
    expect(t.version).toBe(1);
    expect(await t.count()).toBe(110);
  });
});
