/**
 * The input of a sweep (generated into contracts/sweep-input.schema.json): for each N in `writers`, N writer
 * processes each make `commitsPerWriter` commits of one operation on a fresh table, under one retry policy.
 * What the CLI and the API's startSweep take; checked before any work starts, every problem at once. A policy is
 * given by its preset's name or as numbers (`custom`); the checked input carries it resolved to numbers.
 */
import type { RetryPolicy as EngineRetryPolicy } from '@racelab/engine/conflict';
import { JITTERS } from '@racelab/engine/conflict';
import * as v from 'valibot';
import { type Checked, checkWith, describe, isObject, mustBe, objectMessage } from './problems';
import { notList } from './shapes';
import { SWEEP_SCENARIO_NAMES, type SweepScenarioName, withScenario } from './sweep-scenarios';

export const SWEEP_OPERATIONS = [
  'append-row',
  'append-day',
  'update-disjoint',
  'update-overlap',
  'compaction',
] as const;
export type SweepOperation = (typeof SWEEP_OPERATIONS)[number];
export const RETRY_POLICY_NAMES = ['delta-rs', 'pyiceberg-like', 'spark-like', 'none', 'custom'] as const;
export type RetryPolicyName = (typeof RETRY_POLICY_NAMES)[number];
/** The table formats a sweep writes: Delta (the default), or Iceberg fast appends through a SQL catalog. */
export const SWEEP_TABLE_FORMATS = ['delta', 'iceberg'] as const;
export type SweepTableFormat = (typeof SWEEP_TABLE_FORMATS)[number];
/** Iceberg's SQL catalog: the database whose compare-and-swap UPDATE commits (SQLite by default). */
export const SWEEP_CATALOGS = ['sqlite', 'postgres'] as const;
export type SweepCatalog = (typeof SWEEP_CATALOGS)[number];
/** What an Iceberg sweep can do: fast appends (the engine writes no Iceberg update, delete or rewrite). */
export const ICEBERG_SWEEP_OPERATIONS: readonly SweepOperation[] = ['append-row'];
export { JITTERS };

export const MAX_SWEEP_WRITERS = 64;
export const MAX_SWEEP_COMMITS_PER_WRITER = 50;
/** Over all points: N x K, plus the compactor's K for compaction. */
export const MAX_SWEEP_COMMITS = 2000;
/** Delta Spark's `maxRetryCommitAttempts` (practically unbounded), the most a policy may ask of the engine's loop. */
export const MAX_SWEEP_COMMIT_RETRIES = 10_000_000;
export const MAX_SWEEP_APP_TRIES = 1000;
/** A pause longer than ten minutes measures the pause, not the table. */
export const MAX_SWEEP_BACKOFF_MS = 600_000;
/** Appends per second per append writer, for compaction. */
export const MAX_SWEEP_APPEND_RATE = 100;
export const DEFAULT_SWEEP_WRITERS: readonly number[] = [1, 2, 4, 8, 16, 32, 64];
export const DEFAULT_SWEEP_COMMITS = 10;
export const DEFAULT_SWEEP_APPEND_RATE = 1;
export const DEFAULT_SWEEP_SEED = 1;

export type { Backoff } from '@racelab/engine/conflict';

/** The engine's retry policy (what the sweep writers and the contention model retry by), named. */
export interface RetryPolicy extends EngineRetryPolicy {
  name: RetryPolicyName;
}

/**
 * The presets. pyiceberg-like: pyiceberg's commit.retry.num-retries 4 (+ the first try), min-wait 100 ms, max-wait
 * 60 s; its retries redo the commit, so they are the app loop here. spark-like: Delta Spark's unbounded loop.
 */
export const RETRY_POLICIES: Readonly<Record<Exclude<RetryPolicyName, 'custom'>, RetryPolicy>> = {
  'delta-rs': { name: 'delta-rs', maxCommitRetries: 15, appTries: 1, backoff: null },
  none: { name: 'none', maxCommitRetries: 0, appTries: 1, backoff: null },
  'pyiceberg-like': {
    name: 'pyiceberg-like',
    maxCommitRetries: 0,
    appTries: 5,
    backoff: { baseMs: 100, capMs: 60_000, jitter: 'full' },
  },
  'spark-like': { name: 'spark-like', maxCommitRetries: MAX_SWEEP_COMMIT_RETRIES, appTries: 1, backoff: null },
};

