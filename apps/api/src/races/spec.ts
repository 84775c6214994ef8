/**
 * What `startRace` asks for, checked in full before anything is stored. Stage 1 is the race input's
 * schema (@racelab/contracts, the same the dashboard's form checks with): a preset or custom writers
 * (never both), runs and scale the API serves, table properties a race can set, and every predicate
 * and update expression parsed against the schema of the table the writers act on (the lab's base
 * tables, or the table at `tableLocation`, opened here), every problem at once. Stage 2 needs the lab:
 * the preset must exist, DuckDB must run each expression on a row of the table (runnableCustomCase; for
 * a table of one's own, locationCase, which also refuses what a copy could not be made of and resolves
 * the writers' source files), and tableRoot must be a configured bucket. The result is the spec the
 * worker runs, stored with the race.
 */
import {
  type CustomWriterInput,
  checkStartRace,
  customRaceOf,
  customWriterOf,
  namesLabTable,
  repeatedKeys,
  type StartRace,
  type WriterInput,
} from '@racelab/contracts';
import type { DeltaTable } from '@racelab/engine';
import {
  CaseInputError,
  type DeltaCase,
  formatOf,
  hasJobCommands,
  type LabCase,
  StoreNeededError as LabStoreNeededError,
  type LocationConfig,
  LocationError,
  labTableNoMatchWarnings,
  labTableSchema,
  locationCase,
  noMatchWarnings,
  type RealLibrary,
  refuseWithoutStore,
  resolveTableLocation,
  runnableCustomCase,
  selectCases,
  UnknownCaseError,
  withJobCommands,
  withProperties,
} from '@racelab/lab';
import { InputError, JobCommandsOffError, StoreNeededError, TableRefusedError } from '../errors/client-errors';
import { openTable } from '../tables/open-table';

export type { WriterInput } from '@racelab/contracts';

/** What a worker runs: stored as the race's `spec`. */
export interface RaceSpec {
  case: LabCase;
  runs: number;
  scale: number;
  /** Where the run tables live, when not on the worker's disk: an s3:// prefix. */
  tableRoot?: string;
  acrossWorkers?: boolean;
  /** The real library the writers run in (the lab's name for it); the engine's emulation when unset. */
  realLibrary?: RealLibrary;
  /** Said when the race was submitted: a writer whose predicate matches no rows of the table (noMatchWarnings). */
  warnings?: string[];
}

/** The case's fields with one key renamed in place (the others keep their order, as the stored JSON shows them). */
const renamedKey = (c: object, from: string, to: string) =>
  Object.fromEntries(Object.entries(c).map(([k, v]) => [k === from ? to : k, v]));

/**
 * The spec as stored with the race, and shown as its `spec` field: there the case's table format is named
 * `engine`, as every stored race carries it.
 */
export const storedSpec = (spec: RaceSpec): object => ({ ...spec, case: renamedKey(spec.case, 'format', 'engine') });

/** A stored spec (see storedSpec) as the lab takes it. */
export function specOf(stored: unknown): RaceSpec {
  const spec = stored as Omit<RaceSpec, 'case'> & { case: object };
  return { ...spec, case: renamedKey(spec.case, 'engine', 'format') as LabCase };
}

/** A writer of the API as the lab takes it; a key of `set` given twice is refused. */
export function toCustomWriter(w: WriterInput): CustomWriterInput {
  const twice = repeatedKeys(`writer ${w.name}: set`, w.set ?? []);
  if (twice.length > 0) throw new InputError(twice.join('; '), twice);
  return customWriterOf(w);
}

/** The S3 prefix a race's tables go under, resolved like any user location (configured buckets only). */
export async function tableRootOf(tableRoot: string | null | undefined, locations: LocationConfig) {
  if (tableRoot == null) return undefined;
  try {
    const root = await resolveTableLocation(tableRoot, locations);
    if (root.kind !== 's3')
      throw new InputError('tableRoot must be an S3 location (s3://bucket/path); local runs need none');
    return root.path;
  } catch (e) {
    if (e instanceof LocationError) throw new InputError(`tableRoot: ${e.message}`);
    throw e;
  }
}

async function caseOf(input: StartRace): Promise<LabCase> {
  try {
    if (input.caseId != null) {
      const properties = Object.fromEntries((input.tableProperties ?? []).map((p) => [p.key, p.value]));
      return withProperties(selectCases([input.caseId])[0] as LabCase, properties);
    }
    return await runnableCustomCase(customRaceOf(input));
  } catch (e) {
    if (e instanceof CaseInputError) throw new InputError(e.message, e.problems);
    if (e instanceof UnknownCaseError) throw new InputError(e.message.replace(/--/g, ''));
    throw e;
  }
}

/** The table of one's own `input` names (not yet checked), or null for a preset or the lab's tables. */
function ownTableOf(input: unknown): string | null {
  const location = (input as { tableLocation?: unknown } | null)?.tableLocation;
  return typeof location === 'string' ? location : null;
}

/** Every problem once, in the order found: stage 2 repeats some of stage 1's in the same words. */
function refusal(problems: string[]): InputError {
  const unique = [...new Set(problems)];
  return new InputError(unique.join('; '), unique);
}

