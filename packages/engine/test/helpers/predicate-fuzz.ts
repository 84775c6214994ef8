/**
 * A seeded fuzzer of the predicate path: grammar-aware predicate text over the taxi schema (columns,
 * literals of every type, operators, the allowed functions, CASTs), salted with hostile tokens
 * (other functions, subqueries, `;`, comments, quotes, unicode, NUL). Every predicate the parser
 * accepts is rendered, and DuckDB's own parser (`json_serialize_sql`) must find in it exactly one
 * SELECT with no subquery, no table function, only allowed functions and only schema columns; it
 * must then pass checkExpressionRuns or be refused with an ExpressionError. Used by the engine's
 * tests at a small size and by bench/predicate-fuzz.ts at any size.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { field, type StructType } from '../../src/kernel/delta/protocol/schema';
import {
  ALLOWED_FUNCTIONS,
  ExpressionError,
  parsePredicate,
  renderExpression,
  renderSql,
} from '../../src/kernel/sql/index';
import { checkExpressionRuns } from '../../src/ops/parquet/expression-check';
import { TLC_SCHEMA } from './taxi';

/** The lab's taxi columns with their types, plus one column of each type the taxi files lack. */
export const FUZZ_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    ...TLC_SCHEMA.fields,
    field('event_time', 'timestamp'),
    field('day', 'date'),
    field('flag', 'boolean'),
    field('price', 'decimal(10,2)'),
    field('small', 'short'),
    field('tiny', 'byte'),
    field('ratio', 'float'),
    field('payload', 'binary'),
  ],
};

/** Operators DuckDB's parse shows as FUNCTION nodes: the grammar's arithmetic and negation. */
const OPERATOR_FUNCTIONS = ['+', '-', '*', '/', '%'];
/** Expression node classes of DuckDB's parse that the grammar can produce. */
const ALLOWED_CLASSES = new Set([
  'COMPARISON',
  'CONJUNCTION',
  'OPERATOR',
  'FUNCTION',
  'CAST',
  'CONSTANT',
  'COLUMN_REF',
  'BETWEEN',
]);

/** mulberry32: small, fast and the same on every platform. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [
  '0',
  '1',
  '2',
  '6',
  '-1',
  '007',
  '1.5',
  '.5',
  '2.',
  '1e3',
  '1e300',
  '1e-7',
  '1e999',
  '2147483647',
  '2147483648',
  '-2147483648',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '99999999999',
  '99999999999999999999999',
  '123456789012345678901234567890123456789',
];
const STRINGS = [
  "'N'",
  "'Y'",
  "''",
  "'it''s'",
  "'é'",
  "'😀'",
  "'\u0000'",
  "'a\u0000b'",
  "'2025-02-14'",
  "'2025-02-30'",
  "'2025-02-14 10:00:00'",
  "'abc'",
  "'1'",
  "' 1 '",
  "'0x10'",
  "'1e5'",
  "'NaN'",
  "'inf'",
  "'--'",
  "';'",
  "'\\'",
];
const OTHER_LITERALS = [
  "DATE '2025-02-14'",
  "DATE '0001-01-01'",
  "DATE '9999-12-31'",
  "DATE '2025-13-01'",
  "TIMESTAMP '2025-02-14 23:59:59.999999'",
  "TIMESTAMP '2025-02-14'",
  "TIMESTAMP '9999-12-31 23:59:59'",
  "TIMESTAMP '2025-02-14T10:00:00Z'",
  'TRUE',
  'FALSE',
  'NULL',
];
const CAST_TYPES = [
  'DATE',
  'TIMESTAMP',
  'BIGINT',
  'INTEGER',
  'DOUBLE',
  'VARCHAR',
  'DECIMAL(10,2)',
  'DECIMAL(38,0)',
  'DECIMAL(3,2)',
  'DECIMAL(18,4)',
  'DECIMAL(1,0)',
  'DECIMAL(39,0)',
  'DECIMAL(2,3)',
  'BLOB',
  'INT[]',
  'HUGEINT',
];
const COMPARE_OPS = ['=', '<>', '!=', '<', '<=', '>', '>='];
const ARITH_OPS = ['+', '-', '*', '/', '%'];
/** Functions DuckDB has and the grammar must never pass on: files, processes, settings, other SQL. */
const HOSTILE_FUNCTIONS = [
  'read_csv',
  'read_csv_auto',
  'read_parquet',
  'read_text',
  'read_blob',
  'read_json',
  'glob',
  'system',
  'getenv',
  'query',
  'query_table',
  'pg_sleep',
  'pg_read_file',
  'current_setting',
  'load_extension',
  'sqlite_scan',
  'postgres_scan',
  'json_serialize_sql',
  'list_transform',
  'regexp_matches',
  'concat',
  'md5',
  'now',
  'random',
  'nextval',
  'version',
  'duckdb_settings',
  'Round',
  'ABS',
  'l0wer',
];
/** Text spliced into a predicate at a random point. */
const HOSTILE_TOKENS = [
  ';',
  '; DROP TABLE t',
  ' -- x',
  '/* x */',
  '(SELECT 1)',
  ' UNION SELECT 1',
  'EXISTS (SELECT 1)',
  '\u0000',
  "'",
  '"',
  '::INTEGER',
  '$1',
  '?',
  '||',
  '@',
  '[1]',
  '{',
  '}',
  '\\',
  "e'\\x41'",
  "x'41'",
  '"t"."VendorID"',
  't.VendorID',
  '*',
  '\u200b',
  'ＳＥＬＥＣＴ',
  ' COLLATE "C"',
  " LIKE 'a%'",
  " ~ 'a'",
  'CASE WHEN TRUE THEN 1 END',
  '1_000',
  '0x10',
  "ATTACH 'x'",
  'PRAGMA x',
  "COPY t TO 'x'",
  '$$x$$',
  "E'x'",
  "U&'x'",
  'Ｖｅｎｄｏｒ',
  'VendorІD',
  '"VendorID"',
  '"vendorid"',
  '""',
  '"a""b"',
  'INTERVAL 1 DAY',
  'TRY_CAST(1 AS INTEGER)',
  '1::TEXT',
  'ARRAY[1]',
  'ROW(1)',
  'struct_pack(a := 1)',
  '->',
  '#',
  '`x`',
  '\n',
  '\t',
  '\r\n',
];

