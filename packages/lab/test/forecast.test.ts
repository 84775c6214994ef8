/**
 * The conflict forecast on the lab's real base tables at scale 0.01. Each forecast is checked twice:
 * against what the data implies, counted here with DuckDB reading the Parquet files directly, and
 * against reality: both writers' changes prepared on one fresh copy, the first committed, then the
 * second, through the engine's real commit loop.
 */
import { join } from 'node:path';
import { CommitFailedError, DeltaTable, ExpressionError } from '@racelab/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FebDay, WriterOperation, WriterSpec } from '../src/cases/catalog';
import { dayPredicate, prepareChange, rowsFileOf } from '../src/cases/operations';
import type { Dataset } from '../src/data/index';
import { sqlString } from '../src/data/sql';
import { type ConflictForecast, ForecastError, forecastConflict } from '../src/forecast/conflict-forecast';
import type { BaseTables } from '../src/tables/base-tables';
import { freshCopy } from '../src/tables/fresh-copy';
import { query, smallBase, tempDir } from './helpers/small-base';

const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const DELETED_READ =
  "Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read.\nHelp: This transaction's query must be rerun to exclude the removed data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

const work = tempDir('forecast');
let dataset: Dataset;
let tables: BaseTables;
let copies = 0;

beforeAll(async () => {
  ({ dataset, tables } = await smallBase(work));
});

const writer = (name: string, operation: WriterOperation): WriterSpec => ({ name, operation });
const tipUpdate = (vendor: number) =>
  writer(`vendor${vendor}`, {
    kind: 'update',
    predicate: `VendorID = ${vendor}`,
    set: { tip_amount: 'tip_amount + 1' },
  });
const append = (day: FebDay, blind = false) => writer(`append-${day}`, { kind: 'append', day, blind });

interface Outcome {
  secondCommits: boolean;
  message: string | null;
  firstTouchesFiles: number;
  secondReadsFiles: number;
}

/** The race for real, in order: both prepare on version 0 of a fresh copy, the first commits, then the second. */
async function race(table: string, first: WriterSpec, second: WriterSpec): Promise<Outcome> {
  const [a, b] = [await DeltaTable.open(table), await DeltaTable.open(table)];
  const dayFile = (w: WriterSpec) => rowsFileOf(w.operation, (day) => dataset.february(day));
  const pa = (await prepareChange(a, first.operation, {}, dayFile(first), {})).prepared;
  const pb = (await prepareChange(b, second.operation, {}, dayFile(second), {})).prepared;
  const firstResult = await pa?.commit();
  const outcome = {
    firstTouchesFiles: firstResult?.filesRemoved ?? 0,
    secondReadsFiles: pb?.transaction?.reads.readFiles.size ?? 0,
  };
  try {
    await pb?.commit();
    return { ...outcome, secondCommits: true, message: null };
  } catch (e) {
    if (!(e instanceof CommitFailedError)) throw e;
    return { ...outcome, secondCommits: false, message: e.message };
  }
}

/** Forecasts on a fresh copy of a base table, then races on it and expects the same outcome. */
async function forecastAndRace(
  base: string,
  first: WriterSpec,
  second: WriterSpec,
  properties: Record<string, string> = {},
): Promise<ConflictForecast> {
  const table = join(work, `copy-${++copies}`);
  await freshCopy(base, table, { properties });
  const forecast = await forecastConflict({ table, first, second, dataset });
  const { secondCommits, message, firstTouchesFiles, secondReadsFiles } = forecast;
  expect({ secondCommits, message, firstTouchesFiles, secondReadsFiles }).toEqual(await race(table, first, second));
  // Races run delta-rs writers: the delta-rs line of the forecast by engine is the one raced here.
  expect(forecast.byEngine[0]).toMatchObject({ engine: 'delta-rs', commits: secondCommits, message, note: null });
  return forecast;
}

/** Per file of a base table: its VendorID min and max and whether it holds `vendor`, read from the files. */
async function vendorFiles(base: string, vendor: number): Promise<{ holds: boolean; lo: number; hi: number }[]> {
  const table = await DeltaTable.open(base);
  const files = table.activeFiles().map((f) => sqlString(join(base, f.path)));
  const rows = await query(
    `SELECT count(*) FILTER (WHERE VendorID = ${vendor}) > 0, min(VendorID), max(VendorID) FROM read_parquet([${files.join(', ')}], filename = true) GROUP BY filename`,
  );
  return (rows as [boolean, number, number][]).map(([holds, lo, hi]) => ({ holds, lo, hi }));
}

