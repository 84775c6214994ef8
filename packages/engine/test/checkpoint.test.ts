/**
 * Checkpoints: written after every interval-th commit (100 by default, as delta-rs), read back as
 * the starting point of replay, found by listing when `_last_checkpoint` is missing or stale, and
 * always giving the same state as a JSON-only replay.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildCommitInfo,
  commit,
  DeltaTable,
  LocalObjectStore,
  LogFormatError,
  loadState,
  withConnection,
  writeCheckpoint,
  writeDeltaTable,
} from '../src/index';
import { createLogOnlyTable } from './helpers/log';
import { TAXI, taxiRows } from './helpers/taxi';
import { tempDir } from './helpers/tmp';

const root = tempDir('checkpoint');
const log = (dir: string, name: string) => join(dir, '_delta_log', name);
const cp = (v: number) => `${String(v).padStart(20, '0')}.checkpoint.parquet`;

describe('checkpoints every delta.checkpointInterval commits', () => {
  const dir = join(root, 'every5');

  it('writes checkpoints at versions 4 and 9 and points _last_checkpoint at the newest', async () => {
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema: TAXI, rows: taxiRows('2025-01-15', 0, 200) },
      { configuration: { 'delta.checkpointInterval': '5' } },
    );
    for (let i = 1; i <= 10; i++) {
      const mode = i === 6 ? 'overwrite' : 'append';
      await writeDeltaTable(dir, { kind: 'rows', schema: TAXI, rows: taxiRows('2025-02-01', i * 1000, 10) }, { mode });
    }
    expect(existsSync(log(dir, cp(4)))).toBe(true);
    expect(existsSync(log(dir, cp(9)))).toBe(true);
    expect(existsSync(log(dir, cp(10)))).toBe(false);
    const last = JSON.parse(readFileSync(log(dir, '_last_checkpoint'), 'utf8'));
    expect(last).toMatchObject({ version: 9, numOfAddFiles: 4 });
  });

  it('starts replay at the newest checkpoint at or below the version', async () => {
    const latest = await DeltaTable.open(dir);
    expect(latest.version).toBe(10);
    expect(latest.state.checkpointVersion).toBe(9);
    expect(await latest.count()).toBe(50);
    const v7 = await DeltaTable.open(dir, { version: 7 });
    expect(v7.state.checkpointVersion).toBe(4);
    expect(await v7.count()).toBe(20);
    const v3 = await DeltaTable.open(dir, { version: 3 });
    expect(v3.state.checkpointVersion).toBe(null);
    expect(await v3.count()).toBe(230);
  });

  it('keeps the overwrite tombstones in the checkpoint with dataChange false', async () => {
    const kinds = await withConnection(async (c) => {
      const r = await c.runAndReadAll(
        `SELECT count(add) AS adds, count(remove) AS removes, bool_or(remove.dataChange) AS dc, count(metaData) AS m, count(protocol) AS p FROM read_parquet('${log(dir, cp(9))}')`,
      );
      return r.getRowObjectsJS()[0];
    });
    expect(kinds).toEqual({ adds: 4n, removes: 6n, dc: false, m: 1n, p: 1n });
  });

  it('gives the same state as a JSON-only replay', async () => {
    const copy = join(root, 'json-only');
    cpSync(dir, copy, { recursive: true });
    for (const v of [4, 9]) rmSync(log(copy, cp(v)));
    rmSync(log(copy, '_last_checkpoint'));
    const a = await loadState(new LocalObjectStore(dir));
    const b = await loadState(new LocalObjectStore(copy));
    expect(b.checkpointVersion).toBe(null);
    expect([...a.files.keys()].sort()).toEqual([...b.files.keys()].sort());
    expect(a.protocol).toEqual(b.protocol);
    expect(a.metadata).toEqual(b.metadata);
    expect([...a.tombstones.keys()].sort()).toEqual([...b.tombstones.keys()].sort());
  });

  it('finds the checkpoint by listing when _last_checkpoint is missing or stale', async () => {
    const copy = join(root, 'no-last');
    cpSync(dir, copy, { recursive: true });
    rmSync(log(copy, '_last_checkpoint'));
    expect((await DeltaTable.open(copy)).state.checkpointVersion).toBe(9);
    writeFileSync(log(copy, '_last_checkpoint'), JSON.stringify({ version: 4, size: 3 }));
    const t = await DeltaTable.open(copy);
    expect(t.version).toBe(10);
    expect(t.state.checkpointVersion).toBe(9);
    writeFileSync(log(copy, '_last_checkpoint'), '{not json');
    expect((await DeltaTable.open(copy)).version).toBe(10);
  });
});

describe('an unreadable checkpoint', () => {
  const dir = join(root, 'cp10');
  const key = `_delta_log/${cp(10)}`;
  const commitName = (v: number) => `${String(v).padStart(20, '0')}.json`;
  const tripIds = async (t: DeltaTable) => (await t.rows()).map((r) => Number(r.trip_id)).sort((a, b) => a - b);
  let before: number[] = [];

  /** A copy of the table with its checkpoint at 10 overwritten by bytes that are not Parquet. */
  function corruptCopy(name: string): string {
    const copy = join(root, name);
    cpSync(dir, copy, { recursive: true });
    writeFileSync(log(copy, cp(10)), readFileSync(log(copy, cp(10))).subarray(0, 100));
    return copy;
  }

  it('a table with a checkpoint at 10 and every JSON commit', async () => {
    await writeDeltaTable(
      dir,
      { kind: 'rows', schema: TAXI, rows: taxiRows('2025-01-15', 0, 50) },
      { configuration: { 'delta.checkpointInterval': '11' } },
    );
    for (let i = 1; i <= 10; i++) {
      const mode = i === 4 ? 'overwrite' : 'append';
      await writeDeltaTable(dir, { kind: 'rows', schema: TAXI, rows: taxiRows('2025-02-01', i * 1000, 10) }, { mode });
    }
    const t = await DeltaTable.open(dir);
    expect([t.version, t.state.checkpointVersion, t.state.warnings]).toEqual([10, 10, []]);
    before = await tripIds(t);
    expect(before).toHaveLength(70);
  });

  it('is skipped for the JSON commits, with a warning naming it by its key', async () => {
    const copy = corruptCopy('cp10-corrupt');
    for (const options of [{}, {}, { version: 10 }]) {
      const t = await DeltaTable.open(copy, options);
      expect(t.version).toBe(10);
      expect(t.state.checkpointVersion).toBe(null);
      expect(await tripIds(t)).toEqual(before);
      expect(t.state.warnings).toHaveLength(1);
      const [warning] = t.state.warnings;
      expect(warning).toMatch(
        new RegExp(
          `^${key}: unreadable checkpoint skipped, version 10 loaded from the JSON commits from version 0 instead \\(unreadable checkpoint \\(.+\\)\\)$`,
        ),
      );
      expect(warning).not.toContain(root);
    }
  });

  it('is refused, naming it, when the commits before it are gone', async () => {
    const copy = corruptCopy('cp10-corrupt-no-commits');
    for (let v = 0; v <= 9; v++) rmSync(log(copy, commitName(v)));
    const error = await DeltaTable.open(copy).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LogFormatError);
    expect((error as Error).message).toContain(`${copy}/${key}: unreadable checkpoint`);
    expect((error as Error).message).toMatch(/no earlier checkpoint or complete JSON log to load version 10 from/);
  });

  it('falls back to an earlier checkpoint', async () => {
    const copy = corruptCopy('cp10-corrupt-cp5');
    const store = new LocalObjectStore(copy);
    await writeCheckpoint(store, await loadState(store, 5));
    for (let v = 0; v <= 5; v++) rmSync(log(copy, commitName(v)));
    const t = await DeltaTable.open(copy);
    expect([t.version, t.state.checkpointVersion]).toEqual([10, 5]);
    expect(await tripIds(t)).toEqual(before);
    expect(t.state.warnings).toEqual([
      expect.stringMatching(new RegExp(`^${key}: .*version 10 loaded from checkpoint 5 instead \\(`)),
    ]);
  });
});

describe('the default interval', () => {
  it('checkpoints after version 99 and not before', async () => {
    const dir = join(root, 'default');
    const store = await createLogOnlyTable(dir, TAXI);
    const info = (operation: string) => ({ commitInfo: buildCommitInfo({ operation, operationParameters: {} }) });
    for (let v = 1; v <= 100; v++) {
      const add = { path: `f${v}.parquet`, partitionValues: {}, size: 1, modificationTime: v, dataChange: true };
      await commit({ store, readVersion: v - 1, actions: [info('WRITE'), { add }] });
      expect(existsSync(log(dir, cp(v)))).toBe(v === 99);
    }
    const s = await loadState(store);
    expect(s.version).toBe(100);
    expect(s.checkpointVersion).toBe(99);
    expect(s.files.size).toBe(100);
  });
});