class Generator {
  constructor(private readonly random: () => number) {}

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  column(): string {
    const name = this.pick(FUZZ_SCHEMA.fields).name;
    if (this.chance(0.03)) return this.pick(['no_such_column', 'VENDORID', 'vendor_id', '_delta_log', 'rowid']);
    if (this.chance(0.1)) return `"${name}"`;
    return this.chance(0.1) ? name.toLowerCase() : name;
  }

  literal(): string {
    const r = this.random();
    if (r < 0.4) return this.pick(NUMBERS);
    return r < 0.7 ? this.pick(STRINGS) : this.pick(OTHER_LITERALS);
  }

  /** A literal DuckDB would compare with a column of `type` without a type error, mostly. */
  typedLiteral(type: unknown): string {
    if (type === 'string') return this.pick(STRINGS);
    if (type === 'boolean') return this.pick(['TRUE', 'FALSE', 'NULL']);
    if (type === 'date') return this.pick(["DATE '2025-02-14'", "'2025-02-01'", "DATE '0001-01-01'", 'NULL']);
    if (type === 'timestamp' || type === 'timestamp_ntz') {
      return this.pick([
        "TIMESTAMP '2025-02-14 10:00:00'",
        "'2025-02-14'",
        "'2025-02-14 10:00:00+01:00'",
        "DATE '2025-02-14'",
      ]);
    }
    return this.pick(NUMBERS);
  }

  /** A column compared with values of its own type: the part of the grammar most predicates use. */
  typedCondition(): string {
    const f = this.pick(FUZZ_SCHEMA.fields);
    const col = this.chance(0.2) ? `"${f.name}"` : f.name;
    const not = this.chance(0.2) ? 'NOT ' : '';
    const r = this.random();
    if (r < 0.5) return `${col} ${this.pick(COMPARE_OPS)} ${this.typedLiteral(f.type)}`;
    if (r < 0.7) {
      const list = Array.from({ length: 1 + this.int(4) }, () => this.typedLiteral(f.type));
      return `${col} ${not}IN (${list.join(', ')})`;
    }
    if (r < 0.85) return `${col} ${not}BETWEEN ${this.typedLiteral(f.type)} AND ${this.typedLiteral(f.type)}`;
    const fn = this.pick(['abs', 'round', 'lower', 'upper', 'coalesce']);
    return `${fn}(${col}) ${this.pick(COMPARE_OPS)} ${this.typedLiteral(f.type)}`;
  }

