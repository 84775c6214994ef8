/**
 * Python: the settings PySpark and delta-rs code makes, in `.py` files (a Databricks source notebook cell
 * by cell, its `%sql` cells to the SQL reader), in notebook cells (notebook.ts), in dbt models' Jinja, and
 * in any Python another extractor finds embedded (`pythonSettings`). Read from the syntax tree of
 * tree-sitter-python, so comments, docstrings and prose strings are never settings and fragments parse:
 * - delta-rs: `write_deltalake(…, configuration={…})`, `DeltaTable.create(…, configuration=…)`,
 *   `dt.alter.set_table_properties({…})`, polars `write_delta(…, delta_write_options={…})`, and
 *   `CommitProperties(custom_metadata, max_commit_retries, app_transactions)` by keyword or position;
 * - Spark: `spark.conf.set(k, v)`, `SparkConf().set(k, v)`, `SparkSession.builder.config(k, v)` (also
 *   in a loop over a dictionary's items), a writer's `.option(k, v)` / `.options(**{…})`, Delta Spark's
 *   `DeltaTable.create(spark)….property(k, v)`, and the SQL in `spark.sql("…")` strings (f-strings,
 *   triple quotes, `+`, `.format`, `%`; a field becomes a placeholder, and a value holding one is not a
 *   constant);
 * - dbt: `config(tblproperties={…})` in a model's Jinja (`settingsInJinjaConfig`) or a Python model.
 * A value is a literal as written, or a name bound exactly once in its function or at module level to
 * one (the setting is then placed at that literal, with the key's line as `keyLine`); anything else is
 * reported as not a constant, at the expression. A function's parameter used as a value is reported so
 * too, and each call of that function in the file that passes a constant for it adds that constant as a
 * setting of its own, at the call.
 */
import type { CodeSetting, Extraction, Extractor, FileProblem, SettingKind, WriterHint } from '../setting';
import { Embedded, LineIndex } from '../source-map';
import type { Node } from '../tree-sitter';
import { type Cell, databricksCells, isDatabricksSource, pushMapped } from './cells';
import { nodesToRead, parse, Scopes } from './python-syntax';
import { sqlSettings } from './sql';

/** Reads the SQL embedded in a host file (the SQL extractor's entry, passed in so it can be replaced). */
export type SqlReader = typeof sqlSettings;

/** What the code is and what to read it with. */
interface Context {
  code: Embedded;
  host: LineIndex;
  file: string;
  sql: SqlReader;
  /** Set for a dbt model's Jinja: a bare `config(…)` is the model's config; the model's table when known. */
  jinja?: { table?: string };
}

/** What a value expression comes to. */
interface Value {
  /** Where the value is written: the literal (after following a name), else the expression. */
  node: Node;
  value: string | null;
  raw: string;
  constant: boolean;
  /** A dictionary literal, for values that are maps. */
  dict?: Node;
  /** The parameter of the enclosing function the value is, when it is one. */
  param?: { fn: Node; name: string; index: number };
}

const SPARK_CONF_PREFIXES = ['spark.databricks.delta.', 'spark.delta.'];
/** What an f-string's field (or a template's) becomes in SQL handed to the SQL reader. */
const FIELD = '__py_field__';
/** A `str.format` template's fields, and a `%` template's. */
const FORMAT_FIELDS = /\{[^{}]*\}/g;
const PERCENT_FIELDS = /%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifr]/g;
const MAX_FOLLOW = 8;

/** The content of a string node without prefix and quotes, as written (escapes kept). */
function stringContent(node: Node): string {
  const start = node.firstChild;
  const end = node.lastChild;
  if (!start || !end || start.type !== 'string_start' || end.type !== 'string_end') return node.text;
  return node.text.slice(start.endIndex - node.startIndex, end.startIndex - node.startIndex);
}

function isPlainString(node: Node): boolean {
  return node.type === 'string' && !node.namedChildren.some((c) => c?.type === 'interpolation');
}

