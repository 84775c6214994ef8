/**
 * Settings in Java Spark jobs (tree-sitter-java): the JVM rules of jvm-settings.ts over Java's method calls,
 * variable declarations and assignments, and string literals (`"…"` and text blocks `"""…"""`).
 */
import type { Extractor } from '../setting';
import { Embedded } from '../source-map';
import type { Node } from '../tree-sitter';
import { type JvmGrammar, jvmSettings } from './jvm-settings';

const java: JvmGrammar = {
  grammar: 'java',
  language: 'java',
  call(node) {
    if (node.type !== 'method_invocation') return null;
    const method = node.childForFieldName('name')?.text;
    const args = node.childForFieldName('arguments');
    if (!method || !args) return null;
    return {
      method,
      args: args.namedChildren.filter((arg): arg is Node => arg !== null && !arg.type.endsWith('comment')),
    };
  },
  binding(node) {
    if (node.type === 'variable_declarator') {
      const name = node.childForFieldName('name');
      return name ? { name: name.text, value: node.childForFieldName('value') } : null;
    }
    const left = node.type === 'assignment_expression' ? node.childForFieldName('left') : null;
    return left?.type === 'identifier' ? { name: left.text, value: null } : null;
  },
  text(node, host) {
    if (node.type !== 'string_literal') return null;
    const quotes = node.text.startsWith('"""') ? 3 : 1;
    const content = new Embedded();
    content.push(host.slice(node.startIndex + quotes, node.endIndex - quotes), node.startIndex + quotes);
    return { content, interpolated: false };
  },
  concat(node) {
    if (node.type !== 'binary_expression' || node.childForFieldName('operator')?.text !== '+') return null;
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    return left && right ? [left, right] : null;
  },
  pairs(node) {
    const call = node.type === 'method_invocation' ? node : null;
    if (call?.childForFieldName('object')?.text !== 'Map' || call.childForFieldName('name')?.text !== 'of') return null;
    const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter((arg): arg is Node => arg !== null);
    const pairs: [Node, Node][] = [];
    for (let i = 0; i + 1 < args.length; i += 2) pairs.push([args[i] as Node, args[i + 1] as Node]);
    return pairs;
  },
  scalar: (node) => /_(integer|floating_point)_literal$|^(true|false)$/.test(node.type),
};

export const javaExtractor: Extractor = {
  name: 'java',
  accepts: (file) => /\.java$/i.test(file),
  extract: (file, text) => jvmSettings(java, file, text),
};
