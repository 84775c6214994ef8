/**
 * Settings in Spark jobs written in Scala or Java, read from their tree-sitter trees: `….conf.set(k, v)`,
 * `SparkConf().set`, `setConf`, `SparkSession.builder().config(k, v)` for confs under `spark.databricks.delta.`
 * / `spark.delta.`, a writer's `.option("delta.…", v)` or `.options(Map(…))` as a table property (with the
 * table its chain saves to, when a literal names it), and the SQL of `spark.sql("…")`, read as SQL. A value is a literal, or a name bound once in the file to one (simple constant propagation,
 * reported where it is used); anything else is reported as not a constant. Each language says how its calls,
 * bindings and strings look (`JvmGrammar`); the rules are the same for both.
 */
import type { CodeLanguage, CodeSetting, Extraction, SettingKind } from '../setting';
import { Embedded, LineIndex } from '../source-map';
import { type Node, parserFor } from '../tree-sitter';
import { sqlSettings } from './sql';
import { firstError, nodesOf } from './tree-nodes';
import { isDeltaConfKey, isDeltaTableProperty, valuePlace } from './value-place';

/** A method call: the method's name and its argument expressions. */
export interface JvmCall {
  method: string;
  args: Node[];
}

export interface JvmGrammar {
  grammar: 'scala' | 'java';
  language: Extract<CodeLanguage, 'scala' | 'java'>;
  /** The call `node` is, if it is one. */
  call(node: Node): JvmCall | null;
  /** The name a definition or assignment binds, and the value it binds (null when none or not a literal spot). */
  binding(node: Node): { name: string; value: Node | null } | null;
  /** A string literal's content as embedded text (interpolations as placeholders), or null if `node` is none. */
  text(node: Node, host: string): { content: Embedded; interpolated: boolean } | null;
  /** Whether `node` is a number or boolean literal. */
  scalar(node: Node): boolean;
  /** The operands of a string concatenation `a + b`, or null if `node` is none. */
  concat(node: Node): [Node, Node] | null;
  /** The key and value nodes of a map literal (`Map("k" -> v)`, `Map.of("k", v)`), or null if `node` is none. */
  pairs(node: Node): [Node, Node][] | null;
}

/** The writer calls that name the table a write goes to. */
const TABLE_SINKS = new Set(['saveAsTable', 'toTable', 'insertInto', 'save']);
/** The nodes between one call of a chain and the next: `a.b(…).c(…)` in Scala and Java trees. */
const CHAIN_LINKS = new Set(['field_expression', 'arguments', 'argument_list']);

/** Names bound exactly once in the file to a literal (a string, number, boolean or map of them): its node. */
function constants(root: Node, grammar: JvmGrammar): Map<string, Node> {
  const bound = new Map<string, Node | null>();
  for (const node of nodesOf(root)) {
    const binding = grammar.binding(node);
    if (!binding) continue;
    bound.set(binding.name, bound.has(binding.name) ? null : binding.value);
  }
  const literal = new Map<string, Node>();
  for (const [name, value] of bound)
    if (value && (grammar.text(value, '') || grammar.scalar(value) || grammar.pairs(value))) literal.set(name, value);
  return literal;
}

/** A value as the audit reports it: the literal's content, or not a constant. */
interface Read {
  value: string | null;
  constant: boolean;
}

export class JvmReader {
  private readonly host: LineIndex;
  private readonly consts: Map<string, Node>;

  constructor(
    private readonly grammar: JvmGrammar,
    private readonly root: Node,
    private readonly file: string,
    text: string,
  ) {
    this.host = new LineIndex(text);
    this.consts = constants(root, grammar);
  }

  /** The node an expression stands for: a constant's literal for a name bound once to one. */
  private resolve(node: Node): Node {
    return node.type === 'identifier' ? (this.consts.get(node.text) ?? node) : node;
  }

  /**
   * The text a string expression builds: a literal, a name bound once to one, or a concatenation of them
   * (`"… '" + level + "' …"`), any other operand a placeholder; null when `node` is no string expression.
   */
  private text(node: Node): { content: Embedded; interpolated: boolean } | null {
    const operands = this.grammar.concat(node);
    if (!operands) return this.grammar.text(this.resolve(node), this.host.text);
    const content = new Embedded();
    let interpolated = false;
    let strings = 0;
    for (const operand of operands) {
      const part = this.text(operand);
      if (part) strings++;
      interpolated ||= !part || part.interpolated;
      if (!part) content.push('_'.repeat(operand.endIndex - operand.startIndex), operand.startIndex, false);
      else
        for (let at = 0; at < part.content.text.length; at++)
          content.push(part.content.text[at] as string, part.content.hostOffset(at));
    }
    return strings > 0 ? { content, interpolated } : null;
  }

  private read(node: Node): Read {
    const target = this.resolve(node);
    const text = this.text(node);
    if (text)
      return text.interpolated ? { value: null, constant: false } : { value: text.content.text, constant: true };
    if (this.grammar.scalar(target)) return { value: target.text, constant: true };
    return { value: null, constant: false };
  }