  value(depth: number): string {
    const r = depth <= 0 ? this.random() * 0.5 : this.random();
    if (r < 0.25) return this.column();
    if (r < 0.5) return this.literal();
    if (r < 0.62) return `${this.value(depth - 1)} ${this.pick(ARITH_OPS)} ${this.value(depth - 1)}`;
    if (r < 0.66) return `-${this.value(depth - 1)}`;
    if (r < 0.8) return this.call(depth - 1);
    if (r < 0.92) return `CAST(${this.value(depth - 1)} AS ${this.pick(CAST_TYPES)})`;
    if (r < 0.95) return `date(${this.value(depth - 1)})`;
    return `(${this.value(depth - 1)})`;
  }

  call(depth: number): string {
    const name = this.chance(0.85) ? this.pick(ALLOWED_FUNCTIONS) : this.pick(HOSTILE_FUNCTIONS);
    const args = Array.from({ length: this.int(4) }, () => this.value(depth));
    if (name === 'round' && this.chance(0.5)) args.splice(1, args.length - 1, this.pick(NUMBERS));
    return `${name}(${args.join(', ')})`;
  }

  condition(depth: number): string {
    const r = depth <= 0 ? this.random() * 0.55 : this.random();
    const not = this.chance(0.2) ? 'NOT ' : '';
    if (this.chance(0.4)) return this.typedCondition();
    if (r < 0.3) return `${this.value(depth - 1)} ${this.pick(COMPARE_OPS)} ${this.value(depth - 1)}`;
    if (r < 0.36) return `${this.value(depth - 1)} IS ${not}NULL`;
    if (r < 0.44) {
      const list = Array.from({ length: 1 + this.int(4) }, () => this.literal());
      return `${this.value(depth - 1)} ${not}IN (${list.join(', ')})`;
    }
    if (r < 0.5) return `${this.value(depth - 1)} ${not}BETWEEN ${this.literal()} AND ${this.literal()}`;
    if (r < 0.55) return this.pick(['flag', 'TRUE', 'FALSE', 'NULL', '"flag"']);
    if (r < 0.62) return `NOT ${this.condition(depth - 1)}`;
    if (r < 0.67) return `${this.condition(depth - 1)} IS ${not}${this.pick(['TRUE', 'FALSE'])}`;
    if (r < 0.9) {
      const parts = Array.from({ length: 2 + this.int(3) }, () => this.condition(depth - 1));
      return parts.join(this.chance(0.5) ? ' AND ' : ' OR ');
    }
    return `(${this.condition(depth - 1)})`;
  }

  /** A predicate, hostile about one time in three: a token spliced in, or a character dropped. */
  predicate(): string {
    const text = this.chance(0.85) ? this.condition(1 + this.int(4)) : this.value(1 + this.int(3));
    const r = this.random();
    if (r < 0.25) {
      const at = this.int(text.length + 1);
      return `${text.slice(0, at)}${this.pick(HOSTILE_TOKENS)}${text.slice(at)}`;
    }
    if (r < 0.3) {
      const at = this.int(text.length);
      return `${text.slice(0, at)}${text.slice(at + 1)}`;
    }
    return text;
  }
}

/** `count` fuzzed predicate texts from `seed`, the same ones fuzzPredicates runs. */
export function fuzzedPredicates(count: number, seed: number): string[] {
  const gen = new Generator(seededRandom(seed));
  return Array.from({ length: count }, () => gen.predicate());
}

interface SqlNode {
  [key: string]: unknown;
}

/**
 * What DuckDB's parse of `SELECT * FROM t WHERE <rendered>` holds outside the allow-list, as
 * messages: none for a predicate that is what the engine says it is.
 */
