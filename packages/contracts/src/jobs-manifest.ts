/**
 * The jobs manifest: the jobs that write shared tables, as a team describes them (generated into
 * contracts/jobs-manifest.schema.json). This checks the parsed document, from YAML or JSON alike; reading the
 * text stays with the reader. Keys starting with x- are accepted anywhere; a job keeps its own in `extra`.
 * A job's predicate is checked here for what no schema makes right (`VendorID == 2`); against its table's
 * columns, and by DuckDB, when the audit opens the table (stage 2, in the lab).
 */
import { checkPredicateSyntax, ExpressionError } from '@racelab/engine/conflict';
import * as v from 'valibot';
import {
  type Checked,
  checkWith,
  describe,
  type Issue,
  isObject,
  mustBe,
  objectMessage,
  requiredAs,
  type Subject,
} from './problems';
import { notList, textMap } from './shapes';
import { RETRY_POLICY_NAMES, type RetryPolicy, retryPolicySchema } from './sweep-input';

const JOB_OPERATIONS = ['append', 'overwrite', 'update', 'delete', 'merge', 'optimize', 'vacuum'] as const;
const ON_COMMIT_FAILED = ['fail', 'retry-commit', 'redo-whole-change'] as const;
export const MAX_JOBS = 500;
/** 100 commits a second, all day: more than any object store's put-if-absent serves one table. */
export const MAX_COMMITS_PER_HOUR = 360_000;
/** Instances of one job committing at once (a scaled-out function app, parallel tasks). */
export const MAX_CONCURRENCY = 1000;
/** Bounded: the audit looks at 7 days, and its schedule rules walk every run a job's duration reaches back over. */
export const MAX_DURATION_MINUTES = 7 * 24 * 60;

export type JobOperation = (typeof JOB_OPERATIONS)[number];
export type OnCommitFailed = (typeof ON_COMMIT_FAILED)[number];

export interface ManifestOptions {
  /** Why a cron expression is unusable, or undefined when it is fine: the parser is the audit's schedule's own. */
  cronProblem?: (cron: string) => string | undefined;
}

/** In JSON Schema, what noUnknownKeys checks: the object's own keys, and x- keys. */
const extensible = <T>() =>
  v.metadata<T, Record<string, unknown>>({
    jsonSchema: { patternProperties: { '^x-': {} }, additionalProperties: false },
  });

/** Reports every key outside `known` that does not start with x-; `prefix` names the object the key is in. */
function noUnknownKeys<T>(known: readonly string[], prefix: string) {
  return v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!isObject(dataset.value)) return;
    for (const key of Object.keys(dataset.value)) {
      if (!known.includes(key) && !key.startsWith('x-')) {
        addIssue({ message: `unknown key '${prefix}${key}' (extension keys start with x-)` });
      }
    }
  });
}

/** An integer from `min` (to `max`); every bound it fails says the same, and is said once. */
function integer(expected: string, min: number, max?: number) {
  const message = mustBe(expected);
  const number = v.pipe(v.number(message), v.integer(message), v.minValue(min, message));
  return max === undefined ? number : v.pipe(number, v.maxValue(max, message));
}

const text = v.string(mustBe('a string'));
const requiredText = v.string(requiredAs('a string'));
const flag = v.boolean(mustBe('a boolean'));

const commitPropertyEntries = {
  maxCommitRetries: v.optional(integer('an integer >= 0', 0)),
  isBlindAppend: v.optional(flag),
  isolationLevel: v.pipe(
    v.optional(text),
    v.description(
      'delta-rs custom_metadata isolationLevel: recorded in commitInfo, never used by the conflict checker',
    ),
  ),
};

/** A predicate whose table is not open yet: its grammar, functions and literals (the table's columns come later). */
const predicateSyntax = v.rawCheck<string>(({ dataset, addIssue }) => {
  if (!dataset.typed) return;
  try {
    checkPredicateSyntax(dataset.value);
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    addIssue({ message: `predicate: ${e.message}` });
  }
});

const PRESETS = RETRY_POLICY_NAMES.filter((n) => n !== 'custom');
const presetName = v.picklist(
  PRESETS,
  (issue) => `must be one of ${PRESETS.join(', ')} (or custom numbers), got ${describe(issue.input)}`,
);
/**
 * A retry policy: a preset's name or its numbers, as a sweep takes it (sweep-input.ts). Each form reports its own
 * problems; the JSON Schema is made with no input, and gets both forms.
 */
const retryPolicyInput = v.lazy((input) =>
  typeof input === 'string'
    ? presetName
    : isObject(input)
      ? retryPolicySchema
      : v.union(
          [presetName, retryPolicySchema],
          mustBe("a preset's name or { name, maxCommitRetries, appTries, backoff }"),
        ),
);