  private setting(key: string, keyNode: Node, value: Node, kind: SettingKind, via: string): CodeSetting {
    const { value: content, constant } = this.read(value);
    return {
      file: this.file,
      ...valuePlace(this.host, value.startIndex, value.endIndex, keyNode.startIndex),
      key,
      value: content,
      raw: value.text,
      constant,
      kind,
      via,
      language: this.grammar.language,
      writer: 'spark',
    };
  }

  /**
   * The table a writer's option applies to, when the chain it is in names it with a literal further on:
   * `.saveAsTable("db.t")`, `.toTable("db.t")`, `.insertInto("db.t")`, or `.save("s3://…")` for a path.
   */
  private writtenTable(option: Node): string | undefined {
    for (let at = option.parent; at; at = at.parent) {
      const call = this.grammar.call(at);
      if (!call && !CHAIN_LINKS.has(at.type)) return undefined;
      const [target] = call?.args ?? [];
      if (!call || !TABLE_SINKS.has(call.method) || !target) continue;
      const name = this.read(target);
      return name.constant && name.value !== null ? name.value : undefined;
    }
    return undefined;
  }

  /** The setting a call makes, if any: `set`/`setConf`/`config(k, v)` of a conf, `option(k, v)` of a writer. */
  private fromCall(method: string, keyNode: Node, value: Node): CodeSetting | null {
    const key = this.read(keyNode);
    if (!key.constant || key.value === null) return null;
    if ((method === 'set' || method === 'setConf' || method === 'config') && isDeltaConfKey(key.value))
      return this.setting(key.value, keyNode, value, 'spark-conf', method === 'config' ? '.config' : `.${method}`);
    if (method !== 'option' && method !== 'options') return null;
    if (isDeltaTableProperty(key.value)) return this.setting(key.value, keyNode, value, 'table-property', `.${method}`);
    if (isDeltaConfKey(key.value)) return this.setting(key.value, keyNode, value, 'spark-conf', `.${method}`);
    return null;
  }

  /** The settings a call makes: one pair of arguments, or each pair of an `options(Map(…))`. */
  private fromCalls(node: Node, { method, args }: JvmCall): CodeSetting[] {
    const [first, second] = args;
    const pairs = args.length === 2 && first && second ? [[first, second] as [Node, Node]] : [];
    if (method === 'options' && args.length === 1 && first)
      pairs.push(...(this.grammar.pairs(this.resolve(first)) ?? []));
    const settings = pairs.flatMap(([key, value]) => this.fromCall(method, key, value) ?? []);
    const writes = settings.some((setting) => setting.via === '.option' || setting.via === '.options');
    const table = writes ? this.writtenTable(node) : undefined;
    return table === undefined ? settings : settings.map((setting) => ({ ...setting, table }));
  }

  async extract(): Promise<Extraction> {
    const found: Extraction = { settings: [], problems: [] };
    const error = firstError(this.root);
    if (error) {
      const name = this.grammar.language === 'scala' ? 'Scala' : 'Java';
      const { line, column } = this.host.at(error.startIndex);
      const what = error.isMissing ? `a missing ${error.type}` : 'code it cannot read';
      const message = `${name} does not parse here (tree-sitter found ${what}); the settings around it are still read`;
      found.problems.push({ file: this.file, line, column, message });
    }
    for (const node of nodesOf(this.root)) {
      const call = this.grammar.call(node);
      if (!call) continue;
      found.settings.push(...this.fromCalls(node, call));
      const [query] = call.args;
      const sql = call.method === 'sql' && query ? this.text(query) : null;
      if (sql) {
        const more = await sqlSettings(sql.content, this.host, this.file, 'spark');
        found.settings.push(...more.settings);
        found.problems.push(...more.problems);
      }
    }
    found.settings.sort((a, b) => a.line - b.line || a.column - b.column);
    return found;
  }
}

/** Reads a Scala or Java file with `grammar`. */
export async function jvmSettings(grammar: JvmGrammar, file: string, text: string): Promise<Extraction> {
  const parser = await parserFor(grammar.grammar);
  const tree = parser.parse(text);
  parser.delete();
  if (!tree) throw new Error(`tree-sitter-${grammar.grammar} returned no tree`);
  try {
    return await new JvmReader(grammar, tree.rootNode, file, text).extract();
  } finally {
    tree.delete();
  }
}

/** Pushes host text [from, to) into `into`, each `holes` range as a placeholder; whether there was any hole. */
export function pushWithHoles(into: Embedded, host: string, from: number, to: number, holes: Node[]): boolean {
  let at = from;
  for (const hole of holes) {
    if (hole.startIndex > at) into.push(host.slice(at, hole.startIndex), at);
    into.push('_'.repeat(hole.endIndex - hole.startIndex), hole.startIndex, false);
    at = hole.endIndex;
  }
  if (to > at) into.push(host.slice(at, to), at);
  return holes.length > 0;
}
