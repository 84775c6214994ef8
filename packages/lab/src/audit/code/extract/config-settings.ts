/**
 * Settings in configuration files, YAML and JSON alike (one walk over the YAML parser's nodes, which keep every value's
 * exact place; json-tree.ts reads JSON into the same nodes): Databricks job specs (Jobs API JSON, asset bundle YAML:
 * `spark_conf` under `new_cluster`, `job_clusters[].new_cluster`, `tasks[].new_cluster`, `clusters`; `--conf k=v` in a
 * `spark_submit_task`'s parameters), any map keyed by Spark confs under `spark.databricks.delta.`/`spark.delta.`
 * (`sparkConf`, `spark.conf`, a pipeline's `configuration`, …), a cluster policy's `spark_conf.<key>` entries, and
 * dbt's table properties (`+tblproperties` in dbt_project.yml, `config: tblproperties:` of a model in a schema file,
 * whose `name` is the table).
 *
 * A value is reported as written: a quoted scalar's content without its quotes (escapes as written), a plain scalar's
 * text; `raw` is its source with the quotes. A template (`{{ var('x') }}`, `${var.level}`, `{{secrets/scope/key}}`) or
 * a map or list where a value belongs is not a constant. An alias (`*level`) reads the value its anchor was bound to,
 * and a bundle variable (`${var.level}`) the default the same document binds it to once (a target that binds it again
 * makes it not a constant). A file that does not parse, or parses with a duplicate key, gives a problem per error with
 * the parser's line and message; what the parser still recovered is read.
 */
import {
  Document,
  isAlias,
  isMap,
  isNode,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseAllDocuments,
  type Scalar,
} from 'yaml';
import { isDeltaConfKey } from '../conf-keys';
import type { CodeLanguage, CodeSetting, Extraction, FileProblem, SettingKind } from '../setting';
import { LineIndex } from '../source-map';
import { type JsonError, parseJson } from './json-tree';

/** Files without any of these are not parsed: they cannot hold a setting this reader reports. */
const HINT = /spark\.databricks\.delta\.|spark\.delta\.|tblproperties/i;
/** Map keys whose map holds Spark confs (lower case): Databricks specs, the Spark operator, pipelines, Helm values. */
const CONF_MAPS = new Set(['spark_conf', 'sparkconf', 'spark.conf', 'spark_confs', 'configuration', 'conf']);
/** Map keys whose map holds a dbt model's table properties. */
const TABLE_PROPERTY_MAPS = new Set(['tblproperties', '+tblproperties']);
/** Keys whose list holds dbt resources, each named by its `name`: the table its `config` applies to. */
const NAMED_RESOURCES = new Set(['models', 'seeds', 'snapshots']);
/** A Databricks cluster policy's entry for a Spark conf: `"spark_conf.<key>": { "type": "fixed", "value": … }`. */
const POLICY_KEY = /^spark_conf\.(.+)$/;
/** A whole value that is one bundle variable: `${var.name}`. */
const BUNDLE_VARIABLE = /^\$\{var\.([\w-]+)\}$/;
/** A value that the tool running the file fills in: Jinja, bundle/Terraform-style variables, Databricks references. */
const TEMPLATE = /\{\{[\s\S]*?\}\}|\$\{[^}]*\}|\{%[\s\S]*?%\}/;

interface Context {
  file: string;
  text: string;
  lines: LineIndex;
  language: CodeLanguage;
  doc: Document;
  /** The bundle variables of the document bound once to a constant: `${var.name}` reads as their value. */
  variables: Map<string, string>;
  settings: CodeSetting[];
}

/** Where we are in the tree: the key of the enclosing map entry, and the dbt resource named by an ancestor. */
interface Scope {
  key: string | null;
  table?: string;
}

/** Reads the settings of a YAML or JSON file's text. */
export function configSettings(file: string, text: string, language: CodeLanguage): Extraction {
  if (!HINT.test(text)) return { settings: [], problems: [] };
  const lines = new LineIndex(text);
  const settings: CodeSetting[] = [];
  const problems: FileProblem[] = [];
  for (const { doc, errors } of documents(text, language)) {
    for (const error of errors) {
      const at = lines.at(error.offset);
      problems.push({ file, line: at.line, column: at.column, message: error.message });
    }
    const variables = bundleVariables(doc);
    try {
      if (isNode(doc.contents)) {
        visit(doc.contents, { key: null }, { file, text, lines, language, doc, variables, settings });
      }
    } catch (error) {
      // Nesting deeper than the stack: what was read stands, and the file says where reading stopped.
      if (!(error instanceof RangeError)) throw error;
      problems.push({ file, line: 1, column: 1, message: 'nested too deep to read' });
    }
  }
  settings.sort((a, b) => a.line - b.line || a.column - b.column);
  return { settings, problems };
}

