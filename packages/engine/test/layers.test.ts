/**
 * The engine's layers (src/README.md), file by file: the kernel imports only the kernel; storage imports only
 * storage and the kernel, never the operations; nothing below the entry points imports them.
 */
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { fileGraph } from '../../../scripts/import-graph.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES = ['src/index.ts', 'src/conflict.ts'];

/** Every import from a file under `from` to a file not under one of `allowed`, as "importer -> imported". */
function outside(from: string, allowed: string[]): string[] {
  const found: string[] = [];
  for (const [file, targets] of fileGraph(ROOT)) {
    if (!file.startsWith(from)) continue;
    for (const t of targets) if (!allowed.some((a) => t.startsWith(a))) found.push(`${file} -> ${t}`);
  }
  return found;
}

it('the kernel imports only the kernel', () => {
  expect(outside('src/kernel/', ['src/kernel/'])).toEqual([]);
});

it('storage imports only storage and the kernel', () => {
  expect(outside('src/storage/', ['src/storage/', 'src/kernel/'])).toEqual([]);
});

it('the operations import the operations, storage and the kernel, never an entry point', () => {
  expect(outside('src/ops/', ['src/ops/', 'src/storage/', 'src/kernel/'])).toEqual([]);
});

it('the browser entry takes only the kernel', () => {
  expect(outside('src/conflict.ts', ['src/kernel/'])).toEqual([]);
  expect(ENTRIES.every((e) => fileGraph(ROOT).has(e))).toBe(true);
});
