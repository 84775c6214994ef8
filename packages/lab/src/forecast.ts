/**
 * The conflict forecast for two writers on one table: both read the latest version, the first
 * commits, and the engine's pure checker judges the second. The first writer's commit is simulated
 * from the data, never guessed from min/max (DESIGN.md): the files an update rewrites are those
 * DuckDB finds a matching row in, and an append's new file carries the stats of the rows it writes.
 * Like the engine, each writer's commit is built per partition (and per compaction bin), so a
 * forecast on a partitioned table sees the files a real commit would add.
 */
import {
  type CommitPiece,
  type ConflictCheck,
  checkWinner,
  compactionBins,
  conflictError,
  DeltaTable,
  type Expr,
  ExpressionError,
  effectiveIsolationLevel,
  type IsolationLevel,
  matchingFiles,
  parsePredicate,
  partitionGroups,
  resolveColumn,
  type SimulatedCommit,
  type SimulatedOperation,
  simulatePieces,
  targetFileSize,
  withConnection,
} from '@racelab/engine';
import type { FebDay, WriterOperation, WriterSpec } from './cases/catalog';
import { type Dataset, FEBRUARY_DAYS } from './data/index';
import type { Conn } from './data/sql';
import { runnablePredicate, runnableUpdateValue } from './expressions';
import { dayPredicate } from './runner/operations';
import { appendedFiles } from './tables/append-stats';

export interface ForecastInput {
  /** The table, open at the snapshot both writers read, or a resolved location (see resolveTableLocation). */
  table: string | DeltaTable;
  first: WriterSpec;
  second: WriterSpec;
  /** The data set whose February day files appends would write; without it, their stats are unknown. */
  dataset?: Dataset;
}

export interface ConflictForecast {
  /** False only when the second writer's commit fails; a writer with nothing to commit does not fail. */
  secondCommits: boolean;
  /** The checker's step that failed the second writer, e.g. 'concurrentAppend'. */
  failedCheck: ConflictCheck | null;
  /** The CommitFailedError text the second writer would get, byte for byte. */
  message: string | null;
  isolationLevel: IsolationLevel;
  /** Files the first writer's commit removes (rewrites or compacts). */
  firstTouchesFiles: number;
  /** Files of the read snapshot the second writer's predicate could see. */
  secondReadsFiles: number;
  /** Writers whose change would find nothing to do (no matching row, nothing to compact, the day already there). */
  nothingToCommit: string[];
}

export class ForecastError extends Error {
  override name = 'ForecastError';
}

/** The whole commit from its parts, on the table's snapshot (see the engine's simulatePieces). */
const assemble = (table: DeltaTable, main: SimulatedOperation, pieces: readonly CommitPiece[], tag: string) =>
  simulatePieces(table.activeFiles(), table.protocol, main, pieces, tag);

function checkedDay(writer: WriterSpec, day: unknown): FebDay {
  if (!FEBRUARY_DAYS.includes(day as FebDay)) {
    throw new ForecastError(
      `writer '${writer.name}': unknown day ${String(day)}; the days are ${FEBRUARY_DAYS.join(', ')}`,
    );
  }
  return day as FebDay;
}

/** User text made runnable (see expressions.ts); the message names the writer as well as the problem. */
async function runnable<T>(writer: WriterSpec, what: string, parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (e) {
    if (e instanceof ExpressionError) {
      throw new ExpressionError(`writer '${writer.name}' ${what}: ${e.message}`, e.position);
    }
    throw e;
  }
}

async function matchesOf(conn: Conn, table: DeltaTable, predicate: Expr): Promise<Map<string, number>> {
  return new Map((await matchingFiles(conn, table, predicate)).map((m) => [m.add.path, m.matched]));
}

async function appendPieces(
  conn: Conn,
  table: DeltaTable,
  day: FebDay,
  blind: boolean,
  dataset: Dataset | undefined,
): Promise<CommitPiece[]> {
  if (!dataset) return [{ files: [], op: { kind: 'append', blind } }];
  const written = await appendedFiles(conn, table, dataset.february(day));
  return written.map((w) => ({ files: [], op: { kind: 'append', blind, ...w } }));
}