/** Reads one piece of Python (a file, a cell, a Jinja expression). */
class PythonReader {
  readonly settings: CodeSetting[] = [];
  private readonly scopes: Scopes;
  private readonly pending: Promise<Extraction>[] = [];
  /** Every call in the tree, by the name it calls (`f(…)` and `x.f(…)` both under `f`). */
  private readonly calls = new Map<string, { call: Node; callee: Node }[]>();

  private readonly found: ReturnType<typeof nodesToRead>;

  constructor(
    private readonly root: Node,
    private readonly ctx: Context,
  ) {
    this.found = nodesToRead(root);
    this.scopes = new Scopes(this.found.bindings);
  }

  private get code(): Embedded {
    return this.ctx.code;
  }

  /** What `node` comes to, following names bound once to literals. */
  valueOf(node: Node, depth = 0): Value {
    const notConstant = (extra?: Partial<Value>): Value => ({
      node,
      value: null,
      raw: node.text,
      constant: false,
      ...extra,
    });
    switch (node.type) {
      case 'parenthesized_expression': {
        const inner = node.namedChildren.find((c) => c?.type !== 'comment');
        return inner ? this.valueOf(inner, depth) : notConstant();
      }
      case 'string':
        return isPlainString(node)
          ? { node, value: stringContent(node), raw: node.text, constant: true }
          : notConstant();
      case 'concatenated_string': {
        const parts = node.namedChildren.filter((c): c is Node => c?.type === 'string');
        return parts.every(isPlainString)
          ? { node, value: parts.map(stringContent).join(''), raw: node.text, constant: true }
          : notConstant();
      }
      case 'integer':
      case 'float':
      case 'true':
      case 'false':
        return { node, value: node.text, raw: node.text, constant: true };
      case 'unary_operator': {
        const arg = node.childForFieldName('argument');
        const op = node.childForFieldName('operator')?.text;
        return arg && (op === '-' || op === '+') && (arg.type === 'integer' || arg.type === 'float')
          ? { node, value: node.text.replace(/\s+/g, ''), raw: node.text, constant: true }
          : notConstant();
      }
      case 'dictionary':
        return { ...notConstant(), dict: node };
      case 'identifier': {
        // Jinja writes its literals in lower case.
        if (this.ctx.jinja && ['true', 'false'].includes(node.text.toLowerCase()))
          return { node, value: node.text, raw: node.text, constant: true };
        if (depth >= MAX_FOLLOW) return notConstant();
        const found = this.scopes.lookup(node.text, node);
        if (found && 'param' in found) return notConstant({ param: found.param });
        if (!found) return notConstant();
        const followed = this.valueOf(found.value, depth + 1);
        return followed.constant || followed.dict ? followed : notConstant();
      }
      default:
        return notConstant();
    }
  }

  /** The key/value pairs of a dictionary value (a literal, a name bound once to one, `**` merges of them). */
  entries(value: Value, depth = 0): { key: string; keyNode: Node; value: Value }[] {
    if (!value.dict || depth > MAX_FOLLOW) return [];
    const out: { key: string; keyNode: Node; value: Value }[] = [];
    for (const item of value.dict.namedChildren) {
      if (item?.type === 'pair') {
        const keyNode = item.childForFieldName('key');
        const valueNode = item.childForFieldName('value');
        if (!keyNode || !valueNode) continue;
        const key = this.valueOf(keyNode);
        if (key.constant && key.value !== null)
          out.push({ key: key.value, keyNode: key.node, value: this.valueOf(valueNode) });
      } else if (item?.type === 'dictionary_splat') {
        const inner = item.namedChildren[0];
        if (inner) out.push(...this.entries(this.valueOf(inner), depth + 1));
      }
    }
    return out;
  }

  /** Line, column and end of the text from `start` to `end` in the code, in the host file. */
  private place(start: number, end: number) {
    const { code, host } = this.ctx;
    const from = host.at(code.hostOffset(start));
    const last = code.hostOffset(Math.max(start, end - 1));
    // A last character written as an escape in the host (a notebook's `\"`) ends after the whole escape.
    const width = host.text[last] === '\\' ? (host.text[last + 1] === 'u' ? 6 : 2) : 1;
    const to = host.at(last + width);
    return {
      line: from.line,
      column: from.column,
      endColumn: to.column,
      ...(to.line !== from.line && { endLine: to.line }),
    };
  }