/** The file's documents (a YAML stream has several, JSON one) and each one's parse errors. */
function documents(text: string, language: CodeLanguage): { doc: Document; errors: JsonError[] }[] {
  if (language === 'json') {
    const tree = parseJson(text);
    const doc = new Document();
    doc.contents = tree.contents;
    return [{ doc, errors: tree.errors }];
  }
  return parseAllDocuments(text).map((doc) => ({
    doc,
    errors: doc.errors.map((error) => ({ offset: error.pos[0], message: parserMessage(error.message) })),
  }));
}

/** The parser's message without the place it appends (the problem carries line and column) and the excerpt. */
function parserMessage(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.replace(/\s+at line \d+, column \d+:?$/, '');
}

function visit(node: Node, scope: Scope, ctx: Context): void {
  if (isMap(node)) {
    for (const pair of node.items) visitPair(pair as Pair<Node | null, Node | null>, scope, ctx);
  } else if (isSeq(node)) {
    const items = node.items as (Node | null)[];
    items.forEach((item, i) => {
      if (!item) return;
      if (isScalar(item)) confArgument(item, items[i + 1] ?? null, ctx);
      else visit(item, { key: scope.key, table: resourceName(item, scope) ?? scope.table }, ctx);
    });
  }
}

function visitPair(pair: Pair<Node | null, Node | null>, scope: Scope, ctx: Context): void {
  const key = isScalar(pair.key) && pair.key.value !== null ? String(pair.key.value) : null;
  if (key === null || !pair.key) return;
  const inTableProperties = scope.key !== null && TABLE_PROPERTY_MAPS.has(scope.key.toLowerCase());
  const policed = POLICY_KEY.exec(key)?.[1];
  if (isDeltaConfKey(key)) {
    if (!describesKey(pair.value, scope, ctx)) {
      setting(ctx, pair.key, pair.value, key, 'spark-conf', scope.key ?? `${ctx.language} key`, undefined);
    }
  } else if (policed !== undefined && isDeltaConfKey(policed) && isMap(pair.value)) {
    const fixed = pair.value.get('value', true);
    if (isScalar(fixed)) setting(ctx, pair.key, fixed, policed, 'spark-conf', 'cluster policy', undefined);
  } else if (inTableProperties && key.startsWith('delta.')) {
    setting(ctx, pair.key, pair.value, key, 'table-property', scope.key ?? 'tblproperties', scope.table);
  }
  if (pair.value) visit(pair.value, { key, table: scope.table }, ctx);
}

/**
 * Whether the value under a Delta conf key describes the key rather than sets it. A conf's value is a string: a
 * map or list in its place is a mistake worth reporting where confs are set (or a template the parser read as a
 * map), and elsewhere a document about the key (its `default`, its owner, …).
 */
function describesKey(value: Node | null, scope: Scope, ctx: Context): boolean {
  if (!isMap(value) && !isSeq(value)) return false;
  if (scope.key !== null && CONF_MAPS.has(scope.key.toLowerCase())) return false;
  return !TEMPLATE.test(ctx.text.slice(value.range?.[0] ?? 0, value.range?.[1] ?? 0));
}

/** The `name` of a dbt resource: a map in the list under `models:`/`seeds:`/`snapshots:`. */
function resourceName(item: Node, scope: Scope): string | undefined {
  if (!isMap(item) || scope.key === null || !NAMED_RESOURCES.has(scope.key)) return undefined;
  const name = item.get('name', true);
  return isScalar(name) && typeof name.value === 'string' ? name.value : undefined;
}

/**
 * A Databricks bundle's variables bound once in the document to a constant: `variables: <name>: default: <value>`
 * (or `variables: <name>: <value>`), with no target (`targets: <t>: variables: <name>:`) binding it again.
 */
function bundleVariables(doc: Document): Map<string, string> {
  const bound = new Map<string, string>();
  const declared = doc.get('variables', true);
  if (!isMap(declared)) return bound;
  for (const pair of declared.items) {
    const value = isMap(pair.value) ? pair.value.get('default', true) : pair.value;
    if (isScalar(pair.key) && isScalar(value) && value.value !== null && typeof value.value !== 'object') {
      const text = String(value.value);
      if (!TEMPLATE.test(text)) bound.set(String(pair.key.value), text);
    }
  }
  const targets = doc.get('targets', true);
  if (isMap(targets)) {
    for (const target of targets.items) {
      const overridden = isMap(target.value) ? target.value.get('variables', true) : null;
      if (!isMap(overridden)) continue;
      for (const pair of overridden.items) if (isScalar(pair.key)) bound.delete(String(pair.key.value));
    }
  }
  return bound;
}

