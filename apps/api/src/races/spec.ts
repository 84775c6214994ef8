/**
 * What `startRace` asks for, checked in full before anything is stored. Stage 1 is the race input's
 * schema (@racelab/contracts, the same the dashboard's form checks with): a preset or custom writers
 * (never both), runs and scale the API serves, table properties a race can set, and every predicate
 * and update expression parsed against the base tables' schema, every problem at once. Stage 2 needs
 * the lab: the preset must exist, DuckDB must run each expression on a row of the table (the lab's
 * runnableCustomCase), and tableRoot must be a configured bucket. The result is the spec the worker
 * runs, stored with the race.
 */
import {
  type CustomWriterInput,
  checkStartRace,
  customRaceOf,
  customWriterOf,
  repeatedKeys,
  type StartRace,
  type WriterInput,
} from '@racelab/contracts';
import {
  CaseInputError,
  type LabCase,
  type LocationConfig,
  LocationError,
  labTableSchema,
  resolveTableLocation,
  runnableCustomCase,
  selectCases,
  UnknownCaseError,
  withProperties,
} from '@racelab/lab';
import { InputError } from '../graphql/errors';

export type { WriterInput } from '@racelab/contracts';

/** What a worker runs: stored as the race's `spec`. */
export interface RaceSpec {
  case: LabCase;
  runs: number;
  scale: number;
  /** Where the run tables live, when not on the worker's disk: an s3:// prefix. */
  tableRoot?: string;
  acrossWorkers?: boolean;
}

/** A writer of the API as the lab takes it; a key of `set` given twice is refused. */
export function toCustomWriter(w: WriterInput): CustomWriterInput {
  const twice = repeatedKeys(`writer ${w.name}: set`, w.set ?? []);
  if (twice.length > 0) throw new InputError(twice.join('; '), twice);
  return customWriterOf(w);
}

/** The S3 prefix a race's tables go under, resolved like any user location (configured buckets only). */
async function tableRootOf(tableRoot: string | null | undefined, locations: LocationConfig) {
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

/** `input`: startRace's, as GraphQL typed it; everything else about it is checked here. */
export async function raceSpec(input: unknown, locations: LocationConfig): Promise<RaceSpec> {
  const checked = checkStartRace(input, { tableSchema: labTableSchema() });
  if (!checked.ok) throw new InputError(checked.problems.join('; '), checked.problems);
  const start = checked.value;
  const c = await caseOf(start);
  const tableRoot = await tableRootOf(start.tableRoot, locations);
  if (tableRoot !== undefined && c.engine !== 'delta') {
    throw new InputError(`tableRoot applies to Delta cases; ${c.id} is ${c.engine}`);
  }
  return {
    case: c,
    runs: start.runs,
    scale: start.scale,
    ...(tableRoot !== undefined && { tableRoot }),
    ...(start.acrossWorkers && { acrossWorkers: true }),
  };
}
