/**
 * A code audit's result (generated into contracts/code-audit.schema.json): written by `npm run audit -- code PATH…
 * --json FILE` and returned by the API's auditCode. Every setting that decides concurrency found in the code, at
 * the file, line and column where its value is written; the findings about them; what was read and what was not.
 */
import * as v from 'valibot';
import { type Checked, checkWith, mustBe, objectMessage } from './problems';
import { notList } from './shapes';

const object = <E extends v.ObjectEntries>(entries: E) =>
  notList(v.object(entries, objectMessage(entries, mustBe('an object'))), mustBe('an object'));
const text = v.string(mustBe('a string'));
const flag = v.boolean(mustBe('a boolean'));
const count = v.pipe(
  v.number(mustBe('an integer')),
  v.integer(mustBe('an integer')),
  v.minValue(0, 'must be at least 0'),
);
const position = v.pipe(
  v.number(mustBe('an integer')),
  v.integer(mustBe('an integer')),
  v.minValue(1, 'must be at least 1'),
);
const list = <S extends v.GenericSchema>(item: S) => v.array(item, mustBe('an array'));
const described = <S extends v.GenericSchema>(schema: S, description: string) =>
  v.pipe(schema, v.description(description));
const oneOf = <T extends string>(values: readonly T[]) => v.picklist(values, mustBe(`one of ${values.join(', ')}`));

export const SETTING_KINDS = [
  'table-property',
  'commit-isolation',
  'commit-retries',
  'blind-append',
  'spark-conf',
] as const;
export const CODE_LANGUAGES = ['sql', 'python', 'scala', 'java', 'shell', 'yaml', 'json'] as const;
export const CODE_SEVERITIES = ['error', 'warning', 'note'] as const;

const file = described(text, "relative to the scanned root, with '/'");

const codeSettingSchema = object({
  file,
  line: described(position, "1-based line of the value's first character"),
  column: described(position, "1-based column of the value's first character (a string's opening quote), UTF-16 units"),
  endColumn: described(position, "1-based column just past the value's last character"),
  endLine: v.optional(described(position, "the value's last line, when it spans lines")),
  keyLine: v.optional(described(position, "the key's line, when it is not the value's")),
  key: described(text, 'the key as written: delta.isolationLevel, max_commit_retries, spark.databricks.delta.…'),
  value: described(
    v.nullable(text),
    "a string literal's content, a number or boolean as written; null when not a constant",
  ),
  raw: described(text, "the value's source text exactly as written, quotes included"),
  constant: flag,
  kind: oneOf(SETTING_KINDS),
  via: described(text, 'how it was set: TBLPROPERTIES, CommitProperties, spark.conf.set, --conf, …'),
  language: oneOf(CODE_LANGUAGES),
  table: v.optional(described(text, 'the table, when the code names it with a literal')),
  writer: described(v.nullable(oneOf(['delta-rs', 'spark'] as const)), 'the writer the code uses, when it says'),
});

const codePlaceSchema = object({
  file,
  line: position,
  column: position,
  endColumn: v.optional(position),
  message: v.optional(text),
});

const codeFindingSchema = object({
  rule: described(text, 'the rule id: docs/jobs-audit.md has an anchor for each'),
  severity: oneOf(CODE_SEVERITIES),
  at: codePlaceSchema,
  related: described(list(codePlaceSchema), 'the other places the finding names'),
  table: v.optional(text),
  evidence: text,
  fix: text,
});

const fileProblemSchema = object({ file, line: position, column: position, message: text });

export const codeAuditSchema = object({
  settings: list(codeSettingSchema),
  findings: list(codeFindingSchema),
  files: object({
    scanned: described(count, 'files of a kind the audit reads that were read (with no hint of a setting: not parsed)'),
    skipped: described(list(object({ file, reason: text })), 'files and folders not read, and why'),
    unparseable: described(list(fileProblemSchema), 'where a file could not be read whole, with the reason'),
  }),
  failed: described(flag, 'some finding is an error (the CLI exits 1)'),
});

export type CodeAuditDocument = v.InferOutput<typeof codeAuditSchema>;

/** A parsed code audit (from its JSON) checked: the document, or every problem named with its field. */
export function checkCodeAudit(data: unknown): Checked<CodeAuditDocument> {
  return checkWith(codeAuditSchema, data, () => ({ label: null, depth: 0 }));
}