/** `predicate` rewrites: one piece per partition, as the engine writes the surviving rows. */
function rewritePieces(table: DeltaTable, op: SimulatedOperation): CommitPiece[] {
  return partitionGroups(table.activeFiles()).map((files) => ({ files, op }));
}

/** The commit `writer` would make on `table`, or null when it would find nothing to commit. */
async function simulateWriter(
  conn: Conn,
  table: DeltaTable,
  writer: WriterSpec,
  tag: string,
  dataset: Dataset | undefined,
): Promise<SimulatedCommit | null> {
  const op: WriterOperation = writer.operation;
  switch (op.kind) {
    case 'append':
    case 'check-then-append': {
      const day = checkedDay(writer, op.day);
      if (op.kind === 'check-then-append') {
        // The job's own count before it writes: trips already there mean it appends nothing.
        const there = await matchesOf(conn, table, parsePredicate(dayPredicate(day), table.schema));
        if ([...there.values()].some((n) => n > 0)) return null;
      }
      const pieces = await appendPieces(conn, table, day, op.kind === 'append' && op.blind === true, dataset);
      return pieces[0] ? assemble(table, pieces[0].op, pieces, tag) : null;
    }
    case 'update':
    case 'delete': {
      const predicate = await runnable(writer, 'predicate', () => runnablePredicate(conn, op.predicate, table.schema));
      const updatedColumns: string[] = [];
      for (const [col, text] of Object.entries(op.kind === 'update' ? op.set : {})) {
        await runnable(writer, `set ${col}`, () => runnableUpdateValue(conn, text, table.schema, col));
        updatedColumns.push(resolveColumn(table.schema, col).name);
      }
      if (op.kind === 'update' && updatedColumns.length === 0) {
        throw new ForecastError(`writer '${writer.name}': an update needs at least one column to set`);
      }
      const matches = await matchesOf(conn, table, predicate);
      // The engine commits nothing when no row matches.
      if (matches.size === 0) return null;
      const sim: SimulatedOperation = { kind: op.kind, predicate, matches, updatedColumns };
      return assemble(table, sim, rewritePieces(table, sim), tag);
    }
    case 'overwrite-day': {
      const day = checkedDay(writer, op.day);
      const predicate = parsePredicate(dayPredicate(day), table.schema);
      const sim: SimulatedOperation = {
        kind: 'overwrite',
        predicate,
        matches: await matchesOf(conn, table, predicate),
      };
      const pieces = [...rewritePieces(table, sim), ...(await appendPieces(conn, table, day, false, dataset))];
      return assemble(table, sim, pieces, tag);
    }
    case 'optimize': {
      const targetSize = targetFileSize(table.configuration);
      const bins = compactionBins(table.activeFiles(), targetSize);
      if (bins.length === 0) return null;
      const sim: SimulatedOperation = { kind: 'optimize', targetSize };
      return assemble(
        table,
        sim,
        bins.map((files) => ({ files, op: sim })),
        tag,
      );
    }
    default:
      throw new ForecastError(`writer '${writer.name}': unknown operation ${JSON.stringify(op)}`);
  }
}

/** Both writers read the table's latest version; the first commits; is the second's commit refused, and how? */
export async function forecastConflict(input: ForecastInput): Promise<ConflictForecast> {
  const table = typeof input.table === 'string' ? await DeltaTable.open(input.table) : input.table;
  const level = effectiveIsolationLevel(table.configuration);
  const [first, second] = await withConnection(async (conn) => [
    await simulateWriter(conn, table, input.first, 'first', input.dataset),
    await simulateWriter(conn, table, input.second, 'second', input.dataset),
  ]);
  const conflict =
    first && second ? checkWinner(second.reads, { version: table.version + 1, actions: first.actions }, level) : null;
  return {
    secondCommits: conflict === null,
    failedCheck: conflict?.check ?? null,
    message: conflict ? conflictError(conflict).message : null,
    isolationLevel: level,
    firstTouchesFiles: first?.actions.filter((a) => 'remove' in a).length ?? 0,
    secondReadsFiles: second?.reads.readFiles.size ?? 0,
    nothingToCommit: [...(first ? [] : [input.first.name]), ...(second ? [] : [input.second.name])],
  };
}
