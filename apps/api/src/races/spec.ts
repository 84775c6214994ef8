/**
 * What `startRace` asks for, checked in full before anything is stored: a preset or custom writers
 * (never both), runs and scale within the lab's bounds, table properties the lab can set, and every
 * predicate and update expression parsed by the engine against the table's schema and run by
 * DuckDB on a row of it (in the lab's runnableCustomCase). The result is the spec the worker runs,
 * stored with the race.
 */
import {
  CaseInputError,
  type CustomWriterInput,
  type LabCase,
  LabInputError,
  type LocationConfig,
  LocationError,
  resolveTableLocation,
  runnableCustomCase,
  SERVED_SCALES,
  selectCases,
  UnknownCaseError,
  validateLabOptions,
  withProperties,
} from '@racelab/lab';
import { InputError } from '../graphql/errors';

export interface KeyValue {
  key: string;
  value: string;
}

export interface WriterInput {
  name: string;
  operation: string;
  predicate?: string | null;
  set?: KeyValue[] | null;
  day?: string | null;
  maxCommitRetries?: number | null;
  retryLoopAttempts?: number | null;
  blindAppend?: boolean | null;
  startAfter?: string | null;
}

export interface StartRaceInput {
  caseId?: string | null;
  writers?: WriterInput[] | null;
  /** Extension: the base table custom writers race on, flat (default) or partitioned. */
  table?: string | null;
  runs?: number | null;
  scale?: number | null;
  tableProperties?: KeyValue[] | null;
  /** Extension: run the race's Delta tables on S3 (s3://bucket/path in a configured bucket). */
  tableRoot?: string | null;
  /** Extension: let the race's writers run on other workers (barrier in Postgres); needs tableRoot. */
  acrossWorkers?: boolean | null;
}

/** What a worker runs: stored as the race's `spec`. */
export interface RaceSpec {
  case: LabCase;
  runs: number;
  scale: number;
  /** Where the run tables live, when not on the worker's disk: an s3:// prefix. */
  tableRoot?: string;
  acrossWorkers?: boolean;
}

function toRecord(pairs: KeyValue[] | null | undefined, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of pairs ?? []) {
    if (key in out) throw new InputError(`${what}: ${key} is given twice`);
    out[key] = value;
  }
  return out;
}

export function toCustomWriter(w: WriterInput): CustomWriterInput {
  return { ...w, set: w.set == null ? null : toRecord(w.set, `writer ${w.name}: set`) };
}

/** The S3 prefix a race's tables go under, resolved like any user location (configured buckets only). */
async function tableRootOf(input: StartRaceInput, locations: LocationConfig): Promise<string | undefined> {
  if (input.tableRoot == null) {
    if (input.acrossWorkers)
      throw new InputError('acrossWorkers needs tableRoot: a table every worker reaches (s3://…)');
    return undefined;
  }
  try {
    const root = await resolveTableLocation(input.tableRoot, locations);
    if (root.kind !== 's3')
      throw new InputError('tableRoot must be an S3 location (s3://bucket/path); local runs need none');
    return root.path;
  } catch (e) {
    if (e instanceof LocationError) throw new InputError(`tableRoot: ${e.message}`);
    throw e;
  }
}

export async function raceSpec(input: StartRaceInput, locations: LocationConfig): Promise<RaceSpec> {
  const spec = await caseSpec(input);
  const tableRoot = await tableRootOf(input, locations);
  if (tableRoot !== undefined && spec.case.engine !== 'delta') {
    throw new InputError(`tableRoot applies to Delta cases; ${spec.case.id} is ${spec.case.engine}`);
  }
  return {
    ...spec,
    ...(tableRoot !== undefined && { tableRoot }),
    ...(input.acrossWorkers && { acrossWorkers: true }),
  };
}

async function caseSpec(input: StartRaceInput): Promise<RaceSpec> {
  const hasCase = input.caseId != null;
  const hasWriters = input.writers != null;
  if (hasCase === hasWriters)
    throw new InputError('give either caseId (a preset) or writers (a custom race), not both');
  try {
    const properties = toRecord(input.tableProperties, 'tableProperties');
    let c: LabCase;
    if (hasCase) {
      if (input.table != null) throw new InputError('table applies to custom writers only; a preset names its own');
      c = withProperties(selectCases([input.caseId as string])[0] as LabCase, properties);
    } else {
      const table = input.table ?? 'flat';
      if (table !== 'flat' && table !== 'partitioned')
        throw new InputError(`table must be flat or partitioned, got '${table}'`);
      const writers = (input.writers as WriterInput[]).map(toCustomWriter);
      c = await runnableCustomCase({ table, properties, writers });
    }
    const { runs, scale } = validateLabOptions({
      cases: [c],
      workDir: '',
      ...(input.runs != null && { runs: input.runs }),
      ...(input.scale != null && { scale: input.scale }),
    });
    // Each scale is a data set the worker builds and keeps; the CLI may take any, the API only these.
    if (!SERVED_SCALES.includes(scale))
      throw new InputError(`scale must be one of ${SERVED_SCALES.join(', ')}, got ${scale}`);
    return { case: c, runs, scale };
  } catch (e) {
    if (e instanceof CaseInputError) throw new InputError(e.message, e.problems);
    if (e instanceof LabInputError || e instanceof UnknownCaseError) throw new InputError(e.message.replace(/--/g, ''));
    throw e;
  }
}
