/**
 * Settings in Spark SQL, read with dt-sql-parser's Spark grammar (loaded only when SQL is read: see sql.ts): the `delta.*` table properties of CREATE,
 * REPLACE, CTAS and CREATE … LIKE (TBLPROPERTIES, and OPTIONS, which Delta also takes as table properties),
 * ALTER TABLE … SET TBLPROPERTIES, and `SET spark.databricks.delta.… = …` confs. `.sql` files (dbt models
 * too: their Jinja is blanked first, and `{{ config(…) }}` read by the Jinja config reader) and SQL embedded in
 * other files (`sqlSettings`: a Python or Scala string, a heredoc). Each statement is parsed on its own, so
 * one that does not parse is a problem with its line and the others still count; queries and DML, which set
 * nothing, are not parsed. Comments are tokens the parser skips, so a setting in a comment is never read.
 */
import { SparkSQL, SparkSqlParserListener } from 'dt-sql-parser';
import {
  CreateTableClausesContext,
  CreateTableLikeContext,
  type ExpressionPropertyContext,
  type PropertyContext,
  type PropertyKeyContext,
  SetAnyContext,
  SetConfigAndValueContext,
  SetConfigAnyKeyContext,
  SetConfigContext,
  SetTablePropertiesContext,
} from 'dt-sql-parser/dist/lib/spark/SparkSqlParser.js';
import type { CodeSetting, Extraction, Extractor, FileProblem, SettingKind, WriterHint } from '../setting';
import { type Embedded, LineIndex } from '../source-map';
import { blankJinja } from './jinja-blocks';
import { settingsInJinjaConfig } from './python';
import { interpolated, interpolationEnd, isDeltaConfKey, isDeltaTableProperty, valuePlace } from './value-place';

const spark = new SparkSQL();

/** The lexer's token types this reader needs (SparkSqlLexer's constants). */
const SEMICOLON = 1;
const DOT = 5;
const DEFAULT_CHANNEL = 0;
const NAME_PART = /^(?:[A-Za-z_][\w$]*|`[^`]*`)$/;

/** A rule context or token, as far as this reader looks at it. */
interface Span {
  start: { start: number; type: number } | null;
  stop: { stop: number } | null;
}

/** Where a setting found in SQL text is written: SQL offsets mapped to the host file. */
interface SqlHost {
  host: LineIndex;
  /** The host offset of SQL offset `offset`. */
  hostOffset(offset: number): number;
  file: string;
  writer: WriterHint;
  /** The table a setting applies to when its statement does not name one (a dbt model's own table). */
  table?: string;
}

/** A statement of the SQL text: where it starts, its text, and the text the parser reads. */
interface Statement {
  offset: number;
  text: string;
  parsed: string;
  /** The statement's first word, upper-cased: `CREATE`, `ALTER`, `SET`, `SELECT`, … */
  verb: string;
}

/**
 * Statements that never set a table property or a conf (queries, DML, maintenance): not parsed, which keeps a
 * scan fast (the grammar's first parse of each kind of statement is slow). Any other statement is parsed,
 * so a misspelt verb is reported.
 */
const NO_SETTING_VERBS = new Set(
  'SELECT WITH FROM VALUES TABLE INSERT MERGE UPDATE DELETE OPTIMIZE VACUUM ZORDER DESCRIBE DESC SHOW USE DROP TRUNCATE REFRESH ANALYZE CACHE UNCACHE CLEAR EXPLAIN GRANT REVOKE COPY MSCK RESET LIST ADD RESTORE FSCK CONVERT'.split(
    ' ',
  ),
);

/** A variable Spark substitutes before it parses (`${level}`, `${hivevar:schema}`): its value is not known. */
const VARIABLE = /\$\{[^}\n]*\}/g;

/** Overwrites chars[from..to] (inclusive) with `fill`, keeping line breaks. */
function blankOut(chars: string[], from: number, to: number, fill: string): void {
  for (let at = from; at <= to; at++) if (chars[at] !== '\n') chars[at] = fill;
}

/**
 * The statements of `sql`, split at the semicolons the lexer sees (never in strings or comments), blank ones
 * dropped. What Spark and Databricks take that the grammar does not is blanked in the text the parser reads,
 * offsets unchanged, names and values still read from the text as written: a `${variable}` becomes an
 * underscore identifier; in a name of three parts or more (Unity Catalog's `catalog.schema.table`; the
 * grammar takes `db.table`) all but the last part become one; a CREATE or REPLACE TABLE's `CLUSTER BY (…)` /
 * `AUTO` / `NONE` becomes spaces.
 */
function statements(sql: string): Statement[] {
  const substituted = sql.replace(VARIABLE, (variable) => '_'.repeat(variable.length));
  const tokens = spark
    .createLexer(substituted, () => undefined)
    .getAllTokens()
    .filter((token) => token.channel === DEFAULT_CHANNEL);
  const parsed = substituted.split('');
  const out: Statement[] = [];
  let first = -1;
  let last = -1;
  const word = (i: number) => tokens[i]?.text?.toUpperCase() ?? '';
  const name = (i: number) => NAME_PART.test(tokens[i]?.text ?? '');
  const dot = (i: number) => tokens[i]?.type === DOT;
  const close = () => {
    const start = tokens[first]?.start ?? 0;
    const end = (tokens[last]?.stop ?? -1) + 1;
    if (first >= 0)
      out.push({
        offset: start,
        text: sql.slice(start, end),
        parsed: parsed.slice(start, end).join(''),
        verb: word(first),
      });
    first = -1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (token.type === SEMICOLON) {
      close();
      continue;
    }
    if (first < 0) first = i;
    last = i;
    if (word(i) === 'CLUSTER' && word(i + 1) === 'BY' && ['CREATE', 'REPLACE'].includes(word(first))) {
      let end = i + 2;
      if (word(end) === '(') {
        for (let depth = 0; end < tokens.length && tokens[end]?.type !== SEMICOLON; end++) {
          depth += word(end) === '(' ? 1 : word(end) === ')' ? -1 : 0;
          if (depth === 0) break;
        }
      }
      if (['(', 'AUTO', 'NONE'].includes(word(i + 2)))
        blankOut(parsed, token.start, tokens[end]?.stop ?? token.start, ' ');
    }
    if (!name(i) || dot(i - 1)) continue;
    let end = i;
    while (dot(end + 1) && name(end + 2)) end += 2;
    if (end - i >= 4) blankOut(parsed, token.start, tokens[end - 2]?.stop ?? token.start, '_');
  }
  close();
  return out;
}

function textOf(sql: string, span: Span): string {
  return sql.slice(span.start?.start ?? 0, (span.stop?.stop ?? -1) + 1);
}

/** A SQL literal's content: quotes removed from each adjacent string part; numbers and booleans as written. */
function literalValue(raw: string): string {
  const parts = raw.match(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g);
  if (!parts) return raw;
  return parts.map((part) => part.slice(1, -1)).join('');
}

/** A property key as Spark reads it: a quoted key's content, or dotted identifiers without backquotes or blanks. */
function unquoteKey(key: PropertyKeyContext, sql: string): string {
  const text = textOf(sql, key);
  return /^['"]/.test(text) ? literalValue(text) : text.replace(/`/g, '').replace(/\s+/g, '');
}