const object = <E extends v.ObjectEntries>(entries: E) =>
  notList(v.object(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object'));
const wholeNumber = (min: number, max: number) => {
  const message = (issue: v.BaseIssue<unknown>) =>
    `must be a whole number from ${min} to ${max}, got ${describe(issue.input)}`;
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
};
const described = <S extends v.GenericSchema>(schema: S, description: string) =>
  v.pipe(schema, v.description(description));
const oneOf = (values: readonly string[]) => mustBe(`one of ${values.join(', ')}`);

const backoffSchema = v.pipe(
  object({
    baseMs: wholeNumber(0, MAX_SWEEP_BACKOFF_MS),
    capMs: wholeNumber(0, MAX_SWEEP_BACKOFF_MS),
    jitter: v.picklist(JITTERS, oneOf(JITTERS)),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.capMs < dataset.value.baseMs) {
      addIssue({ message: 'policy.backoff.capMs must be at least baseMs' });
    }
  }),
);

/** A policy as numbers: what results carry, and what `custom` gives. Its output is the engine's RetryPolicy. */
export const retryPolicySchema = object({
  name: v.picklist(RETRY_POLICY_NAMES, oneOf(RETRY_POLICY_NAMES)),
  maxCommitRetries: described(
    wholeNumber(0, MAX_SWEEP_COMMIT_RETRIES),
    "the engine's commit loop: delta-rs max_commit_retries",
  ),
  appTries: described(wholeNumber(1, MAX_SWEEP_APP_TRIES), "the application loop's tries of the whole change"),
  backoff: described(
    v.nullable(backoffSchema),
    'pause before app try t > 1: min(cap, base * 2^(t-2)); full jitter uniform(0, that), equal that/2 + uniform(0, that/2)',
  ),
}) satisfies v.GenericSchema<unknown, RetryPolicy>;

const PRESETS = RETRY_POLICY_NAMES.filter((n) => n !== 'custom');

/** A preset's name, or a policy as numbers; each form's problems are its own (a union would say only "neither"). */
const presetName = v.picklist(
  PRESETS,
  (issue) => `must be one of ${PRESETS.join(', ')} (or custom numbers), got ${describe(issue.input)}`,
);
const eitherForm = v.union(
  [presetName, retryPolicySchema],
  (issue) => `must be a preset's name or { name, maxCommitRetries, appTries, backoff }, got ${describe(issue.input)}`,
);
// Also what the JSON Schema is made from (the getter is called with no input): either form.
const policyInput = v.lazy((input) =>
  typeof input === 'string' ? presetName : isObject(input) ? retryPolicySchema : eitherForm,
);

const writersList = v.pipe(
  v.array(wholeNumber(1, MAX_SWEEP_WRITERS), mustBe('a list of writer counts')),
  v.minLength(1, 'must name at least one writer count'),
  v.maxLength(DEFAULT_SWEEP_WRITERS.length * 2, `must name at most ${DEFAULT_SWEEP_WRITERS.length * 2} points`),
  v.rawCheck<number[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<number>();
    for (const n of dataset.value) {
      if (seen.has(n)) addIssue({ message: `writers: ${n} is given twice` });
      seen.add(n);
    }
  }),
);

/** The commits a sweep makes in all: N x K per point, and the compactor's K per point for compaction. */
export function sweepCommits(input: { writers: readonly number[]; commitsPerWriter: number; operation: string }) {
  const compactor = input.operation === 'compaction' ? 1 : 0;
  return input.writers.reduce((sum, n) => sum + (n + compactor) * input.commitsPerWriter, 0);
}

const scenarioName = v.picklist(SWEEP_SCENARIO_NAMES, oneOf(SWEEP_SCENARIO_NAMES));

