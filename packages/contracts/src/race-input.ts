/**
 * The input of a race (generated into contracts/race-input.schema.json): a preset of the lesson, or writers of
 * one's own on one of the lab's base tables or on copies of a table of one's own (`tableLocation`; the lab's
 * custom race calls it `location`). Two forms of one schema: the API's `StartRaceInput` (what the
 * dashboard's form sends; maps as key/value lists, as GraphQL has no maps) and the lab's custom race (maps as
 * objects). Stage 1, here: every field and every rule between fields, and (given the table's schema) every
 * predicate and update value parsed by the engine; no I/O, so the browser runs it too. Stage 2, whether DuckDB
 * can run each expression on the table, is the lab's.
 */
import {
  ExpressionError,
  MAX_LENGTH,
  parsePredicate,
  parseUpdateExpression,
  type StructType,
} from '@racelab/engine/conflict';
import * as v from 'valibot';
import {
  type Checked,
  checkWith,
  describe,
  isObject,
  mustBe,
  objectMessage,
  requiredAs,
  type Subject,
} from './problems';
import { notList, textMap } from './shapes';

export const WRITER_OPERATIONS = ['append', 'update', 'delete', 'optimize', 'overwrite', 'check-then-append'] as const;
export const FEB_DAYS = ['2025-02-01', '2025-02-02', '2025-02-14'] as const;
export const LAB_TABLES = ['flat', 'partitioned'] as const;
export const MAX_WRITERS = 8;
export const MAX_RUNS = 50;
/** Each scale is a data set a worker builds and keeps, so the API serves these only (the CLI takes any). */
export const SERVED_SCALES: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1];
/** The operations that take a day of February, and those that take a predicate (an update also takes `set`). */
export const DAY_OPERATIONS: readonly string[] = ['append', 'overwrite', 'check-then-append'];
export const PREDICATE_OPERATIONS: readonly string[] = ['update', 'delete'];
/**
 * On a table of one's own, the operations that add rows (DAY_OPERATIONS) take them from a Parquet file
 * (`sourceLocation`) or a sample of the table itself (`sample`); these also take the predicate saying which rows
 * they replace, or look for first.
 */
export const SOURCE_PREDICATE_OPERATIONS: readonly string[] = ['overwrite', 'check-then-append'];
/** The most rows `sample` may take from a table: they are written to one Parquet file per race. */
export const MAX_SAMPLE_ROWS = 1_000_000;
export const MAX_COMMIT_RETRIES = 100;
export const MAX_RETRY_LOOP = 20;
/** A command writer's program and arguments: at most this many, each at most MAX_COMMAND_ARG long. */
export const MAX_COMMAND_ARGS = 64;
export const MAX_COMMAND_ARG = 4096;
/** The fields a command writer takes besides its name (its job does everything else itself). */
const COMMAND_FIELDS: readonly string[] = ['name', 'command', 'cwd', 'startAfter'];
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const MAX_SET_COLUMNS = 20;
const MAX_PROPERTIES = 20;

/**
 * Table properties a race may set on its copy. The isolation level takes any text on purpose: how
 * an engine reads a misspelt value is what the lab is for. The rest are read as delta-rs reads them.
 */
const PROPERTY_RULES = new Map<string, (value: string) => boolean>([
  ['delta.isolationLevel', (value) => value.length <= 64],
  ['delta.appendOnly', (value) => value === 'true' || value === 'false'],
  ['delta.checkpointInterval', (value) => /^\d{1,6}$/.test(value)],
  ['delta.targetFileSize', (value) => /^\d{1,12}$/.test(value)],
]);

export interface RaceInputOptions {
  /** The schema of the table the writers act on: with it, predicates and update values are parsed. */
  tableSchema?: StructType;
}

/**
 * Which table a race's writers act on, read from the input before it is checked (the rules of a writer's
 * rows depend on it): one of the lab's, or one of the user's own, named by the field `field`.
 */
interface RaceTable {
  own: boolean;
  field: 'tableLocation' | 'location';
}