  private lineOf(node: Node): number {
    return this.ctx.host.at(this.ctx.code.hostOffset(node.startIndex)).line;
  }

  /** Records a setting whose value is `value`; a parameter's value is also taken from each call that passes a constant. */
  emit(
    kind: SettingKind,
    key: string,
    keyNode: Node | null,
    value: Value,
    via: string,
    writer: WriterHint,
    table?: string,
  ): void {
    if (value.dict) return;
    const at = this.place(value.node.startIndex, value.node.endIndex);
    const keyLine = keyNode ? this.lineOf(keyNode) : undefined;
    this.settings.push({
      file: this.ctx.file,
      ...at,
      ...(keyLine !== undefined && keyLine !== at.line && { keyLine }),
      key,
      value: value.value,
      raw: value.raw,
      constant: value.constant,
      kind,
      via,
      language: 'python',
      ...(table !== undefined && { table }),
      writer,
    });
    if (value.param) this.throughCalls(kind, key, value.node, value.param, via, writer, table);
  }

  /** For a parameter used as a setting's value: the constants the file's calls of its function pass. */
  private throughCalls(
    kind: SettingKind,
    key: string,
    keyNode: Node,
    param: { fn: Node; name: string; index: number },
    via: string,
    writer: WriterHint,
    table?: string,
  ): void {
    const fnName = param.fn.childForFieldName('name')?.text;
    if (!fnName) return;
    const params = this.scopes.parameters(param.fn);
    const method = params[0] === 'self' || params[0] === 'cls';
    for (const { call, callee } of this.calls.get(fnName) ?? []) {
      const isMethodCall = callee.type === 'attribute';
      const args = argumentsOf(call);
      const position = param.index - (method && isMethodCall ? 1 : 0);
      const arg = args.keywords.get(param.name)?.value ?? args.positional[position];
      if (!arg) continue;
      const passed = this.valueOf(arg);
      if (passed.constant) this.emit(kind, key, keyNode, passed, `${via} through ${fnName}()`, writer, table);
    }
  }

  /** Table properties from the `delta.*` keys of a dictionary value. */
  tableProperties(value: Value, via: string, writer: WriterHint, table?: string): void {
    for (const e of this.entries(value))
      if (e.key.startsWith('delta.')) this.emit('table-property', e.key, e.keyNode, e.value, via, writer, table);
  }

  /** Commit metadata keys that claim an isolation level or a blind append. */
  commitMetadata(value: Value, via: string, table?: string): void {
    for (const e of this.entries(value)) {
      if (/isolation/i.test(e.key)) this.emit('commit-isolation', e.key, e.keyNode, e.value, via, 'delta-rs', table);
      else if (e.key === 'isBlindAppend') this.emit('blind-append', e.key, e.keyNode, e.value, via, 'delta-rs', table);
    }
  }

  /** Queues the SQL a Python string (or a name bound once to one) holds for the SQL reader. */
  sql(node: Node, writer: WriterHint): void {
    const embedded = new Embedded();
    if (!this.sqlText(node, embedded, 0)) return;
    this.pending.push(this.ctx.sql(embedded, this.ctx.host, this.ctx.file, writer));
  }

