/**
 * The lab's results file (generated into contracts/lab-results.schema.json): written by `npm run lab -- --json
 * FILE`, read by `npm run lab:report FILE`. Fields the lab added after the first version are optional, so older
 * files still read; fields it does not know are dropped. Optional lists and maps read as empty, and a missing
 * nullable count as null.
 */
import * as v from 'valibot';
import { type Checked, checkWith, isObject, objectMessage } from './problems';
import { notList } from './shapes';
import { WRITER_OUTCOMES } from './writer-outcome';

const DATA_SOURCES = ['synthetic', 'tlc'] as const;
const VERDICT_STATUSES = ['serializable', 'reordered', 'not-serializable'] as const;
const EXAMPLE_KINDS = ['duplicated', 'missing', 'extra'] as const;
/** real: the library itself ran the writer's change; emulated: the engine ran it as the library would. */
export const WRITER_RUNS = ['real', 'emulated'] as const;
export type WriterRun = (typeof WRITER_RUNS)[number];

const text = v.string('must be a string');
const flag = v.boolean('must be a boolean');
const number = v.pipe(v.number('must be a number'), v.finite('must be a number'));
const integer = v.pipe(v.number('must be an integer'), v.integer('must be an integer'));
const count = v.pipe(integer, v.minValue(0, 'must be at least 0'));
const nullableInteger = v.nullish(integer, null);
const texts = v.array(text, 'must be an array');
const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

function object<E extends v.ObjectEntries>(entries: E) {
  return notList(
    v.object(
      entries,
      objectMessage(entries, () => 'must be an object'),
    ),
    () => 'must be an object',
  );
}
const list = <S extends v.GenericSchema>(item: S) => v.array(item, 'must be an array');
const map = <S extends v.GenericSchema>(value: S) =>
  notList(v.record(v.string(), value, 'must be an object'), () => 'must be an object');

const attemptError = object({
  attempt: integer,
  errorClass: text,
  errorMessage: text,
  readVersion: v.optional(v.nullable(integer)),
});

const writerResult = object({
  name: text,
  operation: v.pipe(
    text,
    v.description(
      'append, update, delete, overwrite, merge, optimize, check-then-append, iceberg-append, postgres-update',
    ),
  ),
  committed: flag,
  outcome: v.pipe(
    v.optional(v.picklist(WRITER_OUTCOMES, oneOf(WRITER_OUTCOMES))),
    v.description(
      'committed, failed, or nothing-to-commit (no error, nothing written: e.g. a delete or update that matched no rows; its warnings hold "nothing to commit"). Absent in older files: read it from committed, errorMessage and warnings',
    ),
  ),
  version: v.pipe(nullableInteger, v.description('table version (Delta) or null')),
  attempts: v.pipe(count, v.description('how many times the writer ran its whole change (1 without a retry loop)')),
  commitRetries: v.pipe(nullableInteger, v.description('versions the library moved past inside the final attempt')),
  attemptErrors: v.pipe(
    v.optional(list(attemptError), () => []),
    v.description('every error the writer caught before its final attempt, in order'),
  ),
  waitedOnLock: v.pipe(v.nullish(flag, null), v.description('Postgres cases: did this writer wait on a row lock')),
  warnings: v.optional(list(text), () => []),
  errorClass: v.pipe(
    v.nullable(v.string('must be a string or null')),
    v.description('the final failure; null when the writer committed'),
  ),
  errorMessage: v.nullable(v.string('must be a string or null')),
  readVersion: v.optional(v.nullable(integer)),
  timings: v.optional(object({ opened: number, prepared: number, released: number, finished: number })),
  filesWritten: v.optional(integer),
  bytesWritten: v.optional(number),
  peakRssMb: v.optional(number),
  host: v.optional(text),
  filesRemoved: v.optional(integer),
  filesAdded: v.optional(integer),
  observed: v.optional(map(integer)),
  library: v.pipe(
    v.optional(text),
    v.description("the library that ran the change, by the engine's names: delta-rs, pyiceberg, delta-spark"),
  ),
  libraryVersion: v.pipe(
    v.optional(text),
    v.description("that library's version: a real library's own (e.g. 1.6.6), the engine's for an emulated writer"),
  ),
  run: v.pipe(
    v.optional(v.picklist(WRITER_RUNS, oneOf(WRITER_RUNS))),
    v.description('real: the library itself ran the change; emulated: the engine ran it as the library would'),
  ),
  log: v.pipe(
    v.optional(text),
    v.description(
      "a real writer's own output (stdout and stderr, its end when long), kept when it ended without a result",
    ),
  ),
});

