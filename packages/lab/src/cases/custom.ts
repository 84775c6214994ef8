/**
 * Races of a user's own making: writers given as plain fields (from the API or a file) become a
 * DeltaCase on one of the lab's base tables, or a refusal listing every problem at once. Every
 * predicate and update expression is parsed by the engine against the base tables' schema here,
 * and (runnableCustomCase) run by DuckDB on a row of it, so text that would not parse or run never
 * reaches a queue or a worker.
 */
import {
  duckToDeltaType,
  ExpressionError,
  field,
  MAX_LENGTH,
  parsePredicate,
  parseUpdateExpression,
  type StructType,
  withConnection,
} from '@racelab/engine';
import { DATASET_COLUMNS } from '../data/schema';
import { runnablePredicate, runnableUpdateValue } from '../expressions';
import type { DeltaCase, FebDay, LabCase, WriterOperation, WriterSpec } from './catalog';

export interface CustomWriterInput {
  name: string;
  /** append, update, delete, optimize, overwrite (the day's trips replaced), check-then-append */
  operation: string;
  predicate?: string | null;
  set?: Record<string, string> | null;
  day?: string | null;
  maxCommitRetries?: number | null;
  retryLoopAttempts?: number | null;
  blindAppend?: boolean | null;
  startAfter?: string | null;
}

export interface CustomCaseInput {
  table?: 'flat' | 'partitioned';
  properties?: Record<string, string>;
  writers: CustomWriterInput[];
}