  /**
   * Appends the SQL text `node` holds: a string, strings joined by `+` (other operands become fields),
   * a template filled by `.format(…)` or `%` (its `{…}` or `%s` become fields), or a name bound once to one.
   */
  private sqlText(node: Node, into: Embedded, depth: number, fields: RegExp | null = null): boolean {
    switch (node.type) {
      case 'parenthesized_expression': {
        const inner = node.namedChildren.find((c) => c?.type !== 'comment');
        return inner ? this.sqlText(inner, into, depth, fields) : false;
      }
      case 'string':
        this.pushString(node, into, fields);
        return true;
      case 'concatenated_string':
        for (const part of node.namedChildren) if (part?.type === 'string') this.pushString(part, into, fields);
        return true;
      case 'binary_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const operator = node.childForFieldName('operator')?.text;
        if (!left || !right) return false;
        if (operator === '%') return this.sqlText(left, into, depth, PERCENT_FIELDS);
        if (operator !== '+') return false;
        for (const side of [left, right]) if (!this.sqlText(side, into, depth, fields)) this.pushField(side, into);
        return true;
      }
      case 'call': {
        const callee = node.childForFieldName('function');
        const template = callee?.type === 'attribute' ? callee.childForFieldName('object') : null;
        return callee?.childForFieldName('attribute')?.text === 'format' && template !== null
          ? this.sqlText(template, into, depth, FORMAT_FIELDS)
          : false;
      }
      case 'identifier': {
        const found = depth < MAX_FOLLOW ? this.scopes.lookup(node.text, node) : null;
        return found !== null && 'value' in found && this.sqlText(found.value, into, depth + 1, fields);
      }
      default:
        return false;
    }
  }

  private pushField(node: Node, into: Embedded): void {
    into.push(FIELD, this.ctx.code.hostOffset(node.startIndex), false);
  }

  /** A string's characters (escapes decoded, fields as placeholders), each at its place in the host file. */
  private pushString(node: Node, into: Embedded, fields: RegExp | null): void {
    const prefix = node.firstChild?.type === 'string_start' ? node.firstChild.text.toLowerCase() : '';
    const raw = prefix.includes('r');
    const { code } = this;
    const pushText = (from: number, to: number) => {
      let at = from;
      for (const field of fields ? code.text.slice(from, to).matchAll(fields) : []) {
        const start = from + (field.index as number);
        if (start > at) pushMapped(into, code.text.slice(at, start), at, code);
        into.push(FIELD, code.hostOffset(start), false);
        at = start + field[0].length;
      }
      if (to > at) pushMapped(into, code.text.slice(at, to), at, code);
    };
    const visit = (parent: Node, from: number, to: number) => {
      let at = from;
      for (const child of parent.children) {
        if (!child || child.type === 'string_start' || child.type === 'string_end') continue;
        if (child.type === 'string_content') {
          pushText(at, child.startIndex);
          visit(child, child.startIndex, child.endIndex);
        } else if (child.type === 'interpolation') {
          pushText(at, child.startIndex);
          this.pushField(child, into);
        } else if (child.type === 'escape_sequence' && !raw) {
          pushText(at, child.startIndex);
          into.push(decodeEscape(child.text), this.ctx.code.hostOffset(child.startIndex), false);
        } else continue;
        at = child.endIndex;
      }
      pushText(at, to);
    };
    const start = node.firstChild?.type === 'string_start' ? node.firstChild.endIndex : node.startIndex;
    const end = node.lastChild?.type === 'string_end' ? node.lastChild.startIndex : node.endIndex;
    visit(node, start, end);
  }

  /** The settings the queued SQL held; a value or table that holds an f-string's field is not a constant. */
  async embeddedSql(): Promise<Extraction> {
    const results = await Promise.all(this.pending);
    const { host } = this.ctx;
    const settings = results.flatMap((r) =>
      r.settings.map((s): CodeSetting => {
        const { table, ...rest } = s;
        const out: CodeSetting = table !== undefined && !table.includes(FIELD) ? { ...rest, table } : rest;
        if (!(s.value ?? '').includes(FIELD) && !s.raw.includes(FIELD)) return out;
        const from = host.offset({ line: s.line, column: s.column });
        const to = host.offset({ line: s.endLine ?? s.line, column: s.endColumn });
        return { ...out, value: null, raw: host.text.slice(from, to), constant: false };
      }),
    );
    return { settings, problems: results.flatMap((r) => r.problems) };
  }

  /** Reads every call in the tree. */
  read(): void {
    // `from deltalake import CommitProperties as CP`: a call of `CP` is one of `CommitProperties`.
    const aliases = new Map<string, string>();
    for (const imported of this.found.aliases) {
      const alias = imported.childForFieldName('alias')?.text;
      const name = imported.childForFieldName('name')?.text.split('.').at(-1);
      if (alias && name && imported.parent?.type === 'import_from_statement') aliases.set(alias, name);
    }
    for (const call of this.found.calls) {
      const callee = call.childForFieldName('function');
      const written = callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : callee?.text;
      const name = written && callee?.type === 'identifier' ? (aliases.get(written) ?? written) : written;
      if (!callee || !name) continue;
      const same = this.calls.get(name) ?? [];
      same.push({ call, callee });
      this.calls.set(name, same);
    }
    for (const [name, calls] of this.calls) for (const { call, callee } of calls) this.call(call, callee, name);
  }

  private call(call: Node, callee: Node, name: string): void {
    const object = callee.type === 'attribute' ? (callee.childForFieldName('object') ?? null) : null;
    const args = argumentsOf(call);
    const arg = (position: number, keyword: string) => {
      const node = args.keywords.get(keyword)?.value ?? args.positional[position];
      return node ? this.valueOf(node) : undefined;
    };
    const kwArg = (keyword: string) => arg(-1, keyword);
    const tableOf = (v: Value | undefined) => (v?.constant && v.value !== null ? v.value : undefined);
    switch (name) {
      case 'write_deltalake': {
        const table = tableOf(arg(0, 'table_or_uri'));
        const configuration = kwArg('configuration');
        if (configuration) this.tableProperties(configuration, 'write_deltalake(configuration=…)', 'delta-rs', table);
        const metadata = kwArg('custom_metadata');
        if (metadata) this.commitMetadata(metadata, 'write_deltalake(custom_metadata=…)', table);
        return;
      }
      case 'create': {
        if (!object?.text.endsWith('DeltaTable')) return;
        const table = tableOf(arg(0, 'table_uri'));
        const configuration = kwArg('configuration');
        if (configuration) this.tableProperties(configuration, 'DeltaTable.create(configuration=…)', 'delta-rs', table);
        const metadata = kwArg('custom_metadata');
        if (metadata) this.commitMetadata(metadata, 'DeltaTable.create(custom_metadata=…)', table);
        return;
      }
      case 'set_table_properties': {
        const properties = arg(0, 'properties');
        if (properties) this.tableProperties(properties, 'alter.set_table_properties', 'delta-rs');
        return;
      }
      case 'write_delta': {
        const options = kwArg('delta_write_options');
        const table = tableOf(arg(0, 'target'));
        for (const e of options ? this.entries(options) : []) {
          if (e.key === 'configuration')
            this.tableProperties(e.value, 'write_delta(delta_write_options={configuration})', 'delta-rs', table);
          if (e.key === 'custom_metadata')
            this.commitMetadata(e.value, 'write_delta(delta_write_options={custom_metadata})', table);
        }
        return;
      }
      case 'CommitProperties': {
        const metadata = arg(0, 'custom_metadata');
        if (metadata) this.commitMetadata(metadata, 'CommitProperties(custom_metadata=…)');
        const retries = arg(1, 'max_commit_retries');
        const retriesKey = args.keywords.get('max_commit_retries')?.name ?? args.positional[1] ?? null;
        if (retries && retries.raw !== 'None')
          this.emit('commit-retries', 'max_commit_retries', retriesKey, retries, 'CommitProperties', 'delta-rs');
        return;
      }
      case 'set':
        if (object && isSparkConf(object)) this.sparkConf(arg(0, 'key'), arg(1, 'value'), 'spark.conf.set');
        return;
      case 'config': {
        if (object?.text === 'dbt' || (!object && this.ctx.jinja)) {
          const properties = kwArg('tblproperties');
          const table = this.ctx.jinja?.table ?? (this.ctx.jinja ? undefined : modelName(this.ctx.file));
          if (properties) this.tableProperties(properties, 'dbt config(tblproperties=…)', 'spark', table);
          return;
        }
        if (!object) return;
        this.sparkConf(arg(0, 'key'), arg(1, 'value'), 'SparkSession.builder.config');
        const map = kwArg('map');
        for (const e of map ? this.entries(map) : [])
          if (isSparkConfKey(e.key))
            this.emit('spark-conf', e.key, e.keyNode, e.value, 'SparkSession.builder.config(map=…)', 'spark');
        return;
      }
      case 'option':
        if (object) this.writerOption(arg(0, 'key'), arg(1, 'value'));
        return;
      case 'property': {
        // Delta Spark's table builder: `DeltaTable.create(spark).tableName(t).property(k, v)`.
        const builder = object ? deltaTableBuilder(object) : null;
        const key = arg(0, 'key');
        const value = arg(1, 'value');
        if (!builder || !key?.constant || key.value === null || !key.value.startsWith('delta.') || !value) return;
        const table = tableOf(builder.table ? this.valueOf(builder.table) : undefined);
        this.emit('table-property', key.value, key.node, value, 'DeltaTableBuilder.property', 'spark', table);
        return;
      }
      case 'options':
        if (!object) return;
        for (const [key, kw] of args.keywords)
          if (key === 'isBlindAppend') this.writerOption(undefined, this.valueOf(kw.value), key, kw.name);
        for (const splat of args.splats)
          for (const e of this.entries(this.valueOf(splat))) this.writerOption(undefined, e.value, e.key, e.keyNode);
        return;
      case 'sql': {
        const query = args.keywords.get('sqlQuery')?.value ?? args.positional[0];
        // `spark.sql`, `self.spark.sql`, `sqlContext.sql` run on Spark; another object's `.sql` (DuckDB, …) says no writer.
        if (object && query) this.sql(query, /spark|sqlcontext/i.test(object.text) ? 'spark' : null);
        return;
      }
    }
  }

  private sparkConf(key: Value | undefined, value: Value | undefined, via: string): void {
    if (!key || !value) return;
    if (key.constant && key.value !== null) {
      if (isSparkConfKey(key.value)) this.emit('spark-conf', key.value, key.node, value, via, 'spark');
      return;
    }
    // `for k, v in CONFS.items(): spark.conf.set(k, v)`: each entry of the dictionary is a conf set.
    const loop = this.itemsLoop(key.node, value.node);
    for (const e of loop ? this.entries(this.valueOf(loop)) : [])
      if (isSparkConfKey(e.key)) this.emit('spark-conf', e.key, e.keyNode, e.value, `${via} (for each item)`, 'spark');
  }

  /** The dictionary `X` of an enclosing `for key, value in X.items():` whose two names `key` and `value` are. */
  private itemsLoop(key: Node, value: Node): Node | null {
    if (key.type !== 'identifier' || value.type !== 'identifier') return null;
    for (let at = key.parent; at && at.type !== 'function_definition' && at.type !== 'module'; at = at.parent) {
      if (at.type !== 'for_statement') continue;
      const names = at.childForFieldName('left')?.namedChildren.map((n) => n?.text);
      const over = at.childForFieldName('right');
      const fn = over?.type === 'call' ? over.childForFieldName('function') : null;
      if (names?.length !== 2 || names[0] !== key.text || names[1] !== value.text) continue;
      if (fn?.type !== 'attribute' || fn.childForFieldName('attribute')?.text !== 'items') return null;
      return fn.childForFieldName('object');
    }
    return null;
  }

  /** A DataFrame writer's option: a `delta.*` table property, a Spark conf, or a blind-append claim. */
  private writerOption(key: Value | undefined, value: Value | undefined, name?: string, nameNode?: Node): void {
    const k = name ?? (key?.constant ? key.value : null);
    const keyNode = nameNode ?? key?.node ?? null;
    if (k === null || !value) return;
    if (k.startsWith('delta.')) this.emit('table-property', k, keyNode, value, '.option', 'spark');
    else if (isSparkConfKey(k)) this.emit('spark-conf', k, keyNode, value, '.option', 'spark');
    else if (k === 'isBlindAppend') this.emit('blind-append', k, keyNode, value, '.option', 'spark');
  }

  /** A note for code that did not parse, only when nothing could be read from it. */
  problem(): FileProblem | null {
    if (!this.root.hasError) return null;
    // The first place the parser gave up: down the first child that holds an error.
    let error = this.root;
    for (;;) {
      const child = error.children.find((c) => c && (c.hasError || c.isError || c.isMissing));
      if (!child) break;
      error = child;
    }
    const at = this.ctx.host.at(this.ctx.code.hostOffset(error.startIndex));
    const what = error.isMissing ? `'${error.type}' missing` : `unexpected ${JSON.stringify(error.text.slice(0, 40))}`;
    return { file: this.ctx.file, ...at, message: `Python did not parse: ${what}` };
  }
}

