/**
 * A table's history audit (generated into contracts/table-history.schema.json): written by `npm run audit --
 * history LOCATION --json FILE` and returned by the API's tableHistory. Each commit the log keeps as evidence (its
 * writer, its read, whom it was concurrent with and how that is known), the concurrent ones re-judged under every
 * writer library and isolation level, keys present more than once and the commits that added them, the findings
 * and the summary's figures under plain names.
 */
import * as v from 'valibot';
import { type Checked, checkWith, mustBe, objectMessage } from './problems';
import { notList } from './shapes';

const object = <E extends v.ObjectEntries>(entries: E) =>
  notList(v.object(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object'));
const text = v.string(mustBe('a string'));
const maybeText = v.nullable(text);
const flag = v.boolean(mustBe('a boolean'));
const whole = v.pipe(v.number(mustBe('an integer')), v.integer(mustBe('an integer')));
const count = v.pipe(whole, v.minValue(0, 'must be at least 0'));
const version = v.pipe(whole, v.minValue(0, 'must be at least 0'));
const ms = described(v.nullable(v.number(mustBe('a number'))), 'ms since the epoch');
const list = <S extends v.GenericSchema>(item: S) => v.array(item, mustBe('an array'));
function described<S extends v.GenericSchema>(schema: S, description: string) {
  return v.pipe(schema, v.description(description));
}
const oneOf = <T extends string>(values: readonly T[]) => v.picklist(values, mustBe(`one of ${values.join(', ')}`));

export const CONCURRENCY_EVIDENCE = ['recorded', 'inferred', 'unknown'] as const;
export const HISTORY_SEVERITIES = ['error', 'warning', 'info'] as const;
export const JUDGED_OUTCOMES = ['commit', 'conflict', 'cannot-judge'] as const;

const writerSchema = object({
  library: described(maybeText, 'delta-rs, delta-spark, databricks; null when the commit does not say'),
  version: maybeText,
  engineInfo: maybeText,
  appId: described(maybeText, "a txn action's appId, or commitInfo's job, notebook or cluster id"),
  userMetadata: maybeText,
});

const commitSchema = object({
  version,
  timestamp: ms,
  startedAt: described(v.nullable(v.number(mustBe('a number'))), 'timestamp − operationMetrics.execution_time_ms'),
  operation: maybeText,
  predicate: described(maybeText, 'the read predicate of an UPDATE, DELETE or MERGE, as recorded'),
  readVersion: v.nullable(whole),
  isolationLevel: described(maybeText, "commitInfo's isolationLevel, as recorded"),
  isBlindAppend: v.nullable(flag),
  isolationProperty: described(maybeText, 'delta.isolationLevel in force when the commit read the table'),
  writer: writerSchema,
  concurrentWith: described(list(version), 'the versions that landed between its read and its landing'),
  evidence: described(oneOf(CONCURRENCY_EVIDENCE), 'how concurrentWith is known'),
  adds: count,
  removes: count,
});

const findingSchema = object({
  rule: described(text, 'the rule id: docs/history.md has an anchor for each'),
  severity: oneOf(HISTORY_SEVERITIES),
  versions: list(version),
  evidence: text,
  fix: text,
});

const judgementSchema = object({
  library: text,
  level: text,
  outcome: oneOf(JUDGED_OUTCOMES),
  conflict: maybeText,
  message: maybeText,
});

const rejudgementSchema = object({
  version,
  judgements: list(judgementSchema),
  cannotJudge: described(maybeText, 'why the log lacks what any judgement needs'),
  readVersion: described(whole, 'the version it read: recorded, else the one before the first commit it overlapped'),
  evidence: described(oneOf(CONCURRENCY_EVIDENCE), 'how its overlap is known'),
  winners: described(list(version), 'the commits it was judged against, in order'),
  library: described(maybeText, 'the library its writer was judged as (delta-rs-legacy before 1.2); null when unknown'),
  asConfigured: described(
    list(judgementSchema),
    "each library under the table's property in force, at the level it reads there ('unreadable' when none)",
  ),
  agreesWithLog: described(
    v.nullable(flag),
    "its own library's checker lets it through under the property in force, as the log shows; null when not judged",
  ),
});

const keyValue = v.union([text, v.number(), flag, v.null()], mustBe('a string, number, boolean or null'));

const duplicatesSchema = object({
  key: list(text),
  atVersion: version,
  distinct: described(count, 'distinct keys present more than once'),
  keys: list(
    object({
      values: v.record(v.string(), keyValue, mustBe('an object')),
      count,
      addedBy: list(object({ version, rows: count, writer: writerSchema, concurrent: flag })),
    }),
  ),
  truncated: flag,
});

const summarySchema = object({
  commits: count,
  writers: count,
  concurrentCommits: described(count, 'concurrent with at least one other commit, recorded or inferred'),
  inferredConcurrentCommits: count,
  unknownConcurrency: described(count, 'commits with neither readVersion nor timing: not known to be safe'),
  longestConcurrentChain: count,
  commitsPerHour: v.nullable(v.number(mustBe('a number'))),
  busiestHour: v.nullable(object({ start: text, commits: count, concurrentCommits: count })),
  duplicateKeys: described(v.nullable(count), 'distinct keys present more than once; null without a key'),
});

export const tableHistorySchema = object({
  location: described(text, 'the table as it was named'),
  range: object({
    fromVersion: version,
    latestVersion: whole,
    oldestKept: version,
    since: maybeText,
  }),
  commits: list(commitSchema),
  rejudgements: list(rejudgementSchema),
  duplicates: v.nullable(duplicatesSchema),
  findings: list(findingSchema),
  summary: summarySchema,
  failed: described(flag, 'some finding is an error (the CLI exits 1)'),
});

export type TableHistoryDocument = v.InferOutput<typeof tableHistorySchema>;

/** A parsed table history (from its JSON) checked: the document, or every problem named with its field. */
export function checkTableHistory(data: unknown): Checked<TableHistoryDocument> {
  return checkWith(tableHistorySchema, data, () => ({ label: null, depth: 0 }));
}