/** The name of the table a TBLPROPERTIES or OPTIONS list belongs to: the name its statement gives. */
function tableAbove(node: { parent: unknown } | null): Span | undefined {
  for (let at = node?.parent as Named | null; at; at = at.parent) {
    const name = at.tableNameCreate?.() ?? at.tableName?.();
    if (name) return name;
  }
  return undefined;
}

interface Named {
  parent: Named | null;
  tableNameCreate?: () => Span | null;
  tableName?: () => Span | null;
}

type Placed = Omit<CodeSetting, 'kind' | 'via'>;

/**
 * A setting whose value spans SQL offsets [start, end), placed in the host; a value that an interpolation
 * stands in (an f-string field, a shell `$X`) is not a constant, and its raw text is the host's.
 */
function placeSetting(
  at: SqlHost,
  key: string,
  keyStart: number,
  start: number,
  end: number,
  raw: string,
  contentOf: (raw: string) => string,
): Placed {
  const hostStart = at.hostOffset(start);
  const hostEnd = interpolationEnd(at.host.text, at.hostOffset(end - 1) + 1);
  const written = at.host.text.slice(hostStart, hostEnd);
  const computed = interpolated(written, raw) || new RegExp(VARIABLE.source).test(raw);
  return {
    file: at.file,
    ...valuePlace(at.host, hostStart, hostEnd, at.hostOffset(keyStart)),
    key,
    value: computed ? null : contentOf(raw),
    raw: computed ? written : raw,
    constant: !computed,
    language: 'sql',
    ...(at.table !== undefined ? { table: at.table } : {}),
    writer: at.writer,
  };
}

/** Reads the settings of one parsed statement. */
class SettingsListener extends SparkSqlParserListener {
  readonly found: CodeSetting[] = [];

  constructor(
    private readonly sql: string,
    private readonly base: number,
    private readonly at: SqlHost,
  ) {
    super();
  }

  private add(key: string, keyStart: number, value: Span, kind: SettingKind, via: string, table?: string): void {
    const start = (value.start?.start ?? 0) + this.base;
    const end = (value.stop?.stop ?? 0) + 1 + this.base;
    const setting = placeSetting(this.at, key, this.base + keyStart, start, end, textOf(this.sql, value), literalValue);
    this.found.push({ ...setting, kind, via, ...(table !== undefined ? { table } : {}) });
  }

  /** A table name as written, when it is a literal (not an interpolation's placeholder). */
  private literalName(name: Span | undefined): string | undefined {
    if (!name) return undefined;
    const start = (name.start?.start ?? 0) + this.base;
    const end = (name.stop?.stop ?? 0) + 1 + this.base;
    const text = textOf(this.sql, name);
    const written = this.at.host.text.slice(this.at.hostOffset(start), this.at.hostOffset(end - 1) + 1);
    return interpolated(written, text) || new RegExp(VARIABLE.source).test(text) || /^_+$/.test(text)
      ? undefined
      : text;
  }