function decodeEscape(sequence: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '\n': '' };
  const c = sequence[1] ?? '';
  if (c in simple) return simple[c] as string;
  if (c === 'x' || c === 'u' || c === 'U') return String.fromCodePoint(Number.parseInt(sequence.slice(2), 16));
  return sequence;
}

interface Arguments {
  positional: Node[];
  keywords: Map<string, { name: Node; value: Node }>;
  splats: Node[];
}

function argumentsOf(call: Node): Arguments {
  const out: Arguments = { positional: [], keywords: new Map(), splats: [] };
  for (const arg of call.childForFieldName('arguments')?.namedChildren ?? []) {
    if (!arg || arg.type === 'comment') continue;
    if (arg.type === 'keyword_argument') {
      const name = arg.childForFieldName('name');
      const value = arg.childForFieldName('value');
      if (name && value) out.keywords.set(name.text, { name, value });
    } else if (arg.type === 'dictionary_splat') {
      const inner = arg.namedChildren[0];
      if (inner) out.splats.push(inner);
    } else if (arg.type !== 'list_splat') out.positional.push(arg);
  }
  return out;
}

function isSparkConfKey(key: string): boolean {
  return SPARK_CONF_PREFIXES.some((p) => key.startsWith(p));
}

/** `spark.conf`, `self.spark.conf`, `SparkConf()`, `SparkConf().set(…)`: what `.set(k, v)` sets a conf on. */
function isSparkConf(object: Node): boolean {
  if (object.type === 'call') {
    const fn = object.childForFieldName('function');
    if (fn?.text === 'SparkConf') return true;
    const inner = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
    return fn?.childForFieldName('attribute')?.text === 'set' && inner !== null && isSparkConf(inner);
  }
  return /conf$/i.test(object.text);
}