const entries = {
  scenario: described(
    v.nullish(scenarioName),
    `a named setting that fixes writers, commitsPerWriter and operation (${SWEEP_SCENARIO_NAMES.join(', ')}); the policy stays the sweep's`,
  ),
  writers: described(
    v.nullish(writersList, () => [...DEFAULT_SWEEP_WRITERS]),
    `N for each point, 1 to ${MAX_SWEEP_WRITERS} (default ${DEFAULT_SWEEP_WRITERS.join(', ')})`,
  ),
  commitsPerWriter: described(
    v.nullish(wholeNumber(1, MAX_SWEEP_COMMITS_PER_WRITER), DEFAULT_SWEEP_COMMITS),
    'K: the commits each writer makes (the compactor too, for compaction)',
  ),
  operation: described(
    v.picklist(SWEEP_OPERATIONS, (issue) => (issue.input == null ? 'is required' : oneOf(SWEEP_OPERATIONS)(issue))),
    'what each commit does',
  ),
  appendRatePerSec: described(
    v.nullish(
      v.pipe(
        v.number(mustBe('a number')),
        v.finite(mustBe('a number')),
        v.check(
          (r) => r > 0 && r <= MAX_SWEEP_APPEND_RATE,
          (issue) => `must be above 0 and at most ${MAX_SWEEP_APPEND_RATE}, got ${describe(issue.input)}`,
        ),
      ),
    ),
    `compaction only: appends per second per append writer (default ${DEFAULT_SWEEP_APPEND_RATE})`,
  ),
  policy: described(v.nullish(policyInput, 'delta-rs'), "a preset's name, or custom numbers (default delta-rs)"),
  seed: described(
    v.nullish(wholeNumber(0, 2 ** 32 - 1), DEFAULT_SWEEP_SEED),
    "the app loop's jitter and the synthetic rows",
  ),
  tableFormat: described(
    v.nullish(v.picklist(SWEEP_TABLE_FORMATS, oneOf(SWEEP_TABLE_FORMATS)), 'delta'),
    'the table format the writers commit to (default delta); iceberg takes operation append-row only',
  ),
  catalog: described(
    v.nullish(v.picklist(SWEEP_CATALOGS, oneOf(SWEEP_CATALOGS))),
    'iceberg only: the SQL catalog (default sqlite; postgres is not supported by sweeps yet)',
  ),
};

/** What the table format refuses: Iceberg's operations and catalogs, and a catalog given to Delta. */
function tableFormatProblems(input: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (input.tableFormat === 'iceberg') {
    const op = input.operation;
    if (typeof op === 'string' && (SWEEP_OPERATIONS as readonly string[]).includes(op)) {
      if (!ICEBERG_SWEEP_OPERATIONS.includes(op as SweepOperation)) {
        problems.push(
          `operation ${op} is not supported on Iceberg: Iceberg sweeps support ${ICEBERG_SWEEP_OPERATIONS.join(', ')}`,
        );
      }
    }
    if (input.catalog === 'postgres') {
      problems.push(
        'catalog postgres is not supported by sweeps yet: Iceberg sweeps commit through the SQLite catalog',
      );
    }
  } else if ((input.tableFormat == null || input.tableFormat === 'delta') && input.catalog != null) {
    problems.push('catalog applies to tableFormat iceberg only');
  }
  return problems;
}

/** What the CLI and startSweep take, as given. */
export const startSweepInputSchema = v.pipe(
  notList(v.object(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object')),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!isObject(dataset.value)) return;
    const input = dataset.value;
    if (input.appendRatePerSec != null && input.operation !== 'compaction') {
      addIssue({ message: 'appendRatePerSec applies to compaction only' });
    }
    for (const message of tableFormatProblems(input)) addIssue({ message });
    const policy = input.policy;
    if (isObject(policy) && typeof policy.name === 'string' && policy.name !== 'custom') {
      // Own keys only: a name such as 'toString' is no preset (the name's own check refuses it).
      const preset = Object.hasOwn(RETRY_POLICIES, policy.name)
        ? RETRY_POLICIES[policy.name as keyof typeof RETRY_POLICIES]
        : undefined;
      if (preset && JSON.stringify(normalisedPolicy(policy as unknown as RetryPolicy)) !== JSON.stringify(preset)) {
        addIssue({ message: `policy ${policy.name} is a preset; give name custom for numbers of your own` });
      }
    }
    if (!dataset.typed) return;
    const { writers, commitsPerWriter, operation } = dataset.value;
    const total = sweepCommits({ writers, commitsPerWriter, operation });
    if (total > MAX_SWEEP_COMMITS) {
      addIssue({
        message: `the sweep makes ${total} commits (N x K over the points${operation === 'compaction' ? ', plus the compactor' : ''}); at most ${MAX_SWEEP_COMMITS}`,
      });
    }
  }),
);