const text = v.string(mustBe('a string'));
const requiredText = v.string(requiredAs('a string'));
/** An object of `entries`, not a list, whose missing keys are said as each key's schema says it. */
const object = <E extends v.ObjectEntries>(entries: E) =>
  notList(v.object(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object'));
const wholeNumber = (min: number, max: number, message: string | ((issue: v.BaseIssue<unknown>) => string)) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
const described = <S extends v.GenericSchema>(schema: S, description: string) =>
  v.pipe(schema, v.description(description));

export const keyValueInput = object({ key: requiredText, value: requiredText });
export type KeyValueInput = v.InferInput<typeof keyValueInput>;

/** A problem for each key given more than once among `pairs`; `field` names them in the message. */
export function repeatedKeys(field: string, pairs: readonly KeyValueInput[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { key } of pairs) {
    if (seen.has(key)) problems.push(`${field}: ${key} is given twice`);
    seen.add(key);
  }
  return problems;
}

/** A map given as key/value pairs, a key at most once. */
function pairs(field: string) {
  return v.pipe(
    v.array(keyValueInput, mustBe('a list')),
    v.rawCheck<KeyValueInput[]>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      for (const message of repeatedKeys(field, dataset.value)) addIssue({ message });
    }),
  );
}

/** A writer's fields, in the API's order; `set` is the one whose form differs (pairs or a map). */
function writerEntries<S extends v.GenericSchema>(set: S) {
  return {
    // The name's form and the operation are rules (writersSchema, writerProblems), whose messages name the writer.
    name: v.pipe(requiredText, v.metadata({ jsonSchema: { pattern: NAME.source } })),
    operation: described(
      // Required of every writer but a command writer: a rule (writerProblems) says so, naming the writer.
      v.nullish(v.pipe(text, v.metadata({ jsonSchema: { enum: WRITER_OPERATIONS } }))),
      'append, update, delete, optimize, overwrite (replace a day, or the rows a predicate picks), check-then-append; none for a command writer',
    ),
    predicate: described(
      v.nullish(v.pipe(text, v.maxLength(MAX_LENGTH, 'too long'))),
      'SQL predicate over the table, parsed by the engine (update, delete; on a table of your own also overwrite and check-then-append)',
    ),
    set: described(v.nullish(set), 'update: column = expression'),
    day: described(
      // A day outside the three is a rule's problem (writerProblems), so the types take any text, as GraphQL does.
      v.nullish(v.pipe(text, v.metadata({ jsonSchema: { enum: FEB_DAYS } }))),
      "append, overwrite, check-then-append on the lab's tables: 2025-02-01, 2025-02-02 or 2025-02-14",
    ),
    sourceLocation: described(
      v.nullish(text),
      'append, overwrite, check-then-append on a table of your own: a Parquet file under LAB_ROOTS whose rows they add',
    ),
    sample: described(
      v.nullish(
        wholeNumber(
          1,
          MAX_SAMPLE_ROWS,
          (issue) => `must be a whole number from 1 to ${MAX_SAMPLE_ROWS}, got ${describe(issue.input)}`,
        ),
      ),
      "append, overwrite, check-then-append on a table of your own: add this many rows of the table's current version",
    ),
    maxCommitRetries: described(
      v.nullish(wholeNumber(0, MAX_COMMIT_RETRIES, `must be a whole number from 0 to ${MAX_COMMIT_RETRIES}`)),
      'delta-rs max_commit_retries (default 15)',
    ),
    retryLoopAttempts: described(
      v.nullish(wholeNumber(1, MAX_RETRY_LOOP, `must be a whole number from 1 to ${MAX_RETRY_LOOP}`)),
      'an application loop that redoes the whole change on CommitFailedError',
    ),
    blindAppend: v.nullish(v.boolean(mustBe('a boolean'))),
    startAfter: described(v.nullish(text), 'the name of a writer that must have committed first'),
    command: described(
      v.nullish(
        v.pipe(
          v.array(v.pipe(text, v.maxLength(MAX_COMMAND_ARG, 'too long')), mustBe('a list of strings')),
          v.minLength(1, 'must name a program'),
          v.maxLength(MAX_COMMAND_ARGS, `at most ${MAX_COMMAND_ARGS} items`),
        ),
      ),
      "a command writer: your own job's program and arguments (under LAB_JOB_ROOTS), run on a full copy of the table; it takes no operation",
    ),
    cwd: described(
      v.nullish(text),
      "a command writer's working folder: relative paths are taken from it (in a writers file, default its folder; through the API, an absolute path)",
    ),
  };
}