describe('updates of one vendor each (the lesson B1, B3, D1)', () => {
  it('B1 on the flat table: the second fails with "added new data"', async () => {
    const f = await forecastAndRace(tables.flat, tipUpdate(1), tipUpdate(2));
    expect(f).toMatchObject({ secondCommits: false, failedCheck: 'concurrentAppend', message: ADDED });
    expect(f.isolationLevel).toBe('Serializable');
    expect(f.firstTouchesFiles).toBe((await vendorFiles(tables.flat, 1)).filter((x) => x.holds).length);
    expect(f.nothingToCommit).toEqual([]);
  });

  it('B3 on the partitioned table: both commit', async () => {
    const f = await forecastAndRace(tables.partitioned, tipUpdate(1), tipUpdate(2));
    expect(f).toMatchObject({ secondCommits: true, failedCheck: null, message: null });
    expect(f.firstTouchesFiles).toBe(dataset.figures.partitionFiles[1]);
    expect(f.secondReadsFiles).toBe(dataset.figures.partitionFiles[2]);
  });

  it('VendorID 6 then VendorID 2 on the flat table: what the files holding a 6 imply', async () => {
    const holding6 = (await vendorFiles(tables.flat, 6)).filter((x) => x.holds);
    // The first rewrites the files holding a 6 into one spanning their VendorID range; 2 inside it fails the second.
    const lo = Math.min(...holding6.map((x) => x.lo));
    const hi = Math.max(...holding6.map((x) => x.hi));
    const fails = holding6.length > 0 && lo <= 2 && 2 <= hi;
    const f = await forecastAndRace(tables.flat, tipUpdate(6), tipUpdate(2));
    expect(f.firstTouchesFiles).toBe(holding6.length);
    expect(f).toMatchObject({ secondCommits: !fails, message: fails ? ADDED : null });
  });

  it('VendorID 6 then VendorID 7 on the flat table: both commit, as min/max alone could not tell', async () => {
    const files = await vendorFiles(tables.flat, 6);
    const holding6 = files.filter((x) => x.holds);
    // 7 reads only files whose max reaches 7; 6 rewrites files whose max stays below it.
    expect(holding6.length).toBeGreaterThan(0);
    expect(holding6.every((x) => x.hi < 7)).toBe(true);
    const f = await forecastAndRace(tables.flat, tipUpdate(6), tipUpdate(7));
    expect(f).toMatchObject({ secondCommits: true, firstTouchesFiles: holding6.length });
    expect(f.secondReadsFiles).toBe(files.filter((x) => x.hi >= 7).length);
  });

  it('an update matching no row commits nothing, so the other commits', async () => {
    const f = await forecastAndRace(tables.flat, tipUpdate(3), tipUpdate(2));
    expect(f).toMatchObject({ secondCommits: true, firstTouchesFiles: 0, nothingToCommit: ['vendor3'] });
  });
});