/** A policy's fields in a fixed order, so two policies compare as text. */
function normalisedPolicy(p: RetryPolicy): RetryPolicy {
  return {
    name: p.name,
    maxCommitRetries: p.maxCommitRetries,
    appTries: p.appTries,
    backoff: p.backoff && { baseMs: p.backoff.baseMs, capMs: p.backoff.capMs, jitter: p.backoff.jitter },
  };
}

export type StartSweepInput = v.InferInput<typeof startSweepInputSchema>;

/** A checked sweep input: defaults filled in, the policy as numbers. What results carry. */
export interface SweepInput {
  /** The scenario that fixed writers, commitsPerWriter and operation, when one did. */
  scenario?: SweepScenarioName;
  writers: number[];
  commitsPerWriter: number;
  operation: SweepOperation;
  /** Compaction only (per append writer). */
  appendRatePerSec?: number;
  policy: RetryPolicy;
  seed: number;
  /** Iceberg only (absent: Delta). */
  tableFormat?: SweepTableFormat;
  /** Iceberg only: its SQL catalog. */
  catalog?: SweepCatalog;
}

/** The checked input as results carry it (contracts/sweep-results.schema.json's `input`). */
export const sweepInputSchema = object({
  scenario: v.optional(scenarioName),
  writers: writersList,
  commitsPerWriter: wholeNumber(1, MAX_SWEEP_COMMITS_PER_WRITER),
  operation: v.picklist(SWEEP_OPERATIONS, oneOf(SWEEP_OPERATIONS)),
  appendRatePerSec: v.optional(v.pipe(v.number(mustBe('a number')), v.finite(mustBe('a number')))),
  policy: retryPolicySchema,
  seed: wholeNumber(0, 2 ** 32 - 1),
  tableFormat: v.optional(v.picklist(SWEEP_TABLE_FORMATS, oneOf(SWEEP_TABLE_FORMATS))),
  catalog: v.optional(v.picklist(SWEEP_CATALOGS, oneOf(SWEEP_CATALOGS))),
});

/** A sweep's input checked against the bounds before any work: every problem at once, or the normalised input. */
export function checkSweepInput(input: unknown): Checked<SweepInput> {
  const resolved = withScenario(input);
  const checked = checkWith(startSweepInputSchema, resolved.input, () => ({ label: null, depth: 0 }));
  if (!checked.ok || resolved.problems.length > 0) {
    return { ok: false, problems: [...resolved.problems, ...(checked.ok ? [] : checked.problems)] };
  }
  const { scenario, writers, commitsPerWriter, operation, appendRatePerSec, policy, seed, tableFormat, catalog } =
    checked.value;
  return {
    ok: true,
    value: {
      ...(scenario != null && { scenario }),
      writers,
      commitsPerWriter,
      operation,
      ...(operation === 'compaction' && { appendRatePerSec: appendRatePerSec ?? DEFAULT_SWEEP_APPEND_RATE }),
      policy: typeof policy === 'string' ? { ...RETRY_POLICIES[policy] } : normalisedPolicy(policy as RetryPolicy),
      seed,
      ...(tableFormat === 'iceberg' && { tableFormat, catalog: catalog ?? 'sqlite' }),
    },
  };
}

/** The format a checked input's tables are in (results written before Iceberg sweeps carry none: Delta). */
export const sweepTableFormatOf = (input: Pick<SweepInput, 'tableFormat'>): SweepTableFormat =>
  input.tableFormat ?? 'delta';
