/**
 * The oracle for an Iceberg run: commit order is the order of the writers' snapshot sequence numbers,
 * replays go into new catalogs beside the run's, and comparisons read the data files the two final
 * snapshots do not share (Iceberg never rewrites a data file: same path, same rows).
 */
import { rm } from 'node:fs/promises';
import { type IcebergDataFile, IcebergSqliteCatalog, openIcebergTable } from '@racelab/engine';
import {
  countRows,
  diffRows,
  type FiguresCache,
  parquetRows,
  type RowSource,
  sameRowsIn,
  unshared,
} from '../../oracle/compare';
import type { VerdictMemo } from '../../oracle/memo';
import { committedInOrder } from '../../oracle/orders';
import { type EngineOracle, serialReplayVerdict } from '../../oracle/serial-replay';
import { writerChange } from '../../oracle/writer-changes';
import type { RunVerdict, WriterResult } from '../../results/types';
import {
  type IcebergReplayed,
  type IcebergReplayInput,
  type IcebergState,
  icebergReplayInputs,
  icebergState,
  replayIceberg,
} from './replay';

export interface IcebergVerdictInput extends IcebergReplayInput {
  /** The raced table, after its writers finished. */
  raced: IcebergState;
  results: WriterResult[];
  /** A new folder for the oracle's i-th copy (without a memo). */
  copyDir: (i: number) => string;
  /** Serial results kept across the case's runs (see memo.ts). */
  memo?: VerdictMemo;
}

/** The raced table's state and commit order: writer names by their snapshots' sequence numbers. */
export async function racedIcebergState(catalogPath: string, table: string): Promise<IcebergState> {
  const catalog = await IcebergSqliteCatalog.open({ path: catalogPath });
  try {
    return await icebergState(await openIcebergTable(catalog, table));
  } finally {
    await catalog.close();
  }
}

export const icebergCommitOrder = (state: IcebergState): string[] =>
  [...state.commits].sort(([, a], [, b]) => a.sequenceNumber - b.sequenceNumber).map(([name]) => name);

export async function icebergVerdict(input: IcebergVerdictInput): Promise<RunVerdict> {
  const started = Date.now();
  const { raced } = input;
  // The starting snapshot's files are in every table compared, and lend their columns to an empty side.
  const schemaFile = raced.dataFiles[0]?.localPath;
  if (schemaFile === undefined) throw new Error(`${input.table} has no data files to compare`);
  const rowsOf = (files: IcebergDataFile[], where?: string) =>
    parquetRows(
      files.map((f) => f.localPath),
      schemaFile,
      where,
    );
  // Only the data files the two final snapshots do not share are read.
  const sides = (serial: IcebergReplayed, where?: string): [RowSource[], RowSource[]] => {
    const [r, s] = unshared(raced.dataFiles, serial.dataFiles, (f) => f.filePath);
    return [[rowsOf(r, where)], [rowsOf(s, where)]];
  };
  const order = committedInOrder(input.results, (w) => raced.commits.get(w.name)?.sequenceNumber);
  // The raced table's figures, read once for every order tried (it does not change while it is judged).
  const racedFigures: FiguresCache = new Map();
  const oracle: EngineOracle<IcebergReplayed> = {
    // Appends rebased on whatever landed first: what an Iceberg commit's retry does.
    reorderingAllowedBy: 'snapshot isolation',
    replay: (o, dir) => replayIceberg(input, o, dir),
    removeCopy: (dir) => rm(dir, { recursive: true, force: true }),
    replayInputs: () => icebergReplayInputs(input),
    equal: (serial, where) => sameRowsIn(...sides(serial, where), { raced: racedFigures, serial: serial.figures }),
    diff: (serial) => diffRows(...sides(serial), { raced: racedFigures, serial: serial.figures }),
    racedCount: (where) => countRows(rowsOf(raced.dataFiles, where)),
    writerChanges: async (serial, overall) => {
      const added = (state: IcebergState, name: string) => ({
        adds: [rowsOf(state.commits.get(name)?.added ?? [])],
        removes: [],
      });
      const out = [];
      for (const name of order) out.push(await writerChange(name, added(raced, name), added(serial, name), overall));
      return out;
    },
  };
  return serialReplayVerdict(oracle, { ...input, order, started });
}