describe('appends, compaction and isolation levels', () => {
  it('two appends (A1): the second commits', async () => {
    const f = await forecastAndRace(tables.flat, append('2025-02-01'), append('2025-02-02'));
    expect(f).toMatchObject({ secondCommits: true, failedCheck: null, firstTouchesFiles: 0 });
  });

  it('an append then an update that read before it (I1): judged by the appended rows', async () => {
    const [[lo, hi]] = (await query(
      `SELECT min(VendorID), max(VendorID) FROM read_parquet(${sqlString(dataset.february('2025-02-01'))})`,
    )) as [[number, number]];
    const fails = lo <= 2 && 2 <= hi;
    const f = await forecastAndRace(tables.flat, append('2025-02-01'), tipUpdate(2));
    expect(f).toMatchObject({ secondCommits: !fails, message: fails ? ADDED : null });
  });

  it("an append of rows from a Parquet file (a table of one's own) is judged by the file's stats, as the race says", async () => {
    // February rows cannot match an update of early January: known stats let it commit, unknown ones would not.
    const fromFile = writer('feed', { kind: 'append', from: { file: dataset.february('2025-02-01') } });
    const early = writer('early', {
      kind: 'update',
      predicate: "tpep_pickup_datetime < TIMESTAMP '2025-01-10 00:00:00'",
      set: { tip_amount: 'tip_amount + 1' },
    });
    const f = await forecastAndRace(tables.flat, fromFile, early);
    expect(f).toMatchObject({ secondCommits: true, message: null });
  });

  it('on the partitioned table an append adds a file per partition: only vendors in the day conflict', async () => {
    const day = '2025-02-01';
    const inDay = new Map(
      (await query(`SELECT VendorID, count(*) FROM read_parquet(${sqlString(dataset.february(day))}) GROUP BY 1`)) as [
        number,
        number,
      ][],
    );
    for (const vendor of [2, 6]) {
      const f = await forecastAndRace(tables.partitioned, append(day), tipUpdate(vendor));
      expect(f.secondCommits).toBe(!inDay.has(vendor));
    }
    const compacted = await forecastAndRace(tables.partitioned, writer('compact', { kind: 'optimize' }), tipUpdate(6));
    // Compaction rewrites only partitions of two or more files; VendorID 6 has one.
    expect(dataset.figures.partitionFiles[6]).toBe(1);
    expect(compacted.secondCommits).toBe(true);
  });

  it('a blind append passes an update only under small-w writeSerializable (I5 vs I4)', async () => {
    const i5 = await forecastAndRace(tables.flat, append('2025-02-01', true), tipUpdate(2), {
      'delta.isolationLevel': 'writeSerializable',
    });
    expect(i5).toMatchObject({ isolationLevel: 'WriteSerializable', secondCommits: true });
    const i4 = await forecastAndRace(tables.flat, append('2025-02-01', true), tipUpdate(2), {
      'delta.isolationLevel': 'WriteSerializable',
    });
    expect(i4).toMatchObject({ isolationLevel: 'Serializable', secondCommits: false, message: ADDED });
    // Delta Spark and Databricks read capital W as WriteSerializable and honour the blind append (modelled).
    expect(i4.byEngine.map((e) => [e.engine, e.isolationLevel, e.commits])).toEqual([
      ['delta-rs', 'Serializable', false],
      ['delta-spark', 'WriteSerializable', true],
      ['databricks', 'WriteSerializable', true],
    ]);
  });

  it('compaction and an update: the second fails with the message its order implies (C2, C3)', async () => {
    const compact = writer('compact', { kind: 'optimize' });
    expect(await forecastAndRace(tables.flat, compact, tipUpdate(2))).toMatchObject({ message: ADDED });
    expect(await forecastAndRace(tables.flat, tipUpdate(2), compact)).toMatchObject({
      failedCheck: 'deleteRead',
      message: DELETED_READ,
    });
  });

  it('two check-then-append jobs (E1) both append; with the day already there, neither writes', async () => {
    const job = (name: string) => writer(name, { kind: 'check-then-append', day: '2025-02-14' });
    expect(await forecastAndRace(tables.flat, job('job1'), job('job2'))).toMatchObject({ secondCommits: true });
    const table = join(work, 'with-feb14');
    await freshCopy(tables.flat, table);
    const feb14 = dataset.february('2025-02-14');
    await (
      await prepareChange(await DeltaTable.open(table), append('2025-02-14').operation, {}, feb14, {})
    ).prepared?.commit();
    const [[there]] = (await query(
      `SELECT count(*) FROM read_parquet(${sqlString(dataset.february('2025-02-14'))}) WHERE ${dayPredicate('2025-02-14')}`,
    )) as [[number]];
    expect(there).toBeGreaterThan(0);
    const f = await forecastConflict({ table, first: job('job1'), second: job('job2'), dataset });
    expect(f.nothingToCommit).toEqual(['job1', 'job2']);
  });

  it('two overwrites of one day (E2): the second fails with "added new data"', async () => {
    const job = (name: string) => writer(name, { kind: 'overwrite-day', day: '2025-02-14' });
    expect(await forecastAndRace(tables.flat, job('job1'), job('job2'))).toMatchObject({ message: ADDED });
  });
});

describe('bad input', () => {
  it('a predicate naming an unknown column is refused, naming the column and the writer', async () => {
    const bad = writer('w', { kind: 'delete', predicate: 'fare_amout < 0' });
    const e = await forecastConflict({ table: tables.flat, first: tipUpdate(1), second: bad }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExpressionError);
    expect((e as Error).message).toMatch(/^writer 'w' predicate: unknown column 'fare_amout' at position 1/);
  });

  it('an update expression is validated against its column, and the day against the lab days', async () => {
    const badSet = writer('w', { kind: 'update', predicate: 'VendorID = 1', set: { tip_amount: "'x' + 1" } });
    await expect(forecastConflict({ table: tables.flat, first: badSet, second: tipUpdate(2) })).rejects.toThrow(
      /^writer 'w' set tip_amount: /,
    );
    const noColumn = writer('w', { kind: 'update', predicate: 'VendorID = 1', set: { tip: '1' } });
    await expect(forecastConflict({ table: tables.flat, first: noColumn, second: tipUpdate(2) })).rejects.toThrow(
      /unknown column 'tip'/,
    );
    const badDay = writer('w', { kind: 'append', day: '2025-02-30' as FebDay });
    await expect(forecastConflict({ table: tables.flat, first: badDay, second: tipUpdate(2) })).rejects.toThrow(
      ForecastError,
    );
  });
});