const tableCheck = object({
  version: nullableInteger,
  rows: integer,
  distinctTripIds: v.pipe(nullableInteger, v.description("lab tables only: null for a table of the user's own")),
  // The lesson's figures exist for the lab's tables only: a race on a table of the user's own leaves them out.
  tripsOnDay: v.pipe(
    v.optional(map(integer)),
    v.description('lab tables only: trips per lab day, e.g. {"2025-02-14": 158575}'),
  ),
  tipDeltaByVendor: v.pipe(
    v.optional(map(number)),
    v.description('lab tables only: sum of (tip now - original tip) per VendorID'),
  ),
  tipChangedByVendor: v.optional(map(integer)),
  tipDeltaValues: v.optional(list(number)),
  tripsByVendor: v.optional(map(integer)),
  dataFilesOnDisk: nullableInteger,
  dataFilesInLog: nullableInteger,
  stagingFilesOnDisk: v.optional(integer),
  tempLogFilesOnDisk: v.optional(integer),
});

const verdict = object({
  status: v.picklist(VERDICT_STATUSES, oneOf(VERDICT_STATUSES)),
  order: texts,
  summary: text,
  rowsDuplicated: v.optional(count),
  rowsMissing: v.optional(count),
  rowsExtra: v.optional(count),
  writers: v.optional(list(object({ name: text, notApplied: flag, appliedTwice: flag }))),
  examples: v.optional(
    list(
      object({
        kind: v.picklist(EXAMPLE_KINDS, oneOf(EXAMPLE_KINDS)),
        // Kept whole: a row's columns are the table's, whatever they are.
        row: v.pipe(
          v.custom<Record<string, unknown>>(isObject, 'must be an object'),
          v.metadata({ jsonSchema: { type: 'object' } }),
        ),
      }),
    ),
  ),
  failedWriters: list(object({ name: text, rowsTouched: count, untouched: flag, summary: text })),
  nothingToCommit: v.pipe(
    v.optional(list(object({ name: text, summary: text }))),
    v.description(
      'writers that ended with nothing to commit, e.g. "del1\'s delete matched no rows: nothing to commit" (no failure: they are not among failedWriters)',
    ),
  ),
  oracleMs: number,
});

const ROLES = ['add', 'remove', 'cdc'] as const;
const nullableText = v.nullable(text);
const commitSummary = object({
  version: integer,
  writer: nullableText,
  operation: nullableText,
  operationParameters: v.pipe(
    v.custom<Record<string, unknown>>(isObject, 'must be an object'),
    v.metadata({ jsonSchema: { type: 'object' } }),
  ),
  readVersion: v.nullable(integer),
  isolationLevel: nullableText,
  isBlindAppend: v.nullable(flag),
  files: list(
    object({
      role: v.picklist(ROLES, oneOf(ROLES)),
      partitionValues: map(nullableText),
      numRecords: v.nullable(count),
      dataChange: v.nullable(flag),
      deletionVector: flag,
    }),
  ),
  otherActions: texts,
});

const runResult = object({
  index: v.pipe(integer, v.minValue(1, 'must be at least 1')),
  writers: list(writerResult),
  table: tableCheck,
  // Older results files have no verdict; when one is there it must be whole.
  verdict: v.optional(verdict),
  commitOrder: v.optional(texts),
  durationMs: v.optional(number),
  commits: v.pipe(
    v.optional(list(commitSummary)),
    v.description('each commit the race wrote, as parsed values (Delta cases; `npm run lab -- compare` reads them)'),
  ),
});

const caseResult = object({
  // `custom`: a race of one's own writers (`npm run lab -- --table … --writers …`), which no preset names.
  id: v.pipe(text, v.regex(/^([A-Z][0-9]|custom)$/, 'must be a letter and a digit, like "B1", or "custom"')),
  title: v.optional(text),
  runs: list(runResult),
});

const resultsEntries = {
  createdAt: v.pipe(
    text,
    v.check((at) => !Number.isNaN(Date.parse(at)), 'must be a date-time'),
    v.metadata({ jsonSchema: { format: 'date-time' } }),
  ),
  scale: v.pipe(number, v.gtValue(0, 'must be > 0 and ≤ 1'), v.maxValue(1, 'must be > 0 and ≤ 1')),
  dataSource: v.picklist(DATA_SOURCES, 'must be "synthetic" or "tlc"'),
  versions: v.pipe(
    map(text),
    v.description('node, the engine, duckdb, postgres server, and any other library that decides an outcome'),
  ),
  dataDir: v.pipe(
    text,
    v.description("the data set's folder (january.parquet, feb-YYYY-MM-DD.parquet), relative to the file's"),
  ),
  cases: list(caseResult),
};

export const labResultsSchema = v.pipe(
  notList(
    v.object(
      resultsEntries,
      objectMessage(resultsEntries, () => '(the file) must be an object'),
    ),
    () => '(the file) must be an object',
  ),
  v.description('Counts are integers; messages are the exact full text the writer caught.'),
);

export type LabResults = v.InferOutput<typeof labResultsSchema>;

/** A results file's JSON checked: every problem names the file (`label`) and the field's path. */
export function checkLabResults(json: unknown, label: string): Checked<LabResults> {
  return checkWith(labResultsSchema, json, () => ({ label, depth: 0 }));
}
