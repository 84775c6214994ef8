/**
 * The oracle's steps, whatever the engine: replay the committed writers in commit order and compare;
 * failing that, with at most 4 committed writers, every other order; then what differs, per writer, and
 * what the failed writers left as it was. An engine supplies the replays and the comparisons.
 */
import { nothingToCommitSummary, writerOutcomeOf } from '@racelab/contracts';
import type { WriterOperation, WriterSpec } from '../cases/catalog';
import type { RunVerdict, VerdictWriter, WriterResult } from '../results/types';
import type { RowDiff } from './compare';
import { checkFailedWriters } from './failed-writers';
import type { VerdictMemo } from './memo';
import { otherOrders } from './orders';
import { notSerializableSummary, orderLabels, reorderedSummary, SERIALIZABLE_SUMMARY } from './summary-text';

export interface SerialResult {
  /** Replayed commits that failed, in words: with nobody racing, a finding in itself. */
  failures: string[];
}

export interface EngineOracle<S extends SerialResult> {
  /** Replays `order` (writer names) on a fresh copy of the run's starting table, made in `dir` (a new folder). */
  replay(order: string[], dir: string): Promise<S>;
  /** Removes a copy the oracle made. */
  removeCopy(dir: string): Promise<void>;
  /**
   * Everything a replay depends on but its order, as a key for the memo (asked only when there is one): equal
   * keys and orders must give the same serial result.
   */
  replayInputs(): Promise<string>;
  /** Whether the raced table holds the rows of a serial result (only those matching `predicate`, when given). */
  equal(serial: S, predicate?: string): Promise<boolean>;
  /** What differs between the raced table and a serial result: asked only when no order explains the run. */
  diff(serial: S): Promise<RowDiff>;
  /** The raced table's rows matching `predicate` (all of them without one). */
  racedCount(predicate?: string): Promise<number>;
  /** Per committed writer, its change in the race against its change in the commit-order replay. */
  writerChanges(serial: S, overall: RowDiff): Promise<VerdictWriter[]>;
  /** What permits a serial order other than commit order ("WriteSerializable"). */
  reorderingAllowedBy: string;
}

export interface OracleRun {
  /** The committed writers in the order their commits became visible. */
  order: string[];
  writers: WriterSpec[];
  results: WriterResult[];
  /** The Parquet file of the rows a writer adds (see rowsFileOf); undefined for writers that add none. */
  rowsFile: (op: WriterOperation) => string | undefined;
  /** A new folder for the oracle's i-th copy without a memo; every such copy is removed before the verdict returns. */
  copyDir: (i: number) => string;
  /** When the oracle started (Date.now()), for oracleMs. */
  started: number;
  /** Commits writers report that the table does not hold, in words (see lostCommitWords); said after the summary. */
  lostCommits?: string[];
  /** Serial results kept across the case's runs (see memo.ts); without it every replay is made and removed here. */
  memo?: VerdictMemo;
}

export async function serialReplayVerdict<S extends SerialResult>(
  oracle: EngineOracle<S>,
  run: OracleRun,
): Promise<RunVerdict> {
  if (run.memo) {
    const session = run.memo.session();
    let inputs: Promise<string> | undefined;
    const replay = async (order: string[]) => {
      inputs ??= oracle.replayInputs();
      const key = `${await inputs}\u0000${JSON.stringify(order)}`;
      return session.replay(
        key,
        (dir) => oracle.replay(order, dir),
        (dir) => oracle.removeCopy(dir),
      );
    };
    try {
      // A kept copy stays for the case's later runs, whether or not its order matched here.
      return await verdictFrom(oracle, run, replay, async () => {});
    } finally {
      await session.end();
    }
  }
  const dirs: string[] = [];
  const replay = (order: string[]) => {
    const dir = run.copyDir(dirs.length);
    dirs.push(dir);
    return oracle.replay(order, dir);
  };
  try {
    return await verdictFrom(oracle, run, replay, () => oracle.removeCopy(dirs.at(-1) as string));
  } finally {
    for (const dir of dirs) await oracle.removeCopy(dir);
  }
}

async function verdictFrom<S extends SerialResult>(
  oracle: EngineOracle<S>,
  run: OracleRun,
  replay: (order: string[]) => Promise<S>,
  discardLast: () => Promise<void>,
): Promise<RunVerdict> {
  const { order } = run;
  const serial = await replay(order);
  let match: { status: 'serializable' | 'reordered'; order: string[]; replay: S } | null = (await oracle.equal(serial))
    ? { status: 'serializable', order, replay: serial }
    : null;
  if (!match) {
    // A replay depends on the writers' operations only: names just tag the commits.
    const operationOf = (name: string) => JSON.stringify(run.writers.find((w) => w.name === name)?.operation);
    for (const other of otherOrders(order, operationOf)) {
      const r = await replay(other);
      if (await oracle.equal(r)) {
        match = { status: 'reordered', order: other, replay: r };
        break;
      }
      // Not needed any more: its copy goes now rather than with the others at the end.
      await discardLast();
    }
  }
  const against = match?.replay ?? serial;
  // A writer with nothing to commit ended without an error and wrote nothing: no failure to check.
  const outcomeOf = (name: string) => {
    const r = run.results.find((x) => x.name === name);
    return r ? writerOutcomeOf(r) : null;
  };
  const nothing = run.results
    .filter((r) => writerOutcomeOf(r) === 'nothing-to-commit')
    .map((r) => ({ name: r.name, summary: nothingToCommitSummary(r.name, r.operation) }));
  const failedWriters = await checkFailedWriters(
    run.writers.filter((w) => outcomeOf(w.name) === 'failed'),
    { racedCount: (predicate) => oracle.racedCount(predicate), equal: (predicate) => oracle.equal(against, predicate) },
    match !== null,
    run.rowsFile,
  );
  const said = (summary: string) => [summary, ...(run.lostCommits ?? []), ...against.failures].join('; ');
  const oracleMs = () => Date.now() - run.started;
  const writersAside = { failedWriters, ...(nothing.length > 0 && { nothingToCommit: nothing }) };
  if (match?.status === 'serializable') {
    return {
      status: 'serializable',
      order,
      summary: said(SERIALIZABLE_SUMMARY),
      ...writersAside,
      oracleMs: oracleMs(),
    };
  }
  if (match) {
    const labels = orderLabels(match.order, run.writers);
    return {
      status: 'reordered',
      order: match.order,
      summary: said(reorderedSummary(labels, oracle.reorderingAllowedBy)),
      ...writersAside,
      oracleMs: oracleMs(),
    };
  }
  const diff = await oracle.diff(serial);
  const counts = { rowsDuplicated: diff.duplicated, rowsMissing: diff.missing, rowsExtra: diff.extra };
  const writers = await oracle.writerChanges(serial, diff);
  return {
    status: 'not-serializable',
    order,
    summary: said(notSerializableSummary(counts)),
    ...counts,
    writers,
    examples: diff.examples,
    ...writersAside,
    oracleMs: oracleMs(),
  };
}
