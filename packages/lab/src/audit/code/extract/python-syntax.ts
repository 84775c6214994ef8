/**
 * Python syntax for the Python extractor: a tree-sitter-python parse that tolerates fragments (an
 * excerpt that leaves brackets open is parsed again with them closed after its text, so no offset
 * moves), the nodes a reading needs found in one walk, and the names each scope binds, so that a name
 * bound exactly once to a literal can be followed to it and a function's parameter recognised.
 */
import { type Node, parserFor } from '../tree-sitter';

let parser: ReturnType<typeof parserFor> | null = null;

/** The syntax tree of `text` (the caller deletes it); a fragment's brackets closed when that parses better. */
export async function parse(text: string) {
  parser ??= parserFor('python');
  const p = await parser;
  const tree = p.parse(text);
  if (!tree) throw new Error('tree-sitter-python returned no tree');
  if (!tree.rootNode.hasError) return tree;
  // A fragment that leaves brackets open: close them after the text (which keeps every offset) and parse again.
  const closers = unclosed(tree.rootNode);
  if (closers === '') return tree;
  const closed = p.parse(`${text}\n${closers}`);
  if (!closed || countErrors(closed.rootNode) >= countErrors(tree.rootNode)) {
    closed?.delete();
    return tree;
  }
  tree.delete();
  return closed;
}

/** The brackets a tree's tokens leave open, as the text that closes them. */
function unclosed(root: Node): string {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const open: string[] = [];
  const cursor = root.walk();
  let done = false;
  while (!done) {
    const type = cursor.nodeType;
    if (cursor.currentNode.childCount === 0) {
      if (pairs[type]) open.push(pairs[type] as string);
      else if (open.at(-1) === type) open.pop();
    }
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        done = true;
        break;
      }
    }
  }
  return open.reverse().join('');
}

function countErrors(node: Node): number {
  return node.descendantsOfType(['ERROR', 'MISSING']).length;
}

/** Every node of `types` under `root`, in source order. */
function nodesOf(root: Node, types: string[]): Node[] {
  return root.descendantsOfType(types).filter((n): n is Node => n !== null);
}

/** The statements and expressions that bind names. */
const BINDINGS = [
  'assignment',
  'augmented_assignment',
  'named_expression',
  'for_statement',
  'for_in_clause',
  'as_pattern',
  'import_from_statement',
  'import_statement',
  'function_definition',
  'class_definition',
  'global_statement',
  'nonlocal_statement',
];

/** The nodes a reading needs, found in one walk of the tree: bindings, calls, imported aliases. */
export function nodesToRead(root: Node): { bindings: Node[]; calls: Node[]; aliases: Node[] } {
  const found = { bindings: [] as Node[], calls: [] as Node[], aliases: [] as Node[] };
  for (const node of nodesOf(root, [...BINDINGS, 'call', 'aliased_import'])) {
    if (node.type === 'call') found.calls.push(node);
    else if (node.type === 'aliased_import') found.aliases.push(node);
    if (node.type !== 'call') found.bindings.push(node);
  }
  return found;
}

/**
 * The function or module whose names `node` sees first. A class body's names count as its enclosing
 * scope's: a name bound in both is then bound twice, so not a constant, never a wrong one.
 */
function scopeOf(node: Node): Node {
  let at = node.parent;
  while (at && at.type !== 'function_definition' && at.type !== 'module') at = at.parent;
  return at ?? node.tree.rootNode;
}

/** The names a scope binds, each with the expressions bound (null: bound by something other than `=`). */
type Bindings = Map<string, (Node | null)[]>;

/** Names bound in every scope of a tree, and each function's parameters. */
export class Scopes {
  private readonly bound = new Map<number, Bindings>();
  private readonly params = new Map<number, string[]>();

  constructor(bindings: Node[]) {
    for (const node of bindings) this.collect(node);
  }

  private bind(scope: Node, name: string, value: Node | null): void {
    const names = this.bound.get(scope.id) ?? new Map<string, (Node | null)[]>();
    this.bound.set(scope.id, names);
    names.set(name, [...(names.get(name) ?? []), value]);
  }

  private bindTargets(scope: Node, target: Node | null, value: Node | null): void {
    if (!target) return;
    if (target.type === 'identifier') this.bind(scope, target.text, value);
    else for (const id of nodesOf(target, ['identifier'])) this.bind(scope, id.text, null);
  }

  private collect(node: Node): void {
    const scope = scopeOf(node);
    switch (node.type) {
      case 'assignment': {
        const right = node.childForFieldName('right');
        const left = node.childForFieldName('left');
        // `a = b = 1`: the inner assignment binds `b`; `a` takes the same value.
        let value = right;
        while (value?.type === 'assignment') value = value.childForFieldName('right');
        this.bindTargets(scope, left, right ? value : null);
        return;
      }
      case 'augmented_assignment':
        this.bindTargets(scope, node.childForFieldName('left'), null);
        return;
      case 'named_expression':
        this.bindTargets(scope, node.childForFieldName('name'), node.childForFieldName('value'));
        return;
      case 'for_statement':
      case 'for_in_clause':
        this.bindTargets(scope, node.childForFieldName('left'), null);
        return;
      case 'as_pattern': {
        const alias = node.childForFieldName('alias');
        this.bindTargets(scope, alias, null);
        return;
      }
      case 'import_statement':
      case 'import_from_statement':
        // `import a.b` binds `a`; `import a as x` and `from m import a as x` bind `x`; `from m import a` binds `a`.
        for (const name of node.childrenForFieldName('name')) {
          if (!name) continue;
          const alias = name.type === 'aliased_import' ? name.childForFieldName('alias') : null;
          const bound = alias?.text ?? (node.type === 'import_statement' ? name.text.split('.')[0] : name.text);
          if (bound) this.bind(scope, bound, null);
        }
        return;
      case 'global_statement':
      case 'nonlocal_statement':
        for (const id of node.namedChildren) if (id?.type === 'identifier') this.bind(scope, id.text, null);
        return;
      case 'class_definition':
      case 'function_definition': {
        const name = node.childForFieldName('name');
        if (name) this.bind(scope, name.text, null);
        if (node.type === 'function_definition') this.collectParams(node);
        return;
      }
    }
  }

  private collectParams(fn: Node): void {
    const names: string[] = [];
    for (const p of fn.childForFieldName('parameters')?.namedChildren ?? []) {
      if (!p) continue;
      const id =
        p.type === 'identifier'
          ? p
          : (p.childForFieldName('name') ?? p.namedChildren.find((c) => c?.type === 'identifier'));
      if (!id) continue;
      names.push(id.text);
      this.bind(fn, id.text, null);
    }
    this.params.set(fn.id, names);
  }

  /** The one expression `name` is bound to as seen from `from`, or what makes it not one. */
  lookup(name: string, from: Node): { value: Node } | { param: { fn: Node; name: string; index: number } } | null {
    let scope: Node | null = scopeOf(from);
    while (scope) {
      const found = this.bound.get(scope.id)?.get(name);
      if (found) {
        const index = this.params.get(scope.id)?.indexOf(name) ?? -1;
        if (index >= 0) return found.length === 1 ? { param: { fn: scope, name, index } } : null;
        return found.length === 1 && found[0] ? { value: found[0] } : null;
      }
      scope = scope.type === 'module' ? null : scopeOf(scope);
    }
    return null;
  }

  /** The parameter names of function `fn`. */
  parameters(fn: Node): string[] {
    return this.params.get(fn.id) ?? [];
  }
}
