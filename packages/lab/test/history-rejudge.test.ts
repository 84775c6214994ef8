/**
 * Re-judging from the log against what the engine does: each pair of writers is raced by the engine on a fresh
 * table under each isolation level (both read version 1, FIRST commits, SECOND commits or is refused); the log of
 * a run where SECOND landed (or, refused everywhere, was forced into the log unchecked) is read back and SECOND
 * re-judged. delta-rs's verdict at each level must be what the
 * race measured at that level, and the Spark models must say what Delta Spark documents for the pair.
 */
import { join } from 'node:path';
import {
  buildCommitInfo,
  camelCaseSpelling,
  commit,
  DeltaTable,
  field,
  ISOLATION_LEVELS,
  type IsolationLevel,
  type PreparedOperation,
  prepareUpdate,
  prepareWrite,
  type StructType,
  type Transaction,
  writeDeltaTable,
} from '@racelab/engine';
import { describe, expect, it } from 'vitest';
import { rejudge } from '../src/audit/history/rejudge';
import { commitAt, rejudgeContext } from './helpers/history-commits';
import { tempDir } from './helpers/small-base';

const work = tempDir('history-rejudge');
const SCHEMA: StructType = { type: 'struct', fields: [field('id', 'long'), field('VendorID', 'integer')] };
const rows = (from: number) => [0, 1, 2].map((i) => ({ id: from + i, VendorID: 1 }));

type Writer = (table: DeltaTable) => Promise<PreparedOperation | null>;
const append =
  (from: number, claimsBlind = false): Writer =>
  (table) =>
    prepareWrite(
      table,
      { kind: 'rows', schema: SCHEMA, rows: rows(from) },
      { mode: 'append', ...(claimsBlind && { customMetadata: { isBlindAppend: true } }) },
    );
const updateWhere =
  (predicate: string): Writer =>
  (table) =>
    prepareUpdate(table, { predicate, set: { VendorID: '9' } });

let runs = 0;
/**
 * A table of two files (ids 0–2 and 10–12) at version 1 under `level`; both writers read it, FIRST commits, then
 * SECOND, which lands at version 3 checked, or, refused, unchecked.
 */
async function race(level: IsolationLevel, first: Writer, second: Writer) {
  const dir = join(work, `t${runs++}`);
  const data = { kind: 'rows' as const, schema: SCHEMA };
  await writeDeltaTable(
    dir,
    { ...data, rows: rows(0) },
    { configuration: { 'delta.isolationLevel': camelCaseSpelling(level) } },
  );
  await writeDeltaTable(dir, { ...data, rows: rows(10) }, { mode: 'append' });
  const read = await DeltaTable.open(dir);
  const [a, b] = [await first(read), await second(await DeltaTable.open(dir))];
  await a?.commit();
  const landed = await b?.commit().then(
    () => true,
    () => false,
  );
  // Refused: its commit is put in the log anyway, unchecked, as a writer that skips the check would leave it.
  if (b && !landed) await forced(b);
  return { dir, landed: landed === true };
}

/** SECOND's commit written at the next version without any conflict check, its readVersion recorded. */
async function forced(op: PreparedOperation) {
  const tx = op.transaction as Transaction;
  const { table, operation, operationParameters } = tx.spec;
  const info = buildCommitInfo({ operation, operationParameters, readVersion: table.version });
  await commit({ store: table.store, readVersion: table.version, actions: [{ commitInfo: info }, ...tx.actions] });
}

/** Which levels let SECOND land: Serializable, WriteSerializable, SnapshotIsolation. */
type Landed = [boolean, boolean, boolean];
const PAIRS: { name: string; first: Writer; second: Writer; deltaRs: Landed; deltaSpark: Landed }[] = [
  {
    name: 'an append claiming isBlindAppend, then an UPDATE of every row',
    first: append(100, true),
    second: updateWhere('id >= 0'),
    deltaRs: [false, true, true],
    deltaSpark: [false, true, true],
  },
  {
    // Spark reads any file added to an unpartitioned table as one its non-blind reader should have seen.
    name: 'two UPDATEs of different files',
    first: updateWhere('id = 1'),
    second: updateWhere('id = 11'),
    deltaRs: [true, true, true],
    deltaSpark: [false, false, true],
  },
  {
    name: 'an append, then an UPDATE of rows the append does not hold',
    first: append(100),
    second: updateWhere('id = 1'),
    deltaRs: [true, true, true],
    deltaSpark: [false, false, true],
  },
  {
    // Lesson B1: both rewrite the file holding id 1; every level refuses SECOND, so its commit is in the log only forced.
    name: 'two UPDATEs of the same row',
    first: updateWhere('id = 1'),
    second: updateWhere('id = 1'),
    deltaRs: [false, false, false],
    deltaSpark: [false, false, false],
  },
  {
    name: 'an append not claiming to be blind, then an UPDATE of every row',
    first: append(100),
    second: updateWhere('id >= 0'),
    deltaRs: [false, false, true],
    deltaSpark: [false, false, true],
  },
];

const byLevel = (landed: Landed) => Object.fromEntries(ISOLATION_LEVELS.map((l, i) => [l, landed[i]]));

describe('a landed concurrent commit re-judged from the log', () => {
  for (const pair of PAIRS) {
    it(`agrees with the engine at every level: ${pair.name}`, async () => {
      const measured = new Map<IsolationLevel, { dir: string; landed: boolean }>();
      for (const level of ISOLATION_LEVELS) measured.set(level, await race(level, pair.first, pair.second));
      // A run SECOND landed in, checked; else one where it was forced into the log.
      const run = [...measured].find(([, r]) => r.landed) ?? [...measured][0];
      const [level, { dir, landed }] = run as [IsolationLevel, { dir: string; landed: boolean }];
      const second = await commitAt(dir, 3, [2], 'recorded', camelCaseSpelling(level));
      const { rejudgements } = await rejudge(
        [await commitAt(dir, 2), second],
        await rejudgeContext(await DeltaTable.open(dir)),
      );
      const [judged] = rejudgements;
      expect(judged?.cannotJudge).toBeNull();
      expect(judged?.readVersion).toBe(1);
      const verdicts = (library: string) =>
        Object.fromEntries(
          judged?.judgements.filter((j) => j.library === library).map((j) => [j.level, j.outcome === 'commit']) ?? [],
        );
      // What the engine measured, what it re-judges, and what the pair is known to do: all three the same.
      expect(Object.fromEntries([...measured].map(([l, r]) => [l, r.landed]))).toEqual(byLevel(pair.deltaRs));
      expect(verdicts('delta-rs')).toEqual(byLevel(pair.deltaRs));
      expect(verdicts('delta-rs-legacy')).toEqual(byLevel(pair.deltaRs));
      expect(verdicts('delta-spark')).toEqual(byLevel(pair.deltaSpark));
      // Under the property it landed with, its own library lets it through, as the log shows; a forced commit not.
      expect(judged?.agreesWithLog).toBe(landed);
    });
  }
});