/**
 * Whether `object` is a chain on Delta Spark's table builder (`DeltaTable.create(spark)`,
 * `createIfNotExists`, `createOrReplace`, `replace`), and the argument of its `tableName(…)` or
 * `location(…)` when it has one.
 */
function deltaTableBuilder(object: Node): { table: Node | null } | null {
  let table: Node | null = null;
  for (let at: Node | null = object; at?.type === 'call'; ) {
    const fn = at.childForFieldName('function');
    if (fn?.type !== 'attribute') return null;
    const method = fn.childForFieldName('attribute')?.text ?? '';
    const target = fn.childForFieldName('object');
    if (method === 'tableName' || (method === 'location' && !table)) table = argumentsOf(at).positional[0] ?? table;
    if (
      ['create', 'createIfNotExists', 'createOrReplace', 'replace'].includes(method) &&
      target?.text.endsWith('DeltaTable')
    )
      return { table };
    at = target;
  }
  return null;
}

/** A dbt model's name: its file's stem. */
function modelName(file: string): string {
  return (file.split('/').at(-1) ?? file).replace(/\.[^.]*$/, '');
}

/** The settings in Python `code` (a whole file, a cell, an expression), at their places in the host file. */
async function readPython(ctx: Context): Promise<Extraction> {
  const tree = await parse(ctx.code.text);
  const reader = new PythonReader(tree.rootNode, ctx);
  reader.read();
  const sql = await reader.embeddedSql();
  const settings = [...reader.settings, ...sql.settings];
  const problem = settings.length === 0 ? reader.problem() : null;
  tree.delete();
  return onlyIfNothingRead(settings, [...(problem ? [problem] : []), ...sql.problems]);
}

