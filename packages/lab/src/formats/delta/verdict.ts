/**
 * The oracle for a Delta run: commit order from the log, replays on fresh copies of the base table, and
 * comparisons over the files the two tables do not share. Its copies live beside the run's table and are
 * removed whatever happens.
 */
import { DeltaTable } from '@racelab/engine';
import { diffTables, type FiguresCache, sameTables } from '../../oracle/compare';
import type { VerdictMemo } from '../../oracle/memo';
import { type EngineOracle, serialReplayVerdict } from '../../oracle/serial-replay';
import { lostCommitWords } from '../../oracle/summary-text';
import { writerChanges } from '../../oracle/writer-changes';
import type { RunVerdict, WriterResult } from '../../results/types';
import { removeTable } from '../../tables/table-store';
import { commitOrderOf, type Replayed, type ReplayInput, replayInputs, replaySerial } from './replay';

export interface DeltaVerdictInput extends ReplayInput {
  /** The raced table, after its writers finished. */
  raced: string;
  results: WriterResult[];
  /** Writer names in log order (version 1 first). */
  logOrder: string[];
  /** A new folder for the oracle's i-th copy (without a memo). */
  copyDir: (i: number) => string;
  /** Serial results kept across the case's runs (see memo.ts). */
  memo?: VerdictMemo;
}

export async function deltaVerdict(input: DeltaVerdictInput): Promise<RunVerdict> {
  const started = Date.now();
  const raced = await DeltaTable.open(input.raced);
  const order = commitOrderOf(input.results, input.logOrder);
  const logged = new Map(input.results.map((w) => [w.name, w.version] as const));
  // The raced table's figures, read once for every order tried (it does not change while it is judged).
  const racedFigures: FiguresCache = new Map();
  const oracle: EngineOracle<Replayed> = {
    reorderingAllowedBy: 'WriteSerializable',
    replay: (o, dir) => replaySerial(input, o, dir),
    removeCopy: removeTable,
    replayInputs: () => replayInputs(input),
    equal: (r, predicate) => sameTables(raced, r.table, predicate, { raced: racedFigures, serial: r.figures }),
    diff: (r) => diffTables(raced, r.table, undefined, { raced: racedFigures, serial: r.figures }),
    racedCount: (predicate) => raced.count(predicate),
    writerChanges: (serial, overall) =>
      writerChanges(
        raced,
        serial.table,
        order.map((name) => {
          const version = logged.get(name);
          const inLog = version !== null && version !== undefined && input.logOrder[version - 1] === name;
          const serialVersion = serial.versions.get(name);
          return {
            name,
            ...(inLog && { racedVersion: version }),
            ...(serialVersion !== undefined && { serialVersion }),
          };
        }),
        overall,
      ),
  };
  // What each committed writer reports, held against the log: a version can have one commit only.
  const reported = input.results.flatMap((w) =>
    w.committed && w.version !== null ? [{ name: w.name, version: w.version }] : [],
  );
  const lostCommits = lostCommitWords(reported, input.logOrder);
  return serialReplayVerdict(oracle, { ...input, order, started, ...(lostCommits.length > 0 && { lostCommits }) });
}
