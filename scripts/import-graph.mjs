#!/usr/bin/env node
/**
 * Folder-level import cycles of a package: plain Node, no dependencies.
 *
 * Every source file's imports (`import … from '…'`, `export … from '…'`, `import '…'`, `import('…')`, type-only ones
 * too: a loop of types is still a loop for a reader) are resolved, when relative or a workspace package's export,
 * to a file (`.ts`, `.tsx`, `.mts`, `.js`, `.mjs`, or a folder's `index.*`). Folder A depends on folder B when a
 * file directly in A imports a file directly in B. The check looks at every folder level: at depth d each folder
 * stands for everything below it (src/delta for src/delta/log and src/delta/commit), so two sibling folders that
 * lean on each other through their subfolders are a cycle too. A cycle is a strongly connected component of more
 * than one folder at some depth; a component that is one already found a level up (its folders cut to that
 * level) counts once.
 *
 *   node scripts/import-graph.mjs [dir…]   prints each package's cycles (default: every workspace package and app)
 *                                          and exits 1 when there is one
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root (this script lives in its scripts/ folder). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every workspace of the root package.json (`apps/*`, `packages/*`, `bench`), relative to the repository's root. */
export const WORKSPACES = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).workspaces.flatMap((w) =>
  w.endsWith('/*')
    ? readdirSync(join(REPO_ROOT, w.slice(0, -2)), { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(REPO_ROOT, w.slice(0, -2), d.name, 'package.json')))
        .map((d) => `${w.slice(0, -2)}/${d.name}`)
        .sort()
    : [w],
);

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|jsx)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.next', 'var', 'dist', 'out', '.turbo', 'coverage']);
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];

const isSource = (name) => SOURCE.test(name) && !name.endsWith('.d.ts');

/** Every file under `root` by walking its folders (hidden ones and build output left out). */
function walk(root) {
  const found = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...walk(path));
    else found.push(path);
  }
  return found;
}

/**
 * Every source file under `root`, as absolute paths (declaration files left out): in a git work tree the files
 * git knows or would add (generated code it ignores is no one's to read), elsewhere every file found.
 */
function sourceFiles(root) {
  let files;
  try {
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    files = listed
      .split('\0')
      .filter(Boolean)
      .map((f) => join(root, f))
      .filter((f) => existsSync(f));
  } catch {
    files = walk(root);
  }
  return files.filter((f) => isSource(f));
}

/** Comments blanked out, so an import written in a comment is no edge. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}

const STATIC = /(?:^|[;\s}])(?:import|export)\s+(?:type\s+)?(?:[\w*${},\s]+?\s+from\s*)?['"]([^'"\n]+)['"]/g;
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** The module specifiers a source text imports. */
export function specifiers(text) {
  const code = stripComments(text);
  const found = [];
  for (const pattern of [STATIC, DYNAMIC]) {
    for (const match of code.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/** The file a path names, trying the source extensions and a folder's index file; undefined when none exists. */
function resolveFile(path) {
  const isFile = (p) => existsSync(p) && statSync(p).isFile();
  if (isFile(path)) return path;
  const bare = path.replace(/\.(js|mjs|jsx)$/, '');
  for (const ext of EXTENSIONS) if (isFile(bare + ext)) return bare + ext;
  for (const ext of EXTENSIONS) if (isFile(join(path, `index${ext}`))) return join(path, `index${ext}`);
  return undefined;
}

/** Workspace package name → its folder and `exports` map, read from the root package.json's workspaces. */
function workspaceAliases(repoRoot) {
  const aliases = new Map();
  const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  for (const pattern of rootPackage.workspaces ?? []) {
    const parent = join(repoRoot, pattern.replace(/\/\*$/, ''));
    const dirs = pattern.endsWith('/*')
      ? readdirSync(parent, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(parent, e.name))
      : [parent];
    for (const dir of dirs) {
      const manifest = join(dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      if (pkg.name) aliases.set(pkg.name, { dir, exports: pkg.exports });
    }
  }
  return aliases;
}

/** The file `specifier` names from `from`, or undefined for an outside package or an unknown path. */
function resolveSpecifier(specifier, from, aliases) {
  if (specifier.startsWith('.')) return resolveFile(resolve(dirname(from), specifier));
  for (const [name, { dir, exports }] of aliases) {
    if (specifier !== name && !specifier.startsWith(`${name}/`)) continue;
    const subpath = `.${specifier.slice(name.length)}`;
    const target = typeof exports === 'string' ? (subpath === '.' ? exports : undefined) : exports?.[subpath];
    const path = typeof target === 'string' ? target : (target?.import ?? target?.default);
    return path ? resolveFile(join(dir, path)) : resolveFile(join(dir, subpath));
  }
  return undefined;
}

/** Each file's imported files inside `root`, as paths relative to `root` with `/` separators. */
export function fileGraph(root, aliases = workspaceAliases(REPO_ROOT)) {
  const rel = (p) => relative(root, p).split(sep).join('/');
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const targets = new Set();
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(specifier, file, aliases);
      if (target && !relative(root, target).startsWith('..')) targets.add(rel(target));
    }
    graph.set(rel(file), targets);
  }
  return graph;
}

/** The folder `file` sits in, cut to its first `depth` parts ('.' for the root). */
function folderAt(file, depth) {
  const parts = file.split('/').slice(0, -1);
  return parts.length === 0 ? '.' : parts.slice(0, depth).join('/');
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
export function stronglyConnected(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * The folder cycles under `root`: each a sorted list of folders (relative to `root`) with, for a reader, one
 * file-level import behind each folder edge inside it.
 */
export function folderCycles(root, aliases) {
  const files = fileGraph(root, aliases);
  const maxDepth = Math.max(1, ...[...files.keys()].map((f) => f.split('/').length - 1));
  const seen = new Map();
  for (let depth = 1; depth <= maxDepth; depth++) {
    const edges = new Map();
    const witness = new Map();
    for (const [from, targets] of files) {
      const a = folderAt(from, depth);
      if (!edges.has(a)) edges.set(a, new Set());
      for (const to of targets) {
        const b = folderAt(to, depth);
        if (a === b) continue;
        edges.get(a).add(b);
        if (!witness.has(`${a} ${b}`)) witness.set(`${a} ${b}`, `${from} -> ${to}`);
      }
    }
    for (const folders of stronglyConnected(edges)) {
      const key = folders.join(' ');
      // The same loop seen one level up (its folders cut to depth - 1) is already counted.
      const above = [
        ...new Set(
          folders.map(
            (f) =>
              f
                .split('/')
                .slice(0, depth - 1)
                .join('/') || '.',
          ),
        ),
      ].sort();
      if (seen.has(key) || seen.has(above.join(' '))) continue;
      const members = new Set(folders);
      const imports = [...witness]
        .filter(([pair]) => pair.split(' ').every((f) => members.has(f)))
        .map(([, example]) => example);
      seen.set(key, { folders, imports });
    }
  }
  return [...seen.values()];
}

function main(args) {
  const dirs = args.length > 0 ? args.map((a) => resolve(a)) : WORKSPACES.map((w) => join(REPO_ROOT, w));
  const aliases = workspaceAliases(REPO_ROOT);
  let total = 0;
  for (const dir of dirs) {
    const cycles = folderCycles(dir, aliases);
    total += cycles.length;
    console.log(`${relative(process.cwd(), dir) || '.'}: ${cycles.length} folder cycle(s)`);
    for (const { folders, imports } of cycles) {
      console.log(`  ${folders.join(' <-> ')}`);
      for (const line of imports) console.log(`    ${line}`);
    }
  }
  process.exitCode = total > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