  private property(ctx: PropertyContext | ExpressionPropertyContext, value: Span | null, via: string): void {
    const key = ctx.propertyKey();
    if (!value || ctx.exception) return;
    const name = unquoteKey(key, this.sql);
    if (!isDeltaTableProperty(name)) return;
    this.add(name, key.start?.start ?? 0, value, 'table-property', via, this.literalName(tableAbove(ctx)));
  }

  override enterProperty = (ctx: PropertyContext) => {
    const holder = ctx.parent?.parent;
    if (holder instanceof SetTablePropertiesContext && holder.KW_VIEW() === null)
      this.property(ctx, ctx.propertyValue(), 'ALTER TABLE SET TBLPROPERTIES');
    if (holder instanceof CreateTableClausesContext && holder._tableProps === ctx.parent)
      this.property(ctx, ctx.propertyValue(), 'TBLPROPERTIES');
    if (holder instanceof CreateTableLikeContext) this.property(ctx, ctx.propertyValue(), 'TBLPROPERTIES');
  };

  override enterExpressionProperty = (ctx: ExpressionPropertyContext) => {
    if (ctx.parent?.parent instanceof CreateTableClausesContext) this.property(ctx, ctx.expression(), 'OPTIONS');
  };
}

/** Spark's `SET key = value` takes the rest of the statement raw: the key up to `=`, the value trimmed. */
function setConf(statement: Statement, at: SqlHost): CodeSetting | null {
  const match = /^(\s*SET\s+)(`[^`]*`|[^=]*?)(\s*=\s*)(.*?)\s*$/is.exec(statement.text);
  if (!match) return null;
  const [, lead = '', keyText = '', eq = '', raw = ''] = match;
  const key = keyText.replace(/^`|`$/g, '');
  if (!isDeltaConfKey(key) || raw === '') return null;
  const keyStart = statement.offset + lead.length;
  const start = keyStart + keyText.length + eq.length;
  const unquote = (text: string) => (text.startsWith('`') && text.endsWith('`') ? text.slice(1, -1) : text);
  return {
    ...placeSetting(at, key, keyStart, start, start + raw.length, raw, unquote),
    kind: 'spark-conf',
    via: 'SET',
  };
}

/** The grammar's forms of `SET key = value` (the others, `SET TIME ZONE`, `SET VAR`, … set no conf). */
const SET_CONF = [SetAnyContext, SetConfigContext, SetConfigAndValueContext, SetConfigAnyKeyContext];

/** The settings and problems of SQL text `sql`, placed through `at`. */
function readSql(sql: string, at: SqlHost): Extraction {
  const settings: CodeSetting[] = [];
  const problems: FileProblem[] = [];
  for (const statement of statements(sql)) {
    if (NO_SETTING_VERBS.has(statement.verb)) continue;
    let error: FileProblem | null = null;
    const tree = spark.parse(statement.parsed, (parseError, raw) => {
      if (error) return;
      const offset = statement.offset + (raw.offendingSymbol?.start ?? 0);
      const where = at.host.at(at.hostOffset(Math.min(offset, Math.max(0, sql.length - 1))));
      error = { file: at.file, ...where, message: `SQL does not parse (Spark SQL): ${parseError.message}` };
    });
    if (error) problems.push(error);
    const parsed = tree.singleStatement(0)?.statement();
    if (SET_CONF.some((form) => parsed instanceof form)) {
      const conf = setConf(statement, at);
      if (conf) settings.push(conf);
      continue;
    }
    const listener = new SettingsListener(statement.text, statement.offset, at);
    spark.listen(listener, tree);
    settings.push(...listener.found);
  }
  return { settings, problems };
}

/**
 * The settings in SQL embedded in a host file (a Python, Scala or Java string, a heredoc): positions map back
 * through `embedded.hostOffset` and `host`.
 */
export async function sqlSettings(
  embedded: Embedded,
  host: LineIndex,
  file: string,
  writer: WriterHint,
): Promise<Extraction> {
  return readSql(embedded.text, { host, hostOffset: (offset) => embedded.hostOffset(offset), file, writer });
}

/** A dbt model's table: the file's stem, for a file under a `models/` folder (macros and analyses name none). */
function modelName(file: string): string | undefined {
  if (!/(^|\/)models\//.test(file)) return undefined;
  return (file.split('/').pop() ?? file).replace(/\.sql$/i, '');
}

export const sqlExtractor: Extractor = {
  name: 'sql',
  accepts: (file) => /\.sql$/i.test(file),
  async extract(file, text) {
    const host = new LineIndex(text);
    const { sql, jinja, configs } = blankJinja(text);
    const table = jinja ? modelName(file) : undefined;
    const found = readSql(sql, { host, hostOffset: (offset) => offset, file, writer: 'spark', table });
    if (configs.length > 0) {
      const more = await settingsInJinjaConfig(text, file, table);
      found.settings.push(...more.settings);
      found.problems.push(...more.problems);
    }
    found.settings.sort((a, b) => a.line - b.line || a.column - b.column);
    return found;
  },
};
