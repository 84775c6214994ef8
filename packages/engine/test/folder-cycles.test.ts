/**
 * Folder-level import cycles in every package and app, by scripts/import-graph.mjs (`node scripts/import-graph.mjs`
 * prints them): folder A depends on folder B when a file directly in A imports one directly in B, at every folder
 * level, type-only imports included. No workspace may have one. The checker itself is tried on small trees made here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderCycles, REPO_ROOT, specifiers, WORKSPACES } from '../../../scripts/import-graph.mjs';
import { tempDir } from './helpers/tmp';

describe('folder-level import cycles', () => {
  it('the workspaces are every package and app', () => {
    expect(WORKSPACES).toEqual(expect.arrayContaining(['packages/engine', 'packages/lab', 'apps/api', 'apps/web']));
  });

  it.each(WORKSPACES)('%s has none', (pkg) => {
    expect(folderCycles(join(REPO_ROOT, pkg))).toEqual([]);
  });
});

/** A package of `files` (path → text) in a new folder. */
function tree(name: string, files: Record<string, string>): string {
  const root = tempDir(name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the checker', () => {
  it('reads static, type-only, re-export and dynamic imports, not those in comments', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export * from './c/index';",
      'export {\n  d,\n  type E,\n} from "./d";',
      "import './side-effect';",
      "const f = await import('./f');",
      "// import { g } from './g';",
      "/* export { h } from './h'; */",
    ].join('\n');
    expect(specifiers(text).sort()).toEqual(['../b', './a', './c/index', './d', './f', './side-effect']);
  });

  it('finds a loop of two folders, also when one side imports only types', () => {
    const root = tree('cycles-two', {
      'src/a/x.ts': "import { y } from '../b/y';\nexport const x = y;",
      'src/b/y.ts': "import type { Z } from '../a/z';\nexport const y: Z = 1;",
      'src/a/z.ts': 'export type Z = number;',
    });
    expect(folderCycles(root)).toEqual([
      { folders: ['src/a', 'src/b'], imports: ['src/a/x.ts -> src/b/y.ts', 'src/b/y.ts -> src/a/z.ts'] },
    ]);
  });

  it('finds a loop one level up, between sibling folders that lean on each other through subfolders', () => {
    const root = tree('cycles-up', {
      'src/p/q/x.ts': "export { y } from '../../r/y';",
      'src/r/y.ts': "export const y = 1;\nexport const w = () => import('../p/w');",
      'src/p/w.ts': 'export const w = 2;',
    });
    expect(folderCycles(root).map((c) => c.folders)).toEqual([['src/p', 'src/r']]);
  });

  it('finds a loop between a folder and its parent, through an index file', () => {
    const root = tree('cycles-parent', {
      'src/index.ts': "export * from './m';",
      'src/m/index.ts': "export { k } from './k';",
      'src/m/k.ts': "import { top } from '..';\nexport const k = top;",
      'src/top.ts': 'export const top = 1;',
    });
    expect(folderCycles(root).map((c) => c.folders)).toEqual([['src', 'src/m']]);
  });

  it('passes an acyclic tree', () => {
    const root = tree('cycles-none', {
      'src/index.ts': "export * from './ops/run';",
      'src/ops/run.ts':
        "import { pure } from '../kernel/pure';\nimport { put } from '../storage/put';\nexport const run = [pure, put];",
      'src/storage/put.ts': "import type { Pure } from '../kernel/pure';\nexport const put: Pure = 1;",
      'src/kernel/pure.ts': 'export type Pure = number;\nexport const pure = 1;',
      'test/run.test.ts': "import { run } from '../src/ops/run';\nexport default run;",
    });
    expect(folderCycles(root)).toEqual([]);
  });
});
