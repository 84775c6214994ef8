/**
 * A sweep's results (generated into contracts/sweep-results.schema.json): written by `npm run lab -- sweep --json
 * FILE` and stored by the API. One point per N, in the order run; the forecast's lines when a model ran.
 */
import * as v from 'valibot';
import { type Checked, checkWith, mustBe, objectMessage } from './problems';
import { notList } from './shapes';
import { type SweepInput, sweepInputSchema } from './sweep-input';

const object = <E extends v.ObjectEntries>(entries: E) =>
  notList(v.object(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object'));
const text = v.string(mustBe('a string'));
const flag = v.boolean(mustBe('a boolean'));
const number = v.pipe(v.number(mustBe('a number')), v.finite(mustBe('a number')));
const amount = v.pipe(number, v.minValue(0, 'must be at least 0'));
const count = v.pipe(
  v.number(mustBe('an integer')),
  v.integer(mustBe('an integer')),
  v.minValue(0, 'must be at least 0'),
);
const fraction = v.pipe(number, v.minValue(0, 'must be from 0 to 1'), v.maxValue(1, 'must be from 0 to 1'));
const list = <S extends v.GenericSchema>(item: S) => v.array(item, mustBe('an array'));
const described = <S extends v.GenericSchema>(schema: S, description: string) =>
  v.pipe(schema, v.description(description));
const dateTime = v.pipe(
  text,
  v.check((at) => !Number.isNaN(Date.parse(at)), 'must be a date-time'),
  v.metadata({ jsonSchema: { format: 'date-time' } }),
);

const quantiles = object({ p10: amount, p50: amount, p90: amount, p99: amount });
const failures = described(
  list(object({ message: text, count })),
  'by the exact engine or app message, most frequent first',
);

const sweepPointSchema = object({
  writers: described(count, 'N'),
  durationMs: described(amount, 'first release to last writer done'),
  commits: object({ acknowledged: count, failed: count, intended: count }),
  failures,
  attempts: object({
    total: count,
    successPerAttempt: described(fraction, 'acknowledged / total'),
    histogram: described(list(object({ attempts: count, commits: count })), 'attempts per acknowledged commit'),
  }),
  commitsPerSec: described(amount, 'acknowledged / (durationMs / 1000)'),
  latencyMs: described(
    object({ p50: amount, p99: amount, mean: amount }),
    "per acknowledged commit, from its first try's start to its acknowledgement",
  ),
  wasted: object({
    bytes: described(amount, 'written by attempts that lost'),
    files: described(count, 'written by attempts that lost'),
    orphanFiles: described(count, 'data files under the table no version references'),
  }),
  checks: object({
    versionsContiguous: flag,
    exactlyOnce: flag,
    lost: count,
    duplicated: count,
    wrongVersion: v.optional(
      described(count, 'acknowledged commits found at another version than the writer was told'),
    ),
    failedPresent: v.optional(described(count, 'commits their writer saw fail, found in the log')),
    verdict: v.picklist(['serial', 'not-serial'], mustBe('serial or not-serial')),
    verdictNote: text,
  }),
  compactor: v.optional(object({ acknowledged: count, attempts: count, successPerAttempt: fraction, failures })),
  measured: described(
    object({ attemptMs: quantiles, prepareMs: quantiles, appPauseMs: quantiles }),
    "the forecast's inputs: one attempt (list latest, check winners, claim), the change's preparation before its first attempt, the app loop's pauses; 0s when nothing was measured",
  ),
});

const forecastPoint = object({
  writers: count,
  successPerAttempt: fraction,
  exhaustion: fraction,
  commitsPerSec: amount,
});

const forecastHold = object({
  writers: count,
  successPerAttempt: object({
    forecast: fraction,
    measured: fraction,
    low: described(fraction, "the measured proportion's 95 % Wilson interval, less 3 points"),
    high: described(fraction, "the measured proportion's 95 % Wilson interval, plus 3 points"),
    inside: flag,
  }),
  commitsPerSec: object({
    forecast: amount,
    measured: amount,
    relError: described(number, '(forecast - measured) / measured; negative when the forecast is low'),
    within: described(flag, 'within 25 % of the measured'),
  }),
  holds: described(flag, 'both bounds hold: when not, the point fails its forecast check'),
});

export const sweepForecastSchema = object({
  model: v.picklist(['commit-loop-simulation'], mustBe('commit-loop-simulation')),
  curve: described(list(forecastPoint), 'N = 1 .. the largest N measured'),
  atPoints: list(forecastPoint),
  error: described(
    object({ successPerAttemptMeanAbs: amount, commitsPerSecMeanRel: amount }),
    'vs the measured points',
  ),
  loadSource: v.optional(
    described(
      v.picklist(['step-times', 'load-average'], mustBe('step-times or load-average')),
      'where the model took the load it runs under from',
    ),
  ),
  holds: v.optional(described(list(forecastHold), "each measured point against the forecast's bounds")),
});

const resultsEntries = {
  kind: v.picklist(['racelab-sweep'], mustBe('racelab-sweep')),
  formatVersion: v.picklist([1], mustBe('1')),
  startedAt: dateTime,
  finishedAt: dateTime,
  machine: object({ cores: count, platform: text, node: text }),
  input: sweepInputSchema,
  store: described(v.picklist(['local', 's3'], mustBe('local or s3')), 'where the tables lived'),
  points: described(list(sweepPointSchema), 'one per N, in the order run'),
  forecast: v.nullable(sweepForecastSchema),
};

export const sweepResultsSchema = notList(
  v.object(
    resultsEntries,
    objectMessage(resultsEntries, () => '(the file) must be an object'),
  ),
  () => '(the file) must be an object',
);

export type SweepPoint = v.InferOutput<typeof sweepPointSchema>;
export type SweepForecast = v.InferOutput<typeof sweepForecastSchema>;
export type Quantiles = v.InferOutput<typeof quantiles>;
export type SweepResults = Omit<v.InferOutput<typeof sweepResultsSchema>, 'input'> & { input: SweepInput };
export type SweepFailure = SweepPoint['failures'][number];

/** A sweep results document checked: every problem names the field's path. */
export function checkSweepResults(json: unknown, label = 'sweep results'): Checked<SweepResults> {
  return checkWith(sweepResultsSchema, json, () => ({ label, depth: 0 })) as Checked<SweepResults>;
}