/** Stage 2 of a race on a table of one's own: the lab's case, or every problem it finds. */
async function ownTableCase(
  input: StartRace,
  locations: LocationConfig,
  tableRoot: string | undefined,
): Promise<DeltaCase | string[]> {
  try {
    return await locationCase(customRaceOf(input), locations, { ...(tableRoot !== undefined && { tableRoot }) });
  } catch (e) {
    if (e instanceof CaseInputError) return e.problems;
    if (e instanceof LocationError) return [`tableLocation: ${e.message}`];
    throw e;
  }
}

/**
 * A race on copies of the table at `location`: its schema is what stage 1 parses expressions against; then the
 * lab's stage 2. When stage 1 finds problems and the table opened, stage 2 runs too, so a refusal lists what
 * both find (a source file outside the roots beside a predicate naming a column the table lacks).
 */
async function ownTableSpec(input: unknown, location: string, locations: LocationConfig): Promise<RaceSpec> {
  const problems: string[] = [];
  let table: DeltaTable | undefined;
  // A lab alias is stage 1's problem: resolving it would build the lab's data set first.
  if (!namesLabTable(location)) {
    try {
      table = (await openTable(location, locations)).table;
    } catch (e) {
      // A refused table is one more problem of the race, said beside the others.
      if (!(e instanceof InputError || e instanceof TableRefusedError)) throw e;
      problems.push(`tableLocation: ${e.message}`);
    }
  }
  const checked = checkStartRace(input, table === undefined ? {} : { tableSchema: table.schema });
  if (!checked.ok) problems.push(...checked.problems);
  let tableRoot: string | undefined;
  try {
    tableRoot = await tableRootOf((input as { tableRoot?: string | null }).tableRoot, locations);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    problems.push(e.message);
  }
  // GraphQL typed the input, so its writers are writers even where stage 1 found problems.
  const start = checked.ok ? checked.value : (input as StartRace);
  const c =
    table !== undefined && start.caseId == null && Array.isArray(start.writers)
      ? await ownTableCase(start, locations, tableRoot)
      : [];
  if (Array.isArray(c)) problems.push(...c);
  if (problems.length > 0 || !checked.ok || Array.isArray(c)) throw refusal(problems);
  // The table as it is now: a writer whose predicate matches none of its rows will have nothing to commit.
  const warnings = table === undefined ? [] : await noMatchWarnings(table, c.writers);
  return {
    case: c,
    runs: checked.value.runs,
    scale: checked.value.scale,
    ...(tableRoot !== undefined && { tableRoot }),
    ...(checked.value.acrossWorkers && { acrossWorkers: true }),
    ...(warnings.length > 0 && { warnings }),
  };
}

/** Whether `input` (not yet checked) has a command writer. */
function hasCommandWriter(input: unknown): boolean {
  const writers = (input as { writers?: unknown } | null)?.writers;
  return Array.isArray(writers) && writers.some((w) => (w as { command?: unknown } | null)?.command != null);
}

/** The case with its command writers checked against LAB_JOB_ROOTS (their cwd given as an absolute path). */
async function withCheckedJobs(c: LabCase, locations: LocationConfig): Promise<LabCase> {
  if (c.format !== 'delta' || !hasJobCommands(c)) return c;
  try {
    return await withJobCommands(c, { roots: locations.jobRoots ?? [] });
  } catch (e) {
    if (e instanceof CaseInputError) throw new InputError(e.message, e.problems);
    throw e;
  }
}

/** `input`: startRace's, as GraphQL typed it; everything else about it is checked here. */
export async function raceSpec(input: unknown, locations: LocationConfig): Promise<RaceSpec> {
  // A job of the user's own runs only where the server says where jobs may come from.
  if (hasCommandWriter(input) && (locations.jobRoots ?? []).length === 0) throw new JobCommandsOffError();
  const own = ownTableOf(input);
  if (own !== null) return ownTableSpec(input, own, locations);
  const checked = checkStartRace(input, { tableSchema: labTableSchema() });
  if (!checked.ok) throw new InputError(checked.problems.join('; '), checked.problems);
  const start = checked.value;
  const c = await withCheckedJobs(await caseOf(start), locations);
  const tableRoot = await tableRootOf(start.tableRoot, locations);
  if (tableRoot !== undefined && !formatOf(c).takesTableRoot) {
    throw new InputError(`tableRoot applies to Delta cases; ${c.id} is ${c.format}`);
  }
  try {
    refuseWithoutStore(c, tableRoot);
  } catch (e) {
    if (e instanceof LabStoreNeededError) throw new StoreNeededError(e.message);
    throw e;
  }
  // Custom writers on a lab table: counted on its base table when a worker here has built it at this scale.
  const warnings =
    start.caseId == null && c.format === 'delta'
      ? await labTableNoMatchWarnings(c, locations.workDir, start.scale)
      : [];
  return {
    case: c,
    runs: start.runs,
    scale: start.scale,
    ...(tableRoot !== undefined && { tableRoot }),
    ...(start.acrossWorkers && { acrossWorkers: true }),
    ...(warnings.length > 0 && { warnings }),
  };
}
