/**
 * The lab's conflict forecast: the engine's one simulation (simulateConflict) on facts counted by
 * DuckDB over the table's Parquet. A writer's predicate is counted per file, so the files an update
 * rewrites are those holding a matching row (never guessed from min/max), and a February day's
 * append is described by the rows its data set file really holds, per partition, with the stats
 * delta-rs would record for them.
 */
import {
  type AppendedFile,
  type ConflictForecast,
  DeltaTable,
  ForecastError,
  factsNeeded,
  matchingFiles,
  parsePredicate,
  type SimulatedWriter,
  type SimulationFacts,
  simulateConflict,
  type WriterChange,
  withConnection,
  writerExpressionError,
} from '@racelab/engine';
import type { FebDay, WriterOperation, WriterSpec } from '../cases/catalog';
import { checkOf, dayPredicate } from '../cases/operations';
import { runnablePredicate, runnableUpdateValue } from '../data/expressions';
import { type Dataset, FEBRUARY_DAYS } from '../data/index';
import type { Conn } from '../data/sql';
import { appendedFiles } from '../tables/append-stats';
import { logicalFiles } from '../tables/logical-files';

export { type ConflictForecast, ForecastError } from '@racelab/engine';

export interface ForecastInput {
  /** The table, open at the snapshot both writers read, or a resolved location (see resolveTableLocation). */
  table: string | DeltaTable;
  first: WriterSpec;
  second: WriterSpec;
  /**
   * The data set whose February day files appends would write; without it, their stats are unknown. A writer's
   * `from: { file }` is read as given: callers pass only paths resolved under the roots (locationCase does).
   */
  dataset?: Dataset;
}

function checkedDay(writer: WriterSpec, day: unknown): FebDay {
  if (!FEBRUARY_DAYS.includes(day as FebDay)) {
    throw new ForecastError(
      `writer '${writer.name}': unknown day ${String(day)}; the days are ${FEBRUARY_DAYS.join(', ')}`,
    );
  }
  return day as FebDay;
}

/**
 * The rows file's name in the facts. Names are the facts' keys for appended rows, and other callers (the jobs
 * audit) name rows they know nothing of by the job's name: only a name with this prefix is ever read as a file.
 * A sample (`sample:N`) has no file until a race writes one, so its stats are unknown.
 */
const FILE_PREFIX = 'file:';

/**
 * The name the simulation's facts know a writer's new rows by: its February day, `file:` and the path of its
 * rows file (already resolved under the roots: see locationCase), or `sample:N`.
 */
function rowsName(writer: WriterSpec, op: WriterOperation): string {
  if ('from' in op) return 'file' in op.from ? `${FILE_PREFIX}${op.from.file}` : `sample:${op.from.sample}`;
  return checkedDay(writer, 'day' in op ? op.day : undefined);
}

/** A case's writer as the simulation knows it: new rows are named by their day, file or sample. */
export function simulatedWriter(spec: WriterSpec): SimulatedWriter {
  const op = spec.operation;
  const change: WriterChange = (() => {
    switch (op.kind) {
      case 'append':
        return { kind: 'append', rows: rowsName(spec, op), blind: op.blind === true };
      case 'check-then-append':
        return { kind: 'check-then-append', check: checkOf(op)?.predicate as string, rows: rowsName(spec, op) };
      case 'overwrite-day':
        return { kind: 'overwrite', predicate: dayPredicate(op.day), rows: rowsName(spec, op) };
      case 'overwrite':
        return { kind: 'overwrite', predicate: op.predicate, rows: rowsName(spec, op) };
      case 'command':
        throw new ForecastError(
          `writer ${spec.name} runs a job of its own: its change is its code's, not one to forecast`,
        );
      default:
        return op;
    }
  })();
  return {
    name: spec.name,
    change,
    ...(spec.maxCommitRetries !== undefined && { maxCommitRetries: spec.maxCommitRetries }),
    ...(spec.retryLoop !== undefined && { retryLoop: spec.retryLoop }),
  };
}

/** Each expression a writer brings must run in DuckDB (see expressions.ts); the error names the writer. */
async function checkRunnable(conn: Conn, table: DeltaTable, writer: SimulatedWriter): Promise<void> {
  const named = async (part: string, check: () => Promise<unknown>) => {
    try {
      await check();
    } catch (e) {
      throw writerExpressionError(writer.name, part, e);
    }
  };
  for (const p of factsNeeded([writer]).predicates) {
    await named('predicate', () => runnablePredicate(conn, p, table.schema));
  }
  const { change } = writer;
  for (const [col, text] of Object.entries(change.kind === 'update' ? change.set : {})) {
    await named(`set ${col}`, () => runnableUpdateValue(conn, text, table.schema, col));
  }
}

/**
 * The facts the writers' forecast needs about `table`, read from its data at the open snapshot:
 * rows matching each predicate per file, and, with a data set, what appending each day would add.
 */
export async function tableFacts(
  table: DeltaTable,
  writers: readonly SimulatedWriter[],
  dataset?: Dataset,
): Promise<SimulationFacts> {
  const { predicates, appends } = factsNeeded(writers);
  const counts = new Map<string, ReadonlyMap<string, number>>();
  const appended = new Map<string, AppendedFile[]>();
  await withConnection(async (conn) => {
    for (const w of writers) await checkRunnable(conn, table, w);
    for (const p of predicates) {
      const matched = await matchingFiles(conn, table, parsePredicate(p, table.schema));
      counts.set(p, new Map(matched.map((m) => [m.add.path, m.matched])));
    }
    for (const rows of appends) {
      // A day's rows are in the data set's file for it (unknown without a data set); any other name's are unknown.
      const file = FEBRUARY_DAYS.includes(rows as FebDay)
        ? dataset?.february(rows as FebDay)
        : rows.startsWith(FILE_PREFIX)
          ? rows.slice(FILE_PREFIX.length)
          : undefined;
      if (file !== undefined) appended.set(rows, await appendedFiles(conn, table, file));
    }
  });
  return {
    snapshot: {
      version: table.version,
      // Under logical names and net of deletion vectors, as the writers' predicates and the counts see them.
      files: logicalFiles(table),
      protocol: table.protocol,
      schema: table.schema,
      partitionColumns: table.partitionColumns,
      configuration: table.configuration,
    },
    matches: (p) => {
      const m = counts.get(p);
      if (!m) throw new ForecastError(`the predicate '${p}' was not counted on the table`);
      return m;
    },
    appended: (rows) => appended.get(rows) ?? null,
  };
}

/** Both writers read the table's latest version; the first commits; is the second's commit refused, and how? */
export async function forecastConflict(input: ForecastInput): Promise<ConflictForecast> {
  const table = typeof input.table === 'string' ? await DeltaTable.open(input.table) : input.table;
  const [first, second] = [simulatedWriter(input.first), simulatedWriter(input.second)];
  return simulateConflict({ facts: await tableFacts(table, [first, second], input.dataset), first, second });
}
