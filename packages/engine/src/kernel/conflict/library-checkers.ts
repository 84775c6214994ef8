/**
 * One way to ask "does the second writer's library refuse its commit?" for the three writer libraries
 * with a checker (writer-libraries.ts): delta-rs 1.6.x (measured: races run its writers), Delta Spark (a model,
 * measured against real Delta Spark runs of the lab's cases) and Databricks (modelled, not measured). The loser is
 * described once, in delta-rs's terms plus the few facts a Spark transaction records; each library reads `delta.isolationLevel` its own way. The winner's library has
 * already decided how its commit reads (`isBlindAppend`, `dataChange`).
 */

import type { Action, Add, Metadata } from '../delta/protocol/actions';
import { columnsOf, type Expr } from '../sql/index';
import { checkWinner, type TransactionReads, type WinningCommit } from './conflict-checker';
import { conflictError } from './errors';
import { effectiveIsolationLevel, ISOLATION_LEVEL_KEY, readIsolationLevel } from './isolation';
import {
  checkSparkConflicts,
  type SparkCheckOptions,
  type SparkConflictCheck,
  type SparkConflictKind,
  type SparkIsolation,
  type SparkReadFile,
  type SparkTransaction,
} from './spark-conflict-checker';
import type { CheckedLibrary } from './writer-libraries';

/**
 * The loser as the simulation builds it: delta-rs's view (`TransactionReads`), plus what a Spark
 * transaction records. From these the Spark model derives its own reads:
 * - a blind append records no read predicate and no read file;
 * - otherwise its one read predicate is the partition-only conjuncts of `readPredicate` (TRUE when
 *   there are none or no predicate at all: an overwrite, an unconditional DELETE, OPTIMIZE);
 * - its read files are `readFiles` (partition and stats pruning, as delta-rs computes them) when it
 *   has a predicate, else the files it removes (what OPTIMIZE compacts; every file for an overwrite);
 * - it read no app id (the simulated writers are not streaming sinks).
 */
export interface LibraryTransaction extends TransactionReads {
  /**
   * Whether the job reads nothing of the table (an INSERT without a subquery on it): Spark then
   * records no read and writes `isBlindAppend: true`, and the added-files check never fails it.
   */
  isBlindAppend: boolean;
  /** The read snapshot's partition columns (empty: unpartitioned, where Spark matches any added file). */
  partitionColumns: readonly string[];
  /**
   * The read snapshot's metaData, for Spark's metadata diff. Without it every winning metaData
   * other than an identity high-water-mark update counts as a change.
   */
  metadata?: Metadata;
}

export type LibraryConflictKind = SparkConflictKind;
export type LibraryConflictCheck = SparkConflictCheck;

/** A refusal, the same shape for every engine. */
export interface LibraryConflict {
  kind: LibraryConflictKind;
  check: LibraryConflictCheck;
  /** The checker's own text: delta-rs's conflict text, or Spark's exception message. */
  message: string;
  /** The whole text the writer's error carries (delta-rs prefixes `Failed to commit transaction: `). */
  error: string;
  /** null when the commit fails before meeting any winner (Spark: an unparseable isolation level). */
  winnerVersion: number | null;
  /** `CommitFailedError` (deltalake's Python class), or the Spark exception's class. */
  exceptionClass: string;
  /** Spark's error class, e.g. `DELTA_CONCURRENT_APPEND.WITHOUT_HINT`; null for delta-rs. */
  errorClass: string | null;
}

/**
 * `winner` null asks whether the commit fails with no concurrent commit at all; `configuration` is
 * the read snapshot's table properties.
 */
export type LibraryChecker = (
  loser: LibraryTransaction,
  winner: WinningCommit | null,
  configuration: Readonly<Record<string, string | null | undefined>>,
) => LibraryConflict | null;

/**
 * The level a Spark-modelled engine's commits use, taken from that engine's reading (isolation.ts), so a
 * forecast and /isolation never disagree: no level (a value the engine does not accept) fails every commit.
 */
const readingOf =
  (engine: Exclude<CheckedLibrary, 'delta-rs'>) =>
  (configuration: Readonly<Record<string, string | null | undefined>>): SparkIsolation => {
    const value = configuration[ISOLATION_LEVEL_KEY] ?? null;
    const { effective } = readIsolationLevel(value, engine);
    return effective ? { level: effective } : { invalid: value };
  };

/**
 * Databricks = the Delta Spark model with its default (WriteSerializable), and with the documented
 * rule that a concurrent protocol or metadata change fails every writer (OSS Spark resolves some).
 * What it does not model is `DATABRICKS_NOT_MODELLED`.
 */
const SPARK_OPTIONS: Readonly<Record<Exclude<CheckedLibrary, 'delta-rs'>, SparkCheckOptions>> = {
  'delta-spark': { readLevel: readingOf('delta-spark'), tableChanges: 'resolve' },
  databricks: { readLevel: readingOf('databricks'), tableChanges: 'failAll' },
};