function scheduleEntries(options: ManifestOptions) {
  const { cronProblem } = options;
  return {
    cron: v.optional(
      v.pipe(
        text,
        v.rawCheck(({ dataset, addIssue }) => {
          const problem = dataset.typed && cronProblem ? cronProblem(dataset.value as string) : undefined;
          if (problem !== undefined) addIssue({ message: `schedule.cron is invalid: ${problem}` });
        }),
      ),
    ),
    maxDurationMinutes: v.optional(
      integer(`an integer from 1 to ${MAX_DURATION_MINUTES} (the 7 days the audit looks at)`, 1, MAX_DURATION_MINUTES),
    ),
  };
}

/** An object field of a job; its unknown keys are named with the field's name. */
function nested<E extends v.ObjectEntries>(name: string, entries: E) {
  return v.optional(
    v.pipe(
      notList(v.looseObject(entries, mustBe('an object')), mustBe('an object')),
      noUnknownKeys(Object.keys(entries), `${name}.`),
      extensible(),
    ),
  );
}

function jobEntries(options: ManifestOptions) {
  const oneOf = (values: readonly string[]) => `one of ${values.join(', ')}`;
  return {
    name: v.pipe(
      requiredText,
      v.check((name) => name.trim() !== '', 'must not be empty'),
    ),
    table: v.pipe(requiredText, v.description('table location: a local path or s3://bucket/path')),
    engine: v.pipe(requiredText, v.description("e.g. 'delta-rs 1.6.6', 'Delta Spark 3.2', 'Databricks'")),
    operation: v.picklist(JOB_OPERATIONS, requiredAs(oneOf(JOB_OPERATIONS))),
    predicate: v.optional(v.pipe(text, predicateSyntax)),
    tableProperties: v.pipe(
      // A string each: YAML reads `delta.appendOnly: true` as a boolean, and Delta stores every property as text.
      v.optional(notList(textMap('tableProperties'), mustBe('an object'))),
      v.description('what the job sets on the table, e.g. {"delta.isolationLevel": "WriteSerializable"}'),
    ),
    commitProperties: nested('commitProperties', commitPropertyEntries),
    onCommitFailed: v.pipe(
      v.optional(v.picklist(ON_COMMIT_FAILED, mustBe(oneOf(ON_COMMIT_FAILED)))),
      v.description("what the job's own code does when it loses"),
    ),
    checksTableBeforeAppend: v.pipe(
      v.optional(flag),
      v.description('the job reads the table in its own code to decide whether to append'),
    ),
    schedule: v.pipe(
      nested('schedule', scheduleEntries(options)),
      v.description('when the job runs and for how long, to say which jobs can overlap'),
    ),
    commitsPerHour: v.pipe(
      v.optional(
        v.pipe(
          v.number(mustBe(`a number above 0, at most ${MAX_COMMITS_PER_HOUR}`)),
          v.finite(mustBe(`a number above 0, at most ${MAX_COMMITS_PER_HOUR}`)),
          v.gtValue(0, mustBe(`a number above 0, at most ${MAX_COMMITS_PER_HOUR}`)),
          v.maxValue(MAX_COMMITS_PER_HOUR, mustBe(`a number above 0, at most ${MAX_COMMITS_PER_HOUR}`)),
        ),
      ),
      v.description('commits the job makes per hour, all its instances together: the contention forecast needs it'),
    ),
    concurrency: v.pipe(
      v.optional(integer(`an integer from 1 to ${MAX_CONCURRENCY}`, 1, MAX_CONCURRENCY)),
      v.description('instances of the job that commit at once (default 1); each makes commitsPerHour / concurrency'),
    ),
    code: v.pipe(
      v.optional(
        v.pipe(
          text,
          v.check((path) => path.trim() !== '', 'must not be empty'),
        ),
      ),
      v.description(
        "the job's code (a file or folder), relative to the manifest's folder: the audit reads its settings, reports where the manifest says otherwise (code-drift) and takes from it the settings the job leaves out",
      ),
    ),
    retryPolicy: v.pipe(
      v.optional(retryPolicyInput),
      v.description(
        "how the job retries a commit: a preset (delta-rs, pyiceberg-like, spark-like, none) or { name: 'custom', maxCommitRetries, appTries, backoff }; without it, commitProperties.maxCommitRetries (default 15) and one try",
      ),
    ),
  };
}

const JOB_KEYS = Object.keys(jobEntries({}));
const COMMIT_PROPERTY_KEYS = Object.keys(commitPropertyEntries);
const SCHEDULE_KEYS = Object.keys(scheduleEntries({}));

