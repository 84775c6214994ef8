/**
 * Settings in Scala Spark jobs (tree-sitter-scala): the JVM rules of jvm-settings.ts over Scala's calls
 * (`a.b(x, y)`), `val`/`var` bindings and strings: `"…"`, triple-quoted `"""…"""` (with `.stripMargin`, whose
 * `|` margins are read as spaces) and interpolated `s"…"` / `f"…"` / `raw"…"`, whose fields are placeholders.
 */
import type { Extractor } from '../setting';
import { Embedded } from '../source-map';
import type { Node } from '../tree-sitter';
import { type JvmGrammar, jvmSettings, pushWithHoles } from './jvm-settings';
import { childrenOf } from './tree-nodes';

/** The quotes around a Scala string's content. */
function quoteLength(text: string): number {
  return text.startsWith('"""') ? 3 : 1;
}

/** Blanks `.stripMargin`'s margins (`|` after a line's leading blanks) to spaces: same length, same places. */
function stripMargin(content: Embedded): Embedded {
  const blanked = content.text.replace(/(^|\n)([ \t]*)\|/g, (_, lead: string, blanks: string) => `${lead}${blanks} `);
  const into = new Embedded();
  for (let at = 0; at < blanked.length; at++) into.push(blanked[at] as string, content.hostOffset(at));
  return into;
}

function stringText(node: Node, host: string): { content: Embedded; interpolated: boolean } | null {
  if (node.type === 'field_expression' && node.childForFieldName('field')?.text === 'stripMargin') {
    const inner = node.childForFieldName('value');
    const read = inner ? stringText(inner, host) : null;
    return read ? { ...read, content: stripMargin(read.content) } : null;
  }
  const literal =
    node.type === 'interpolated_string_expression'
      ? childrenOf(node).find((c) => c.type === 'interpolated_string')
      : node;
  if (!literal || (literal.type !== 'string' && literal.type !== 'interpolated_string')) return null;
  const quotes = quoteLength(literal.text);
  const content = new Embedded();
  const holes = childrenOf(literal).filter((child) => child.type === 'interpolation');
  const interpolated = pushWithHoles(content, host, literal.startIndex + quotes, literal.endIndex - quotes, holes);
  return { content, interpolated };
}

const scala: JvmGrammar = {
  grammar: 'scala',
  language: 'scala',
  call(node) {
    if (node.type !== 'call_expression') return null;
    const callee = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    if (callee?.type !== 'field_expression' || !args) return null;
    const method = callee.childForFieldName('field')?.text;
    return method
      ? { method, args: args.namedChildren.filter((arg): arg is Node => arg !== null && arg.type !== 'comment') }
      : null;
  },
  binding(node) {
    if (node.type === 'val_definition' || node.type === 'var_definition') {
      const name = node.childForFieldName('pattern');
      if (name?.type !== 'identifier') return null;
      return { name: name.text, value: node.type === 'val_definition' ? node.childForFieldName('value') : null };
    }
    const left = node.type === 'assignment_expression' ? node.childForFieldName('left') : null;
    return left?.type === 'identifier' ? { name: left.text, value: null } : null;
  },
  text: stringText,
  concat(node) {
    if (node.type !== 'infix_expression' || node.childForFieldName('operator')?.text !== '+') return null;
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    return left && right ? [left, right] : null;
  },
  pairs(node) {
    if (node.type !== 'call_expression' || node.childForFieldName('function')?.text !== 'Map') return null;
    const args = node.childForFieldName('arguments')?.namedChildren ?? [];
    return args.flatMap((arg) => {
      if (arg?.type !== 'infix_expression' || arg.childForFieldName('operator')?.text !== '->') return [];
      const key = arg.childForFieldName('left');
      const value = arg.childForFieldName('right');
      return key && value ? [[key, value] as [Node, Node]] : [];
    });
  },
  scalar: (node) => /^(integer_literal|floating_point_literal|boolean_literal)$/.test(node.type),
};

export const scalaExtractor: Extractor = {
  name: 'scala',
  accepts: (file) => /\.(scala|sc)$/i.test(file),
  extract: (file, text) => jvmSettings(scala, file, text),
};