/** What the Databricks forecast leaves out, each with the documentation it follows. */
export const DATABRICKS_NOT_MODELLED: readonly { what: string; docs: string }[] = [
  {
    what: 'Row-level concurrency (unpartitioned tables with deletion vectors, DBR 14.2+): writers touching different rows of one file do not conflict there; the model judges whole files, so it is pessimistic.',
    docs: 'https://docs.databricks.com/aws/en/optimizations/isolation/row-level-concurrency',
  },
  {
    what: 'OPTIMIZE without ZORDER BY against UPDATE/DELETE/MERGE on tables with deletion vectors: documented as never conflicting; the model checks the files it compacts.',
    docs: 'https://docs.databricks.com/aws/en/optimizations/isolation/row-level-concurrency',
  },
  {
    what: 'Liquid clustering (clustering keys, row-level concurrency by default): a clustered table is an unpartitioned table to the model.',
    docs: 'https://learn.microsoft.com/en-ca/azure/databricks/delta/clustering',
  },
  {
    what: "Databricks' own error texts and codes: messages shown are Delta Spark's; only the exception class is Databricks' too.",
    docs: 'https://docs.databricks.com/aws/en/optimizations/isolation/isolation-levels',
  },
  {
    what: 'How Databricks parses delta.isolationLevel (closed source): Delta Spark reading is assumed (case-insensitive).',
    docs: 'https://docs.databricks.com/aws/en/optimizations/isolation/isolation-levels',
  },
  {
    what: 'Photon and runtime-version gates, Unity Catalog managed commits, predictive optimization running OPTIMIZE in the background.',
    docs: 'https://docs.databricks.com/aws/en/optimizations/isolation/index.md',
  },
];

/** The conjuncts of `predicate` that name only partition columns, ANDed; null (TRUE) when none do. */
export function partitionPart(predicate: Expr, partitionColumns: readonly string[]): Expr | null {
  const conjuncts = predicate.kind === 'logical' && predicate.op === 'AND' ? predicate.operands : [predicate];
  const kept = conjuncts.filter((c) => columnsOf(c).every((col) => partitionColumns.includes(col)));
  if (kept.length === 0) return null;
  if (kept.length === 1) return kept[0] ?? null;
  return { kind: 'logical', op: 'AND', operands: kept, sqlType: 'boolean', pos: predicate.pos };
}

const removedPaths = (actions: readonly Action[]) => actions.flatMap((a) => ('remove' in a ? [a.remove.path] : []));

/**
 * The Spark transaction the loser would be. A file's partition values never change, so a read
 * file's hint comes from whichever remove of it is at hand (the winner's or its own).
 */
export function sparkTransactionOf(
  loser: LibraryTransaction,
  configuration: Readonly<Record<string, string | null | undefined>>,
  winner: WinningCommit | null,
): SparkTransaction {
  const valuesByPath = new Map<string, Add['partitionValues'] | null | undefined>();
  for (const a of [...(winner?.actions ?? []), ...loser.actions]) {
    if ('remove' in a) valuesByPath.set(a.remove.path, a.remove.partitionValues);
  }
  const readFile = (path: string): SparkReadFile => ({ path, partitionValues: valuesByPath.get(path) ?? null });
  const properties: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(configuration)) if (value !== undefined) properties[key] = value;
  const metadata: Metadata = {
    ...(loser.metadata ?? { id: '', format: { provider: 'parquet', options: {} }, schemaString: '' }),
    partitionColumns: [...loser.partitionColumns],
    configuration: properties,
  };
  return {
    protocol: loser.protocol,
    metadata,
    readPredicates: loser.isBlindAppend
      ? []
      : [loser.readPredicate && partitionPart(loser.readPredicate, loser.partitionColumns)],
    readFiles: loser.isBlindAppend
      ? []
      : (loser.readPredicate ? [...loser.readFiles] : removedPaths(loser.actions)).map(readFile),
    readWholeTable: loser.readWholeTable,
    readAppIds: [],
    actions: loser.actions.filter((a) => !('commitInfo' in a)),
    operation: loser.operation ?? 'WRITE',
    operationChangesData: loser.operationChangesData,
  };
}

/**
 * Spark's OPTIMIZE retries on the latest snapshot after any conflict with a winner, as long as every
 * file it compacts is still there and the partition columns did not change (`OptimizeTableCommand`).
 */
function optimizeSurvives(loser: LibraryTransaction, winner: WinningCommit): boolean {
  const compacted = new Set(removedPaths(loser.actions));
  return winner.actions.every(
    (a) =>
      !('remove' in a && compacted.has(a.remove.path)) &&
      !('metaData' in a && a.metaData.partitionColumns.join('\u0000') !== loser.partitionColumns.join('\u0000')),
  );
}

function sparkChecker(options: SparkCheckOptions): LibraryChecker {
  return (loser, winner, configuration) => {
    const txn = sparkTransactionOf(loser, configuration, winner);
    const c = checkSparkConflicts(txn, winner ? [winner] : [], options);
    if (!c) return null;
    if (winner && c.winnerVersion !== null && loser.operation === 'OPTIMIZE' && optimizeSurvives(loser, winner)) {
      return null;
    }
    return { ...c, error: c.message };
  };
}

const deltaRsChecker: LibraryChecker = (loser, winner, configuration) => {
  const c = winner && checkWinner(loser, winner, effectiveIsolationLevel(configuration));
  return (
    c && {
      ...c,
      error: conflictError(c).message,
      exceptionClass: 'CommitFailedError',
      errorClass: null,
    }
  );
};

/** The checker of `engine`, behind the one signature every forecast calls. */
export function checkerFor(library: CheckedLibrary): LibraryChecker {
  return library === 'delta-rs' ? deltaRsChecker : sparkChecker(SPARK_OPTIONS[library]);
}