export function parseProblems(serialized: string, schema: StructType): string[] {
  const parsed = JSON.parse(serialized) as { error: boolean; error_message?: string; statements?: SqlNode[] };
  if (parsed.error) return [`DuckDB cannot parse it: ${parsed.error_message}`];
  const statements = parsed.statements ?? [];
  if (statements.length !== 1) return [`${statements.length} statements`];
  const node = (statements[0] as SqlNode).node as SqlNode;
  const from = node.from_table as SqlNode;
  const problems: string[] = [];
  if (node.type !== 'SELECT_NODE') problems.push(`a ${String(node.type)} statement`);
  if (from?.type !== 'BASE_TABLE' || from.table_name !== 't') problems.push(`reads from ${JSON.stringify(from)}`);
  const columns = new Set(schema.fields.map((f) => f.name.toLowerCase()));
  const functions = new Set([...ALLOWED_FUNCTIONS, ...OPERATOR_FUNCTIONS]);
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const item of x) visit(item);
      return;
    }
    if (x === null || typeof x !== 'object') return;
    const n = x as SqlNode;
    if (typeof n.class === 'string') {
      if (!ALLOWED_CLASSES.has(n.class)) problems.push(`a ${n.class} node (${String(n.type)})`);
      if (n.class === 'FUNCTION' && !functions.has(String(n.function_name))) {
        problems.push(`function ${String(n.function_name)}`);
      }
      const names = n.column_names as string[] | undefined;
      if (n.class === 'COLUMN_REF' && (names?.length !== 1 || !columns.has(String(names[0]).toLowerCase()))) {
        problems.push(`column ${JSON.stringify(names)}`);
      }
      if (n.class === 'CAST' && n.try_cast) problems.push('a TRY_CAST');
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === 'subquery' || (key === 'type' && value === 'SELECT_NODE')) problems.push('a subquery');
      visit(value);
    }
  };
  visit(node.where_clause);
  for (const key of ['select_list', 'group_expressions', 'having', 'qualify', 'modifiers', 'sample']) {
    const part = node[key];
    const expected = key === 'select_list' ? 1 : 0;
    if (Array.isArray(part) ? part.length > expected : part != null) problems.push(`a ${key}`);
  }
  return problems;
}

export interface FuzzResult {
  cases: number;
  /** Refused by the parser or binder with an ExpressionError. */
  refused: number;
  accepted: number;
  /** Accepted predicates that DuckDB binds and evaluates (the rest were refused by checkExpressionRuns). */
  runs: number;
  /** Hostile function names the parser refused, by name: evidence that the hostile half was exercised. */
  hostileRefused: number;
  /** The first refusals by checkExpressionRuns, for a reader to judge their wording. */
  runRefusals: string[];
  /** Predicates that broke a rule, with what was wrong: must be empty. */
  failures: { text: string; problem: string }[];
}

const fail = (r: FuzzResult, text: string, problem: string) => r.failures.push({ text, problem });

/** Runs `count` predicates from `seed` through the parser, DuckDB's parse and checkExpressionRuns. */
export async function fuzzPredicates(conn: DuckDBConnection, count: number, seed: number): Promise<FuzzResult> {
  const gen = new Generator(seededRandom(seed));
  const schema = FUZZ_SCHEMA;
  const serialize = await conn.prepare(`SELECT json_serialize_sql('SELECT * FROM t WHERE ' || $1)`);
  const result: FuzzResult = {
    cases: count,
    refused: 0,
    accepted: 0,
    runs: 0,
    hostileRefused: 0,
    runRefusals: [],
    failures: [],
  };
  try {
    for (let i = 0; i < count; i++) {
      const text = gen.predicate();
      let expr: ReturnType<typeof parsePredicate>;
      try {
        expr = parsePredicate(text, schema);
      } catch (e) {
        if (!(e instanceof ExpressionError)) fail(result, text, `the parser threw ${(e as Error).name}: ${e}`);
        result.refused++;
        if (HOSTILE_FUNCTIONS.some((f) => text.includes(`${f}(`))) result.hostileRefused++;
        continue;
      }
      result.accepted++;
      const rendered = renderSql(expr);
      serialize.bindVarchar(1, rendered);
      const serialized = String((await serialize.runAndReadAll()).getRows()[0]?.[0]);
      for (const problem of parseProblems(serialized, schema)) fail(result, text, `${problem} in ${rendered}`);
      // The human rendering (commitInfo's predicate) must read back as the same predicate.
      const human = renderExpression(expr);
      try {
        const again = renderSql(parsePredicate(human, schema));
        if (again !== rendered) fail(result, text, `${human} reads back as ${again}, not ${rendered}`);
      } catch (e) {
        fail(result, text, `${human} does not read back: ${(e as Error).message}`);
      }
      try {
        await checkExpressionRuns(conn, schema, expr);
        result.runs++;
      } catch (e) {
        if (!(e instanceof ExpressionError)) {
          fail(result, text, `checkExpressionRuns threw ${(e as Error).name}: ${e}`);
        } else {
          if (/SELECT|FROM \(|CAST\(NULL/.test(e.message)) fail(result, text, `the refusal quotes SQL: ${e.message}`);
          if (result.runRefusals.length < 10) result.runRefusals.push(`${text} → ${e.message}`);
        }
      }
    }
  } finally {
    serialize.destroySync();
  }
  return result;
}
