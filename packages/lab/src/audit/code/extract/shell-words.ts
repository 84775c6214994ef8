/**
 * What a shell word, a quoted string or a heredoc says, as embedded text mapped back to the script: quotes
 * removed, each expansion (`$X`, `${X}`, `$(…)`) replaced by a placeholder of its length, so a value that
 * holds one is known to be computed at run time.
 */

import { Embedded } from '../source-map';
import type { Node } from '../tree-sitter';
import { childrenOf } from './tree-nodes';

const EXPANSIONS = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'arithmetic_expansion',
  'process_substitution',
]);

/** The text of `node` between host offsets [from, to), expansions as placeholders. */
function pushRange(node: Node, from: number, to: number, into: Embedded, host: string): void {
  let at = from;
  for (const child of childrenOf(node)) {
    if (!EXPANSIONS.has(child.type) || child.endIndex <= from || child.startIndex >= to) continue;
    if (child.startIndex > at) into.push(host.slice(at, child.startIndex), at);
    into.push('_'.repeat(child.endIndex - child.startIndex), child.startIndex, false);
    at = child.endIndex;
  }
  if (to > at) into.push(host.slice(at, to), at);
}

function pushWord(node: Node, into: Embedded, host: string): void {
  if (node.type === 'concatenation') for (const part of childrenOf(node)) pushWord(part, into, host);
  else if (node.type === 'string' || node.type === 'raw_string' || node.type === 'ansi_c_string')
    pushRange(node, node.startIndex + (node.type === 'ansi_c_string' ? 2 : 1), node.endIndex - 1, into, host);
  else if (EXPANSIONS.has(node.type)) into.push('_'.repeat(node.endIndex - node.startIndex), node.startIndex, false);
  else into.push(host.slice(node.startIndex, node.endIndex), node.startIndex);
}

/** A word of a command (a bare word, a quoted string, a concatenation of them) as the command receives it. */
export function shellWord(node: Node, host: string): Embedded {
  const into = new Embedded();
  pushWord(node, into, host);
  return into;
}

/** A heredoc's body as the command reads it (a quoted delimiter keeps `$` as written: nothing is expanded). */
export function heredocText(body: Node, host: string, expands: boolean): Embedded {
  const into = new Embedded();
  if (expands) pushRange(body, body.startIndex, body.endIndex, into, host);
  else into.push(host.slice(body.startIndex, body.endIndex), body.startIndex);
  return into;
}