type SetEntries = [column: string, value: string][];
const setEntries = (set: KeyValueInput[] | Record<string, string>): SetEntries =>
  Array.isArray(set) ? set.map((pair) => [pair.key, pair.value]) : Object.entries(set);

/** An ExpressionError as a problem of `what`; anything else is not the user's to fix. */
function expressionProblem(what: string, parse: () => unknown): string[] {
  try {
    parse();
    return [];
  } catch (e) {
    if (e instanceof ExpressionError) return [`${what}: ${e.message}`];
    throw e;
  }
}

interface WriterFields {
  operation?: string | null;
  command?: string[] | null;
  predicate?: string | null;
  set?: KeyValueInput[] | Record<string, string> | null;
  day?: string | null;
  sourceLocation?: string | null;
  sample?: number | null;
  blindAppend?: boolean | null;
}

const ROWS_FIELDS = ['day', 'sourceLocation', 'sample'] as const;
const OWN_ROWS = 'sourceLocation (a Parquet file under LAB_ROOTS) or sample (rows of the table itself)';

/**
 * Where an operation that adds rows takes them from: a February day on the lab's tables, a file or a sample on a
 * table of one's own, exactly one. Any other operation takes none of them.
 */
function rowsProblems(w: WriterFields & { operation: string }, table: RaceTable): string[] {
  const kind = w.operation;
  const given = ROWS_FIELDS.filter((f) => w[f] != null);
  if (!DAY_OPERATIONS.includes(kind)) return given.map((f) => `${kind} takes no ${f}`);
  if (!table.own) {
    const own = given.filter((f) => f !== 'day');
    if (own.length > 0) {
      return own.map((f) => `${f} is for a table of your own (${table.field}); the lab's tables take a day`);
    }
    if (w.day == null) return [`${kind} needs a day (${FEB_DAYS.join(', ')})`];
    if (!(FEB_DAYS as readonly string[]).includes(w.day)) {
      return [`day must be one of ${FEB_DAYS.join(', ')}, got '${w.day}'`];
    }
    return [];
  }
  const problems: string[] = [];
  if (w.day != null) {
    problems.push("day is one of the lab's February days; a table of your own takes sourceLocation or sample");
  }
  if (w.sourceLocation != null && w.sample != null) problems.push('give sourceLocation or sample, not both');
  else if (w.sourceLocation == null && w.sample == null && w.day == null) problems.push(`${kind} needs ${OWN_ROWS}`);
  return problems;
}

/**
 * Whether the writer's operation needs a predicate: update and delete always; on a table of one's own, overwrite
 * (the rows it replaces) and check-then-append (the rows it looks for first) too.
 */
const needsPredicate = (kind: string, table: RaceTable) =>
  PREDICATE_OPERATIONS.includes(kind) || (table.own && SOURCE_PREDICATE_OPERATIONS.includes(kind));

/** A command writer's rules: its job does the rest, so it takes no field of an operation. */
function commandProblems(w: WriterFields): string[] {
  const given = Object.entries(w).filter(([key, value]) => value != null && !COMMAND_FIELDS.includes(key));
  return given.map(([key]) => `a command writer takes no ${key} (only ${COMMAND_FIELDS.join(', ')})`);
}