function jobSchema(options: ManifestOptions) {
  const entries = jobEntries(options);
  return v.pipe(
    notList(v.looseObject(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object')),
    noUnknownKeys(JOB_KEYS, ''),
    extensible(),
  );
}

/** Names used by more than one job, with the indexes of the jobs using them. */
function duplicateNames(jobs: readonly unknown[]): Map<string, number[]> {
  const indexes = new Map<string, number[]>();
  jobs.forEach((job, index) => {
    const name = nameOf(job);
    if (name !== undefined) indexes.set(name, [...(indexes.get(name) ?? []), index]);
  });
  return new Map([...indexes].filter(([, at]) => at.length > 1));
}

function nameOf(job: unknown): string | undefined {
  const name = isObject(job) ? job.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

const manifestMessage = (issue: Issue) =>
  issue.input == null
    ? 'manifest is empty: expected an object with a jobs array'
    : `manifest must be an object with a jobs array, got ${describe(issue.input)}`;

/** The manifest's schema; `options` lends it the checks whose parsers live elsewhere. */
export function jobsManifestSchema(options: ManifestOptions = {}) {
  const jobs = v.pipe(
    v.array(v.unknown(), requiredAs('an array')),
    // Checking thousands of jobs would bury this one problem under many more; the jobs are not checked then.
    v.rawCheck(({ dataset, addIssue }) => {
      const n = Array.isArray(dataset.value) ? dataset.value.length : 0;
      if (n > MAX_JOBS) addIssue({ message: `jobs: at most ${MAX_JOBS} jobs, got ${n}` });
    }),
    v.array(jobSchema(options)),
    v.metadata({ jsonSchema: { maxItems: MAX_JOBS } }),
  );
  return v.pipe(
    notList(v.looseObject({ jobs }, objectMessage({ jobs }, manifestMessage)), manifestMessage),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!isObject(dataset.value)) return;
      for (const key of Object.keys(dataset.value)) {
        if (key !== 'jobs' && !key.startsWith('x-')) {
          addIssue({ message: `unknown top-level key '${key}' (extension keys start with x-)` });
        }
      }
      const list = dataset.value.jobs;
      if (!Array.isArray(list) || list.length > MAX_JOBS) return;
      for (const [name, at] of duplicateNames(list)) {
        const where = at.map((i) => `jobs[${i}]`).join(', ');
        addIssue({ message: `job '${name}': name is used by more than one job (${where})` });
      }
    }),
    extensible(),
  );
}

/** The output of an object schema with `entries`, without the keys a loose object lets through. */
type Fields<E extends v.ObjectEntries> = v.InferOutput<v.ObjectSchema<E, undefined>>;

/** A job as the audit reads it: the fields it set, as the schema reads them, and its x- keys in `extra`. */
export type Job = Omit<Fields<ReturnType<typeof jobEntries>>, 'commitProperties' | 'schedule' | 'retryPolicy'> & {
  commitProperties?: Fields<typeof commitPropertyEntries>;
  retryPolicy?: Exclude<RetryPolicy['name'], 'custom'> | RetryPolicy;
  schedule?: Fields<ReturnType<typeof scheduleEntries>>;
  /** Keys starting with x- are kept and ignored. */
  extra?: Record<string, unknown>;
};

export interface Manifest {
  jobs: Job[];
}

type ParsedJob = v.InferOutput<ReturnType<typeof jobSchema>>;

/** `value`'s entries whose key is in `keys`, or (`keep` false) whose key is not. */
function entriesOf(value: object, keys: readonly string[], keep = true): [string, unknown][] {
  return Object.entries(value).filter(([key]) => keys.includes(key) === keep);
}

function jobOf(parsed: ParsedJob): Job {
  // The schema has checked every field kept here. fromEntries defines own properties: no key reaches a prototype.
  const job = Object.fromEntries(entriesOf(parsed, JOB_KEYS)) as unknown as Job;
  // x- keys inside commitProperties and schedule are accepted and dropped: a job keeps extensions at its level only.
  if (parsed.commitProperties)
    job.commitProperties = Object.fromEntries(entriesOf(parsed.commitProperties, COMMIT_PROPERTY_KEYS));
  if (parsed.schedule) job.schedule = Object.fromEntries(entriesOf(parsed.schedule, SCHEDULE_KEYS));
  if (parsed.tableProperties) job.tableProperties = Object.fromEntries(Object.entries(parsed.tableProperties));
  const extensions = entriesOf(parsed, JOB_KEYS, false);
  if (extensions.length > 0) job.extra = Object.fromEntries(extensions);
  return job;
}

/** Problems of the manifest as a whole first; then each job's, by name as a team knows its jobs, or by position. */
function subjectsOf(data: unknown) {
  const jobs = isObject(data) && Array.isArray(data.jobs) ? data.jobs : [];
  const duplicates = duplicateNames(jobs);
  return (keys: (string | number)[]): Subject => {
    const index = keys[1];
    if (keys[0] !== 'jobs' || typeof index !== 'number') return { label: null, depth: 0 };
    const name = nameOf(jobs[index]);
    if (name === undefined) return { label: `jobs[${index}]`, depth: 2, rank: 1 };
    return { label: duplicates.has(name) ? `job '${name}' (jobs[${index}])` : `job '${name}'`, depth: 2, rank: 1 };
  };
}

/** A parsed manifest (from YAML or JSON) checked: the jobs, or every problem named with its job and field. */
export function checkJobsManifest(data: unknown, options: ManifestOptions = {}): Checked<Manifest> {
  const checked = checkWith(jobsManifestSchema(options), data, subjectsOf(data));
  return checked.ok ? { ok: true, value: { jobs: checked.value.jobs.map(jobOf) } } : checked;
}
