/**
 * Error text that may be stored and shown to a client (a race's reason, a writer's error message): the
 * engine's own messages pass byte for byte (delta-rs's texts are the product's contract and carry no
 * server folder), while anything else loses what only the server should see: stack frames, the SQL a
 * DuckDB or Postgres error quotes, and absolute paths, which become `$LAB_WORK_DIR/…` under a known
 * folder or `…/<last segment>` elsewhere. The result is bounded, and applying it again changes nothing,
 * so text stored before this existed can be passed through it when it is read.
 */
import { resolve } from 'node:path';

/** A server folder that messages may show by a name the operator knows it by. */
export interface NamedRoot {
  name: string;
  path: string;
}

export interface SafeMessageOptions {
  /** Paths inside these folders are shown as `<name>/<path inside>` (the deepest folder wins). */
  roots?: readonly NamedRoot[];
}

/** The longest text returned: a reason or an error message, not a log. */
export const MAX_SAFE_MESSAGE = 500;

/** The lab's folders under the names of the settings that choose them (relative ones resolved as the lab does). */
export function namedRoots(dirs: {
  workDir?: string;
  dataDir?: string | undefined;
  roots?: readonly string[];
}): NamedRoot[] {
  const named: NamedRoot[] = [];
  if (dirs.workDir) named.push({ name: '$LAB_WORK_DIR', path: resolve(dirs.workDir) });
  if (dirs.dataDir) named.push({ name: '$LAB_DATA_DIR', path: resolve(dirs.dataDir) });
  const tableRoots = dirs.roots ?? [];
  tableRoots.forEach((path, i) => {
    named.push({ name: tableRoots.length === 1 ? '$LAB_ROOTS' : `$LAB_ROOTS[${i + 1}]`, path: resolve(path) });
  });
  return named;
}

/** DuckDB's exception types, as its messages name them (`<type> Error: …`). */
const DUCKDB_TYPES = [
  'Binder',
  'Catalog',
  'Connection',
  'Constraint',
  'Conversion',
  'Decimal',
  'Dependency',
  'Divide by Zero',
  'Executor',
  'Expression',
  'Extension Autoloading',
  'FATAL',
  'HTTP',
  'INTERNAL',
  'INTERRUPT',
  'IO',
  'Index',
  'Invalid',
  'Invalid Configuration',
  'Invalid Input',
  'Invalid type',
  'Mismatch Type',
  'Missing Extension',
  'Not implemented',
  'NullPointer',
  'Object Size',
  'Optimizer',
  'Out of Memory',
  'Out of Range',
  'Parameter Not Allowed',
  'Parameter Not Resolved',
  'Parser',
  'Permission',
  'Planner',
  'Scheduler',
  'Sequence',
  'Serialization',
  'Settings',
  'Stat',
  'Syntax',
  'TransactionContext',
  'Unknown Type',
];
const DUCKDB_ERROR = new RegExp(`^(?:${DUCKDB_TYPES.join('|')}) Error: [^\\n]*`);

/** Where a statement starts: DuckDB and Postgres end their messages with `LINE n:` and the statement. */
const LINE_MARKER = /^LINE \d+:/m;
/** A statement quoted in running text; uppercase keywords only, as the engine and the lab write their SQL. */
const STATEMENT =
  /\b(?:SELECT\s[\s\S]*?\bFROM\b|COPY\s*\(|COPY\s+\S+\s+(?:TO|FROM)\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:TABLE|VIEW|MACRO|INDEX|TYPE)\s)|\b(?:read_parquet|read_csv(?:_auto)?|read_json(?:_auto)?|parquet_metadata|parquet_schema)\s*\(/;
/** A V8 stack frame line, DuckDB's internal-error trace, and the source lines Prisma quotes after its call. */
const STACK_FRAME = /^\s+at (?:.*:\d+:\d+\)?|.*\((?:<anonymous>|native)\))\s*$/gm;
const STACK_TRACE = /\n\s*Stack Trace:?[\s\S]*$/;
const PRISMA_CALL = /^(\s*Invalid `[^`\n]+` invocation)(?: in)?\n\S+$/m;
const CODE_FRAME = /^\s*(?:→\s*)?\d+ .*$/gm;
/**
 * An absolute path: a `/` at the start or after a space, quote, bracket, `=`, `,` or `:`, not followed
 * by another `/` (so `s3://bucket/key` is left alone), up to the next space, quote or bracket.
 */
const ABSOLUTE_PATH = /(?<=^|[\s'"`([{<=,:])\/(?!\/)[^\s'"`()[\]{}<>,;|]+/g;

/** Longer input is cut before it is parsed: the patterns then run over a bounded text. */
const INPUT_LIMIT = 8 * MAX_SAFE_MESSAGE;

function messageOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  if (e.message !== '') return e.message;
  // Node's connection errors are AggregateErrors with an empty message of their own.
  if (e instanceof AggregateError) return e.errors.map(messageOf).join('; ');
  return e.name;
}

/** A DuckDB error keeps its type and first line (its own summary); the rest is detail and SQL. */
function summariseDuckDb(text: string): string {
  const m = DUCKDB_ERROR.exec(text);
  return m ? `DuckDB could not run a query: ${m[0].trimEnd()}` : text;
}

function withoutSql(text: string): string {
  let out = text;
  const line = LINE_MARKER.exec(out);
  if (line) out = out.slice(0, line.index).trimEnd();
  const statement = STATEMENT.exec(out);
  if (statement) out = `${out.slice(0, statement.index).trimEnd()} (SQL omitted)`.trimStart();
  return out;
}

function withoutStack(text: string): string {
  let out = text.replace(STACK_TRACE, '').replace(STACK_FRAME, '');
  if (PRISMA_CALL.test(out)) out = out.replace(PRISMA_CALL, '$1').replace(CODE_FRAME, '');
  return out === text ? text : out.replace(/\n{2,}/g, '\n').trim();
}

function relativePaths(text: string, roots: readonly NamedRoot[]): string {
  const known = roots
    .map((r) => ({ name: r.name, path: r.path.replace(/\/+$/, '') }))
    .filter((r) => r.path.startsWith('/') && r.path.length > 1)
    .sort((a, b) => b.path.length - a.path.length);
  return text.replace(/file:\/\/(?=\/)/g, '').replace(ABSOLUTE_PATH, (match) => {
    // A sentence's full stop or colon after a path is not part of it.
    const path = match.replace(/[.:]+$/, '');
    const tail = match.slice(path.length);
    const root = known.find((r) => path === r.path || path.startsWith(`${r.path}/`));
    if (root) return `${root.name}${path.slice(root.path.length)}${tail}`;
    const last = path.split('/').filter(Boolean).at(-1);
    return `…/${last ?? ''}${tail}`;
  });
}

function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never leave half of a surrogate pair behind.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * `e` (an error, or text stored earlier) as text safe to store and show a client. Text with no stack,
 * SQL or absolute path and within the bound comes back unchanged, byte for byte.
 */
export function clientSafeMessage(e: unknown, options: SafeMessageOptions = {}): string {
  const text = withoutSql(summariseDuckDb(withoutStack(messageOf(e).slice(0, INPUT_LIMIT))));
  return bounded(relativePaths(text, options.roots ?? []), MAX_SAFE_MESSAGE);
}
