/**
 * Walking tree-sitter trees as the extractors need: a node's children without the gaps web-tree-sitter
 * leaves as null, and every node of the tree in source order.
 */
import type { Node } from '../tree-sitter';

export function childrenOf(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null);
}

/** Every node under `root` (itself included) in source order. */
export function* nodesOf(root: Node): Generator<Node> {
  const cursor = root.walk();
  let descending = true;
  for (;;) {
    if (descending) yield cursor.currentNode;
    if (descending && cursor.gotoFirstChild()) continue;
    if (cursor.gotoNextSibling()) {
      descending = true;
      continue;
    }
    if (!cursor.gotoParent()) return;
    descending = false;
    if (cursor.currentNode.id === root.id) return;
  }
}

/** The first place tree-sitter could not parse: an ERROR node, or a node it had to assume (MISSING). */
export function firstError(root: Node): Node | null {
  if (!root.hasError) return null;
  for (const node of nodesOf(root)) if (node.type === 'ERROR' || node.isMissing) return node;
  return null;
}