/** The rules between one writer's fields: what its operation needs and takes, then its expressions. */
function writerProblems(w: WriterFields, table: RaceTable, tableSchema: StructType | undefined): string[] {
  if (w.command != null) return commandProblems(w);
  if ((w as { cwd?: unknown }).cwd != null) return ['cwd is for a command writer (command)'];
  const kind = w.operation;
  if (kind == null) return ['operation is required (or command, for a job of your own)'];
  if (!(WRITER_OPERATIONS as readonly string[]).includes(kind)) {
    return [`unknown operation '${kind}' (one of ${WRITER_OPERATIONS.join(', ')})`];
  }
  const rows = rowsProblems({ ...w, operation: kind }, table);
  if (rows.length > 0) return rows;
  const predicateNeeded = needsPredicate(kind, table);
  if (predicateNeeded !== (w.predicate != null)) {
    return [predicateNeeded ? `${kind} needs a predicate` : `${kind} takes no predicate`];
  }
  if ((kind === 'update') !== (w.set != null)) return [kind === 'update' ? 'update needs set' : `${kind} takes no set`];
  const problems: string[] = [];
  if (w.blindAppend != null && kind !== 'append') problems.push('only an append can be marked blind');
  if (tableSchema && w.predicate != null) {
    const predicate = w.predicate;
    problems.push(...expressionProblem('predicate', () => parsePredicate(predicate, tableSchema)));
  }
  const set = w.set == null ? [] : setEntries(w.set);
  if (kind === 'update' && (set.length === 0 || set.length > MAX_SET_COLUMNS)) {
    problems.push(`set must name 1 to ${MAX_SET_COLUMNS} columns`);
  }
  if (tableSchema) {
    for (const [column, value] of set) {
      problems.push(...expressionProblem(`set ${column}`, () => parseUpdateExpression(value, tableSchema, column)));
    }
  }
  return problems;
}

function writerSchema<S extends v.GenericSchema>(set: S, table: RaceTable, options: RaceInputOptions) {
  return v.pipe(
    object(writerEntries(set)),
    v.rawCheck(({ dataset, addIssue }) => {
      // Rules between fields read fields of the right types only; a wrong type is its own problem.
      if (!dataset.typed) return;
      for (const message of writerProblems(dataset.value as WriterFields, table, options.tableSchema)) {
        addIssue({ message });
      }
    }),
  );
}

/** Every writer waits for a leader that exists, and the waits end: no cycle, somebody starts at the barrier. */
function orderProblems(writers: { name: string; startAfter?: string | null }[]): string[] {
  const names = new Set(writers.map((w) => w.name));
  const problems = writers
    .filter((w) => w.startAfter != null && (!names.has(w.startAfter) || w.startAfter === w.name))
    .map((w) => `writer ${w.name}: startAfter names no other writer ('${w.startAfter}')`);
  if (problems.length > 0) return problems;
  for (const w of writers) {
    const seen = new Set<string>();
    for (let next: typeof w | undefined = w; next?.startAfter != null; ) {
      if (seen.has(next.name)) return [`writers ${[...seen].join(', ')} wait for each other in a cycle`];
      seen.add(next.name);
      const leader: string = next.startAfter;
      next = writers.find((x) => x.name === leader);
    }
  }
  return [];
}

/** The rules across writers: how many, their names, who waits for whom. */
function writersSchema<S extends v.GenericSchema>(writer: S) {
  return v.pipe(
    v.array(writer, mustBe('a list')),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!Array.isArray(dataset.value)) return;
      const writers: unknown[] = dataset.value;
      const problems: string[] = [];
      if (writers.length < 2 || writers.length > MAX_WRITERS) problems.push(`a race needs 2 to ${MAX_WRITERS} writers`);
      const named = writers.filter((w): w is { name: string } => isObject(w) && typeof w.name === 'string');
      const seen = new Set<string>();
      for (const { name } of named) {
        if (!NAME.test(name))
          problems.push(`writer name '${name}' must be a letter then up to 31 letters, digits, _ or -`);
        if (seen.has(name)) problems.push(`writer name ${name} is used twice`);
        seen.add(name);
      }
      if (problems.length === 0 && dataset.typed) problems.push(...orderProblems(dataset.value as typeof named));
      for (const message of problems) addIssue({ message });
    }),
    v.metadata({ jsonSchema: { minItems: 2, maxItems: MAX_WRITERS } }),
  );
}

/** Problems with table properties for a race's copy; an empty list when they are fine. */
export function propertyProblems(properties: Record<string, string>): string[] {
  const problems: string[] = [];
  const keys = Object.keys(properties);
  if (keys.length > MAX_PROPERTIES) problems.push(`at most ${MAX_PROPERTIES} table properties`);
  for (const key of keys) {
    // A Map: a key such as __proto__ or toString must find no rule, not an object's own property.
    const rule = PROPERTY_RULES.get(key);
    if (!rule) {
      problems.push(`table property '${key}' is not one a race can set (${[...PROPERTY_RULES.keys()].join(', ')})`);
    } else if (!rule(properties[key] as string)) {
      problems.push(`table property ${key} has an unusable value`);
    }
  }
  return problems;
}