/** The whole of `text` as embedded text of itself. */
function wholeOf(text: string): Embedded {
  const code = new Embedded();
  code.push(text, 0);
  return code;
}

/** Settings in the Python `code` holds, within the host file `host` indexes. */
export function pythonSettings(code: Embedded, host: LineIndex, file: string, sql: SqlReader = sqlSettings) {
  return readPython({ code, host, file, sql });
}

/** Each cell of a notebook read in its language; problems are kept only when nothing could be read. */
export async function cellSettings(
  cells: Cell[],
  host: LineIndex,
  file: string,
  sql: SqlReader = sqlSettings,
): Promise<Extraction> {
  const results = await Promise.all(
    cells.map((cell) =>
      cell.language === 'sql' ? sql(cell.code, host, file, 'spark') : pythonSettings(cell.code, host, file, sql),
    ),
  );
  return onlyIfNothingRead(
    results.flatMap((r) => r.settings),
    results.flatMap((r) => r.problems),
  );
}

/** The settings in the order they are written; problems kept only when nothing could be read. */
function onlyIfNothingRead(settings: CodeSetting[], problems: FileProblem[]): Extraction {
  const sorted = [...settings].sort((a, b) => a.line - b.line || a.column - b.column);
  return { settings: sorted, problems: settings.length === 0 ? problems : [] };
}

