/**
 * Races of a user's own making: writers given as plain fields (from the API or a file) become a
 * DeltaCase on one of the lab's base tables or on a table of the user's own (`location`, resolved
 * and opened by locationCase), or a refusal listing every problem at once. The race
 * input's schema (@racelab/contracts) checks the fields and parses every predicate and update
 * expression against the base tables' schema (stage 1, customCase), and runnableCustomCase has
 * DuckDB run each on a row of it (stage 2), so text that would not parse or run never reaches a
 * queue or a worker.
 */
import { type CustomRace, type CustomRaceInput, checkCustomRace } from '@racelab/contracts';
import { duckToDeltaType, ExpressionError, field, type StructType, withConnection } from '@racelab/engine';
import { runnablePredicate, runnableUpdateValue } from '../data/expressions';
import { DATASET_COLUMNS } from '../data/schema';
import type { DeltaCase, FebDay, RowsFrom, TableAt, WriterOperation, WriterSpec } from './catalog';

export type { CustomWriterInput } from '@racelab/contracts';
export { FEB_DAYS, MAX_WRITERS, propertyProblems } from '@racelab/contracts';
export type CustomCaseInput = CustomRaceInput;

export class CaseInputError extends Error {
  override name = 'CaseInputError';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

let schema: StructType | null = null;
/** The base tables' schema (January's columns plus trip_id), as the engine sees the Delta table. */
export function labTableSchema(): StructType {
  schema ??= { type: 'struct', fields: DATASET_COLUMNS.map((c) => field(c.name, duckToDeltaType(c.type))) };
  return schema;
}

type CheckedWriter = CustomRace['writers'][number];

/**
 * Where a writer of a table of one's own takes its rows. A file is kept as given: locationCase resolves it
 * through the roots before anything runs.
 */
const rowsFrom = (w: CheckedWriter): RowsFrom =>
  w.sourceLocation != null ? { file: w.sourceLocation } : { sample: w.sample as number };

/** A checked writer's operation as the lab runs it (the contract's rules guarantee the fields it reads). */
function operationOf(w: CheckedWriter): WriterOperation {
  // Checked later against LAB_JOB_ROOTS (job-roots.ts), once the paths can be resolved.
  if (w.command != null) return { kind: 'command', command: w.command, ...(w.cwd != null && { cwd: w.cwd }) };
  const day = w.day as FebDay;
  // The rules give an operation that adds rows exactly one of a day (lab tables) or a source (any other).
  const fromDay = w.day != null;
  switch (w.operation) {
    case 'append': {
      const blind = w.blindAppend === true && { blind: true };
      return fromDay ? { kind: 'append', day, ...blind } : { kind: 'append', from: rowsFrom(w), ...blind };
    }
    case 'update':
      return { kind: 'update', predicate: w.predicate as string, set: w.set ?? {} };
    case 'delete':
      return { kind: 'delete', predicate: w.predicate as string };
    case 'overwrite':
      return fromDay
        ? { kind: 'overwrite-day', day }
        : { kind: 'overwrite', predicate: w.predicate as string, from: rowsFrom(w) };
    case 'check-then-append':
      return fromDay
        ? { kind: 'check-then-append', day }
        : { kind: 'check-then-append', predicate: w.predicate as string, from: rowsFrom(w) };
    default:
      // optimize: the rules let no other operation through.
      return { kind: 'optimize' };
  }
}

/** How a title names the table: "the flat table", or a table of one's own as the user named it. */
const tableTitle = (table: DeltaCase['table']) => (typeof table === 'string' ? `the ${table} table` : table.display);

/**
 * `schema`: the table the writers will act on (default: the lab's base tables). A race on a table of one's own
 * (`input.location`) names it `at` once resolved (locationCase); until then, as given.
 */
export function customCase(input: CustomCaseInput, schema: StructType = labTableSchema(), at?: TableAt): DeltaCase {
  const checked = checkCustomRace(input, { tableSchema: schema });
  if (!checked.ok) throw new CaseInputError(checked.problems);
  const { location, properties } = checked.value;
  const table: DeltaCase['table'] =
    location === undefined ? checked.value.table : (at ?? { location, display: location });
  const writers: WriterSpec[] = checked.value.writers.map((w) => ({
    name: w.name,
    operation: operationOf(w),
    ...(w.maxCommitRetries != null && { maxCommitRetries: w.maxCommitRetries }),
    ...(w.retryLoopAttempts != null && { retryLoop: w.retryLoopAttempts }),
    ...(w.startAfter != null && { startAfter: w.startAfter }),
  }));
  const names = writers.map((w) => `${w.name} (${w.operation.kind})`).join(' ‖ ');
  return {
    id: 'custom',
    title: `custom race on ${tableTitle(table)}: ${names}`,
    format: 'delta',
    table,
    ...(Object.keys(properties).length > 0 && { properties }),
    writers,
  };
}

/**
 * A custom race whose every predicate and update value DuckDB can also run on the table: what a
 * race is started with, so no writer fails on an expression that could never run (see expressions.ts).
 */
export async function runnableCustomCase(
  input: CustomCaseInput,
  schema: StructType = labTableSchema(),
  at?: TableAt,
): Promise<DeltaCase> {
  const c = customCase(input, schema, at);
  const problems: string[] = [];
  await withConnection(async (conn) => {
    const check = async (what: string, run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        problems.push(`${what}: ${e.message}`);
      }
    };
    for (const { name, operation: op } of c.writers) {
      // Every operation with a predicate: update, delete, and on a table of one's own overwrite and check-then-append.
      if (!('predicate' in op)) continue;
      await check(`writer ${name}: predicate`, () => runnablePredicate(conn, op.predicate, schema));
      if (op.kind !== 'update') continue;
      for (const [column, value] of Object.entries(op.set)) {
        await check(`writer ${name}: set ${column}`, () => runnableUpdateValue(conn, value, schema, column));
      }
    }
  });
  if (problems.length > 0) throw new CaseInputError(problems);
  return c;
}