function propertiesCheck<T extends KeyValueInput[] | Record<string, string>>() {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const properties = Object.fromEntries(setEntries(dataset.value));
    for (const message of propertyProblems(properties)) addIssue({ message });
  });
}

const scaleMessage = (issue: v.BaseIssue<unknown>) => {
  const scale = issue.input as number;
  return scale >= 0.01 && scale <= 1
    ? `must be one of ${SERVED_SCALES.join(', ')}, got ${scale}`
    : `must be from 0.01 to 1, got ${describe(scale)}`;
};

/** Which table `input` (not yet checked) races on, given the field that names a table of one's own. */
function raceTableOf(input: unknown, field: RaceTable['field']): RaceTable {
  return { own: isObject(input) && input[field] != null, field };
}

/**
 * Whether a location names one of the lab's own tables by alias (`lab:flat@1`): those are raced with `table`, and
 * resolving one builds its data set, so a race refuses it before any location is resolved.
 */
export const namesLabTable = (location: string) => /^\s*lab:/i.test(location);

const labAlias = (field: RaceTable['field']) =>
  `${field} names a table of your own; the lab's tables are raced with table (flat or partitioned)`;

const bothTables = (field: RaceTable['field']) =>
  `give table (one of the lab's) or ${field} (a table of your own), not both`;

const ownTableDescription =
  'custom writers only: race copies of this Delta table (a path under LAB_ROOTS, or s3://bucket/path in LAB_S3_BUCKETS)';

/** The API's startRace input, with the rules between its fields; `table`: which table the writers act on. */
function startRaceSchema(options: RaceInputOptions = {}, table: RaceTable = raceTableOf(null, 'tableLocation')) {
  const writer = writerSchema(pairs('set'), table, options);
  return v.pipe(
    object({
      caseId: described(v.nullish(text), 'a preset such as "B1"; or give writers'),
      writers: v.nullish(writersSchema(writer)),
      table: described(
        v.nullish(v.picklist(LAB_TABLES, mustBe(LAB_TABLES.join(' or ')))),
        'custom writers only: flat (default) or partitioned',
      ),
      tableLocation: described(v.nullish(text), ownTableDescription),
      runs: v.nullish(
        wholeNumber(
          1,
          MAX_RUNS,
          (issue) => `must be a whole number from 1 to ${MAX_RUNS}, got ${describe(issue.input)}`,
        ),
        5,
      ),
      scale: v.nullish(
        v.pipe(
          v.number(mustBe('a number')),
          v.check((scale) => SERVED_SCALES.includes(scale), scaleMessage),
          v.metadata({ jsonSchema: { enum: SERVED_SCALES } }),
        ),
        1,
      ),
      tableProperties: v.nullish(v.pipe(pairs('tableProperties'), propertiesCheck())),
      tableRoot: described(v.nullish(text), 'run the tables on S3: s3://bucket/path in a configured bucket'),
      acrossWorkers: described(
        v.nullish(v.boolean(mustBe('a boolean'))),
        "writers may run on other workers' hosts; needs tableRoot",
      ),
      real: described(
        v.nullish(v.boolean(mustBe('a boolean')), false),
        "run the writers in the real library (the server's Python side: see realLibraries), not the engine's emulation of it",
      ),
      library: described(
        v.nullish(text),
        "the real library, by the engine's name (delta-rs, pyiceberg, delta-spark); the case's format's when omitted. A library the engine does not emulate (delta-spark) implies real",
      ),
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!isObject(dataset.value)) return;
      const input = dataset.value;
      if ((input.caseId == null) === (input.writers == null)) {
        addIssue({ message: 'give either caseId (a preset) or writers (a custom race), not both' });
      } else if (input.caseId != null && input.table != null) {
        addIssue({ message: 'table applies to custom writers only; a preset names its own' });
      }
      if (input.caseId != null && input.tableLocation != null) {
        addIssue({ message: 'tableLocation applies to custom writers only; a preset names its own' });
      } else if (input.table != null && input.tableLocation != null) {
        addIssue({ message: bothTables('tableLocation') });
      }
      if (typeof input.tableLocation === 'string' && namesLabTable(input.tableLocation)) {
        addIssue({ message: labAlias('tableLocation') });
      }
      if (input.acrossWorkers && input.tableRoot == null) {
        addIssue({ message: 'acrossWorkers needs tableRoot: a table every worker reaches (s3://…)' });
      }
    }),
  );
}