/** A `.py` file: plain Python, or a Databricks source notebook's cells. */
export async function pythonFileSettings(
  file: string,
  text: string,
  sql: SqlReader = sqlSettings,
): Promise<Extraction> {
  const host = new LineIndex(text);
  if (isDatabricksSource(text)) return cellSettings(databricksCells(text), host, file, sql);
  const read = await pythonSettings(wholeOf(text), host, file, sql);
  return onlyIfNothingRead(read.settings, read.problems);
}

/**
 * The settings in a dbt model's Jinja `{{ config(…) }}` expressions (`tblproperties={…}`), each read as
 * a Python call, at their places in the model file. `table`: the model's table when the caller knows it.
 */
export async function settingsInJinjaConfig(
  model: string,
  file: string,
  table?: string,
  sql: SqlReader = sqlSettings,
): Promise<Extraction> {
  const host = new LineIndex(model);
  const results: Extraction[] = [];
  for (const { start, end } of jinjaExpressions(model)) {
    const inner = model.slice(start, end);
    if (!/^\s*config\s*\(/.test(inner)) continue;
    const code = new Embedded();
    code.push(inner, start);
    results.push(await readPython({ code, host, file, sql, jinja: table === undefined ? {} : { table } }));
  }
  return onlyIfNothingRead(
    results.flatMap((r) => r.settings),
    results.flatMap((r) => r.problems),
  );
}

/** Where each `{{ … }}` expression's inside is in a Jinja text (whitespace control left out; `{# … #}` comments skipped). */
function jinjaExpressions(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  const comments: [number, number][] = [];
  for (let c = text.indexOf('{#'); c !== -1; ) {
    const close = text.indexOf('#}', c + 2);
    comments.push([c, close === -1 ? text.length : close + 2]);
    c = close === -1 ? -1 : text.indexOf('{#', close + 2);
  }
  const commentAt = (i: number) => comments.find(([from, to]) => i >= from && i < to);
  let at = text.indexOf('{{');
  while (at !== -1) {
    const comment = commentAt(at);
    if (comment) {
      at = text.indexOf('{{', comment[1]);
      continue;
    }
    let i = at + 2;
    if (text[i] === '-' || text[i] === '+') i += 1;
    const start = i;
    let quote: string | null = null;
    let end = -1;
    for (; i < text.length; i++) {
      const c = text[i] as string;
      if (quote) {
        if (c === '\\') i += 1;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '}' && text[i + 1] === '}') {
        end = text[i - 1] === '-' || text[i - 1] === '+' ? i - 1 : i;
        break;
      }
    }
    if (end === -1) end = text.length;
    found.push({ start, end });
    at = text.indexOf('{{', Math.max(end, start));
  }
  return found;
}

export const pythonExtractor: Extractor = {
  name: 'python',
  accepts: (file) => file.endsWith('.py'),
  extract: (file, text) => pythonFileSettings(file, text),
};