export class CaseInputError extends Error {
  override name = 'CaseInputError';
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

export const FEB_DAYS: readonly FebDay[] = ['2025-02-01', '2025-02-02', '2025-02-14'];
export const MAX_WRITERS = 8;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const OPERATIONS = ['append', 'update', 'delete', 'optimize', 'overwrite', 'check-then-append'] as const;
const DAY_OPERATIONS = new Set(['append', 'overwrite', 'check-then-append']);
const MAX_SET_COLUMNS = 20;
const MAX_PROPERTIES = 20;

/**
 * Table properties a race may set on its copy. The isolation level takes any text on purpose: how
 * an engine reads a misspelt value is what the lab is for. The rest are read as delta-rs reads them.
 */
const PROPERTY_RULES: Record<string, (v: string) => boolean> = {
  'delta.isolationLevel': (v) => v.length <= 64,
  'delta.appendOnly': (v) => v === 'true' || v === 'false',
  'delta.checkpointInterval': (v) => /^\d{1,6}$/.test(v),
  'delta.targetFileSize': (v) => /^\d{1,12}$/.test(v),
};

let schema: StructType | null = null;
/** The base tables' schema (January's columns plus trip_id), as the engine sees the Delta table. */
export function labTableSchema(): StructType {
  schema ??= { type: 'struct', fields: DATASET_COLUMNS.map((c) => field(c.name, duckToDeltaType(c.type))) };
  return schema;
}

/** An ExpressionError as a problem of `what`; anything else is not the user's to fix. */
function problemOf(what: string, e: unknown): string {
  if (e instanceof ExpressionError) return `${what}: ${e.message}`;
  throw e;
}

function expressionProblem(what: string, check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (e) {
    return problemOf(what, e);
  }
}

function checkInt(problems: string[], what: string, v: number | null | undefined, min: number, max: number) {
  if (v == null) return;
  if (!Number.isInteger(v) || v < min || v > max) problems.push(`${what} must be a whole number from ${min} to ${max}`);
}

function operationOf(w: CustomWriterInput, s: StructType, problems: string[]): WriterOperation | null {
  const who = `writer ${w.name}`;
  const kind = w.operation as (typeof OPERATIONS)[number];
  if (!OPERATIONS.includes(kind)) {
    problems.push(`${who}: unknown operation '${w.operation}' (one of ${OPERATIONS.join(', ')})`);
    return null;
  }
  const day = w.day ?? null;
  if (DAY_OPERATIONS.has(kind) !== (day !== null)) {
    problems.push(
      DAY_OPERATIONS.has(kind)
        ? `${who}: ${kind} needs a day (${FEB_DAYS.join(', ')})`
        : `${who}: ${kind} takes no day`,
    );
    return null;
  }
  if (day !== null && !FEB_DAYS.includes(day as FebDay)) {
    problems.push(`${who}: day must be one of ${FEB_DAYS.join(', ')}, got '${day}'`);
    return null;
  }
  const needsPredicate = kind === 'update' || kind === 'delete';
  if (needsPredicate !== (w.predicate != null)) {
    problems.push(needsPredicate ? `${who}: ${kind} needs a predicate` : `${who}: ${kind} takes no predicate`);
    return null;
  }
  if ((kind === 'update') !== (w.set != null)) {
    problems.push(kind === 'update' ? `${who}: update needs set` : `${who}: ${kind} takes no set`);
    return null;
  }
  if (w.blindAppend != null && kind !== 'append') problems.push(`${who}: only an append can be marked blind`);
  if (w.predicate != null) {
    const p = expressionProblem(`${who}: predicate`, () => parsePredicate(w.predicate as string, s));
    if (p) problems.push(p);
  }
  const set = w.set ?? {};
  const columns = Object.keys(set);
  if (kind === 'update' && (columns.length === 0 || columns.length > MAX_SET_COLUMNS)) {
    problems.push(`${who}: set must name 1 to ${MAX_SET_COLUMNS} columns`);
  }
  for (const column of columns) {
    const value = set[column] as string;
    const p = expressionProblem(`${who}: set ${column}`, () => parseUpdateExpression(value, s, column));
    if (p) problems.push(p);
  }
  switch (kind) {
    case 'append':
      return { kind, day: day as FebDay, ...(w.blindAppend && { blind: true }) };
    case 'update':
      return { kind, predicate: w.predicate as string, set };
    case 'delete':
      return { kind, predicate: w.predicate as string };
    case 'optimize':
      return { kind };
    case 'overwrite':
      return { kind: 'overwrite-day', day: day as FebDay };
    case 'check-then-append':
      return { kind, day: day as FebDay };
  }
}

/** Problems with table properties for a race's copy; an empty list when they are fine. */
export function propertyProblems(properties: Record<string, string>): string[] {
  const problems: string[] = [];
  const keys = Object.keys(properties);
  if (keys.length > MAX_PROPERTIES) problems.push(`at most ${MAX_PROPERTIES} table properties`);
  for (const key of keys) {
    const rule = PROPERTY_RULES[key];
    if (!rule)
      problems.push(`table property '${key}' is not one a race can set (${Object.keys(PROPERTY_RULES).join(', ')})`);
    else if (!rule(properties[key] as string)) problems.push(`table property ${key} has an unusable value`);
  }
  return problems;
}

/** Every writer waits for a leader that exists, and the waits end: no cycle, somebody starts at the barrier. */
function orderProblems(writers: CustomWriterInput[]): string[] {
  const names = new Set(writers.map((w) => w.name));
  const problems = writers
    .filter((w) => w.startAfter != null && (!names.has(w.startAfter) || w.startAfter === w.name))
    .map((w) => `writer ${w.name}: startAfter names no other writer ('${w.startAfter}')`);
  if (problems.length > 0) return problems;
  for (const w of writers) {
    const seen = new Set<string>();
    for (let at: CustomWriterInput | undefined = w; at?.startAfter != null; ) {
      if (seen.has(at.name)) return [`writers ${[...seen].join(', ')} wait for each other in a cycle`];
      seen.add(at.name);
      at = writers.find((x) => x.name === at?.startAfter);
    }
  }
  return [];
}

/** `schema`: the table the writers will act on (default: the lab's base tables). */
export function customCase(input: CustomCaseInput, schema: StructType = labTableSchema()): DeltaCase {
  const problems: string[] = [];
  const ws = input.writers;
  if (ws.length < 2 || ws.length > MAX_WRITERS) problems.push(`a race needs 2 to ${MAX_WRITERS} writers`);
  const seen = new Set<string>();
  for (const w of ws) {
    if (!NAME.test(w.name))
      problems.push(`writer name '${w.name}' must be a letter then up to 31 letters, digits, _ or -`);
    if (seen.has(w.name)) problems.push(`writer name ${w.name} is used twice`);
    seen.add(w.name);
    if (w.predicate != null && w.predicate.length > MAX_LENGTH) problems.push(`writer ${w.name}: predicate too long`);
  }
  if (problems.length > 0) throw new CaseInputError(problems);
  const writers: WriterSpec[] = [];
  for (const w of ws) {
    const operation = operationOf(w, schema, problems);
    checkInt(problems, `writer ${w.name}: maxCommitRetries`, w.maxCommitRetries, 0, 100);
    checkInt(problems, `writer ${w.name}: retryLoopAttempts`, w.retryLoopAttempts, 1, 20);
    if (!operation) continue;
    writers.push({
      name: w.name,
      operation,
      ...(w.maxCommitRetries != null && { maxCommitRetries: w.maxCommitRetries }),
      ...(w.retryLoopAttempts != null && { retryLoop: w.retryLoopAttempts }),
      ...(w.startAfter != null && { startAfter: w.startAfter }),
    });
  }
  problems.push(...orderProblems(ws), ...propertyProblems(input.properties ?? {}));
  if (problems.length > 0) throw new CaseInputError(problems);
  const table = input.table ?? 'flat';
  const names = writers.map((w) => `${w.name} (${w.operation.kind})`).join(' ‖ ');
  return {
    id: 'custom',
    title: `custom race on the ${table} table: ${names}`,
    engine: 'delta',
    table,
    ...(input.properties && Object.keys(input.properties).length > 0 && { properties: input.properties }),
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
): Promise<DeltaCase> {
  const c = customCase(input, schema);
  const problems: string[] = [];
  await withConnection(async (conn) => {
    const check = async (what: string, run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (e) {
        problems.push(problemOf(what, e));
      }
    };
    for (const { name, operation: op } of c.writers) {
      if (op.kind !== 'update' && op.kind !== 'delete') continue;
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

/** A preset with extra table properties (its own come first, the given ones win). */
export function withProperties(c: LabCase, properties: Record<string, string>): LabCase {
  if (Object.keys(properties).length === 0) return c;
  const problems = propertyProblems(properties);
  if (c.engine !== 'delta') problems.push(`${c.id} is not a Delta case: table properties do not apply`);
  if (problems.length > 0 || c.engine !== 'delta') throw new CaseInputError(problems);
  return { ...c, properties: { ...c.properties, ...properties } };
}