/** A value's text as written, and whether it is a constant. */
interface Written {
  start: number;
  end: number;
  value: string | null;
  raw: string;
  constant: boolean;
}

function written(node: Node, ctx: Context): Written | null {
  const [start, end] = node.range ?? [0, 0];
  const raw = ctx.text.slice(start, end).replace(/\s+$/, '');
  if (isAlias(node)) {
    const target = node.resolve(ctx.doc);
    const bound = target && isScalar(target) ? written(target, ctx) : null;
    const constant = bound?.constant === true;
    return { start, end: start + raw.length, value: constant ? (bound?.value ?? null) : null, raw, constant };
  }
  if (!isScalar(node)) return { start, end: start + raw.length, value: null, raw, constant: false };
  if (node.value === null && raw === '') return null;
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
  const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
  const value = quoted ? raw.slice(1, -1) : block ? String(node.value) : raw;
  const variable = ctx.variables.get(BUNDLE_VARIABLE.exec(value)?.[1] ?? '');
  if (variable !== undefined) return { start, end: start + raw.length, value: variable, raw, constant: true };
  if (TEMPLATE.test(value)) return { start, end: start + raw.length, value: null, raw, constant: false };
  return { start, end: start + raw.length, value, raw, constant: true };
}

function setting(
  ctx: Context,
  keyNode: Node,
  valueNode: Node | null,
  key: string,
  kind: SettingKind,
  via: string,
  table: string | undefined,
): void {
  if (!valueNode) return;
  const value = written(valueNode, ctx);
  if (!value) return;
  push(ctx, value, key, kind, via, table, ctx.lines.at(keyNode.range?.[0] ?? value.start).line);
}

function push(
  ctx: Context,
  value: Written,
  key: string,
  kind: SettingKind,
  via: string,
  table: string | undefined,
  keyLine: number,
): void {
  const at = ctx.lines.at(value.start);
  const end = ctx.lines.at(value.end);
  ctx.settings.push({
    file: ctx.file,
    line: at.line,
    column: at.column,
    endColumn: end.column,
    ...(end.line !== at.line ? { endLine: end.line } : {}),
    ...(keyLine !== at.line ? { keyLine } : {}),
    key,
    value: value.value,
    raw: value.raw,
    constant: value.constant,
    kind,
    via,
    language: ctx.language,
    ...(table !== undefined ? { table } : {}),
    writer: 'spark',
  });
}

/**
 * A `spark-submit` argument in a list (a Databricks `spark_submit_task`'s `parameters`, a container's `args`):
 * `--conf` followed by `key=value`, or `--conf=key=value` / `--conf key=value` in one item.
 */
function confArgument(item: Scalar, next: Node | null, ctx: Context): void {
  if (typeof item.value !== 'string') return;
  const own = /^(?:--conf|-c)(?:=|\s+)(?=\S)/.exec(item.value);
  if (own) assignment(item, own[0].length, '--conf', ctx);
  else if ((item.value === '--conf' || item.value === '-c') && next && isScalar(next))
    assignment(next, 0, '--conf', ctx);
}

/** `key=value` in a string scalar, from `skip` characters into its content: a setting when the key is a Delta conf. */
function assignment(node: Scalar, skip: number, via: string, ctx: Context): void {
  if (typeof node.value !== 'string' || !node.range) return;
  const content = node.value.slice(skip);
  const eq = content.indexOf('=');
  const key = eq > 0 ? content.slice(0, eq).trim() : '';
  if (!isDeltaConfKey(key)) return;
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
  const [start, end] = node.range;
  const contentStart = start + (quoted ? 1 : 0);
  const contentEnd = start + ctx.text.slice(start, end).trimEnd().length - (quoted ? 1 : 0);
  // The value's place in the source: after the first `=` past the key (a conf key has no escapes to shift it).
  const source = ctx.text.slice(contentStart, contentEnd);
  const valueStart = contentStart + source.indexOf('=', source.indexOf(key) + key.length) + 1;
  const raw = ctx.text.slice(valueStart, contentEnd);
  const constant = !TEMPLATE.test(raw);
  const value: Written = { start: valueStart, end: contentEnd, value: constant ? raw : null, raw, constant };
  push(ctx, value, key, 'spark-conf', via, undefined, ctx.lines.at(contentStart).line);
}
