/**
 * Problems as people read them. A check reports every problem at once, one line each, naming what it belongs
 * to (the job, the writer, the file) and the field: "job 'x': commitProperties.maxCommitRetries must be an integer
 * >= 0, got -1". The schemas' own messages say only what is wrong with a value ("must be a boolean"); the field's
 * path and the subject are added here, from where the issue sits in the document.
 */
import * as v from 'valibot';

export type Issue = v.BaseIssue<unknown>;
type Key = string | number;

/** The outcome of a check: the checked value, or every problem found. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/**
 * Where an issue belongs: the subject's words (null for the document as a whole), how many path keys name it, and
 * its rank: lines are listed by rank, in the document's order within one.
 */
export interface Subject {
  label: string | null;
  depth: number;
  rank?: number;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as a message quotes it: text in quotes (cut at 60 characters), lists and objects by kind. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`;
  return String(value);
}

/** The message of a value that is not what a field expects: "must be a string, got 7". */
export const mustBe = (expected: string) => (issue: Issue) => `must be ${expected}, got ${describe(issue.input)}`;

/** As mustBe, for a field that must be there: a null says "is required" (in YAML, `table:` with nothing after it). */
export const requiredAs = (expected: string) => (issue: Issue) =>
  issue.input == null ? 'is required' : mustBe(expected)(issue);

/**
 * The message of an object schema with `entries`, which valibot also gives the issue of a key left out: that
 * issue has a path (the key), and is said as the key's own schema says it of nothing ("is required", "must be
 * an array"); one about the object itself has none.
 */
export function objectMessage(entries: v.ObjectEntries, whole: (issue: Issue) => string) {
  return (issue: Issue) => {
    if (!issue.path) return whole(issue);
    const entry = entries[String(issue.path[0]?.key)];
    return (entry && v.safeParse(entry, undefined).issues?.[0]?.message) || 'is required';
  };
}

/** The keys of an issue's path, outermost first. */
function keysOf(issue: Issue): Key[] {
  return (issue.path ?? []).map((item) => item.key as Key);
}

/** A path of keys as code writes it: `cases[2].runs[0]`, `commitProperties.isBlindAppend`, `tableProperties['a.b']`. */
function pathText(keys: readonly Key[]): string {
  let text = '';
  for (const key of keys) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) text += text === '' ? key : `.${key}`;
    else text += `['${key}']`;
  }
  return text;
}

/**
 * One issue as a line. A rule's message (valibot's raw_check) is whole: it names its own field, as rules across
 * fields must. Any other message says what is wrong with the value at the issue's path, so the path goes first.
 */
function problemLine(issue: Issue, subject: Subject): string {
  const path = pathText(keysOf(issue).slice(subject.depth));
  const text = issue.type === 'raw_check' || path === '' ? issue.message : `${path} ${issue.message}`;
  return subject.label === null ? text : `${subject.label}: ${text}`;
}

/**
 * `input` checked against `schema`, every problem at once. A number outside its bounds fails several of its
 * checks with one message; the same line is given once.
 */
export function checkWith<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  subjectOf: (keys: Key[]) => Subject,
): Checked<v.InferOutput<S>> {
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output };
  const lines = result.issues
    .map((issue) => {
      const subject = subjectOf(keysOf(issue));
      return { rank: subject.rank ?? 0, line: problemLine(issue, subject) };
    })
    .sort((a, b) => a.rank - b.rank);
  return { ok: false, problems: [...new Set(lines.map((l) => l.line))] };
}