/**
 * The lab's custom race: writers on a base table (flat by default) or on copies of a table of one's own
 * (`location`), maps as objects. `input`: the race as given, to tell a table named from the default one.
 */
function customRaceSchema(options: RaceInputOptions = {}, input: unknown = null) {
  const table = raceTableOf(input, 'location');
  const tableNamed = isObject(input) && input.table != null;
  return v.pipe(
    object({
      writers: writersSchema(writerSchema(textMap('set'), table, options)),
      table: v.optional(v.picklist(LAB_TABLES, mustBe(LAB_TABLES.join(' or '))), 'flat'),
      location: described(v.optional(text), ownTableDescription.replace('custom writers only: ', '')),
      properties: v.optional(v.pipe(textMap('properties'), propertiesCheck()), () => ({})),
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (tableNamed && table.own) addIssue({ message: bothTables('location') });
      const { location } = isObject(dataset.value) ? dataset.value : {};
      if (typeof location === 'string' && namesLabTable(location)) addIssue({ message: labAlias('location') });
    }),
  );
}

/** The API's input types, field by field (the table's schema changes only what the rules check). */
export const writerInputSchema = writerSchema(pairs('set'), raceTableOf(null, 'tableLocation'), {});
export const startRaceInputSchema = startRaceSchema();

type StartRaceSchema = ReturnType<typeof startRaceSchema>;
type CustomRaceSchema = ReturnType<typeof customRaceSchema>;
/** What startRace takes, and what the dashboard's form sends. */
export type StartRaceInput = v.InferInput<StartRaceSchema>;
export type WriterInput = NonNullable<StartRaceInput['writers']>[number];
/** startRace's input once checked: runs and scale filled in. */
export type StartRace = v.InferOutput<StartRaceSchema>;
/** A custom race as the lab takes it. */
export type CustomRaceInput = v.InferInput<CustomRaceSchema>;
export type CustomWriterInput = CustomRaceInput['writers'][number];
export type CustomRace = v.InferOutput<CustomRaceSchema>;

/** Problems of writers name the writer; the rest stand alone. */
function subjectsOf(input: unknown) {
  const writers = isObject(input) && Array.isArray(input.writers) ? input.writers : [];
  return (keys: (string | number)[]): Subject => {
    const index = keys[1];
    if (keys[0] !== 'writers' || typeof index !== 'number') return { label: null, depth: 0 };
    const writer: unknown = writers[index];
    const named = isObject(writer) && typeof writer.name === 'string';
    return { label: named ? `writer ${writer.name}` : `writers[${index}]`, depth: 2 };
  };
}

/** startRace's input checked (stage 1), every problem named with its writer and field. */
export function checkStartRace(input: unknown, options: RaceInputOptions = {}): Checked<StartRace> {
  return checkWith(startRaceSchema(options, raceTableOf(input, 'tableLocation')), input, subjectsOf(input));
}

/** A custom race checked (stage 1), every problem named with its writer and field. */
export function checkCustomRace(input: unknown, options: RaceInputOptions = {}): Checked<CustomRace> {
  return checkWith(customRaceSchema(options, input), input, subjectsOf(input));
}

/** A writer of the API (set as pairs) as the lab takes it (set as a map); a key given twice keeps its last value. */
export function customWriterOf(w: WriterInput): CustomWriterInput {
  return { ...w, set: w.set == null ? w.set : Object.fromEntries(setEntries(w.set)) };
}

/** A checked startRace input for custom writers, as the lab's custom race. */
export function customRaceOf(input: StartRace): CustomRaceInput {
  return {
    writers: (input.writers ?? []).map(customWriterOf),
    ...(input.tableLocation != null ? { location: input.tableLocation } : { table: input.table ?? 'flat' }),
    properties: Object.fromEntries(setEntries(input.tableProperties ?? [])),
  };
}
