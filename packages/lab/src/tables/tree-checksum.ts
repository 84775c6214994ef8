/**
 * A folder's content as one checksum, and what changed between two: every file below it by path, size and the
 * SHA-256 of its bytes. The lab takes it of the table a command writer's copy is made from, before and after its
 * jobs run, since a job is code of the user's own that could write anywhere it can reach.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Each file below the folder, by its path relative to it: its size and content hash. */
export type TreeSums = Map<string, string>;

async function fileSum(path: string): Promise<string> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return `${size}:${hash.digest('hex')}`;
}

export async function treeSums(dir: string): Promise<TreeSums> {
  const sums: TreeSums = new Map();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    const path = join(e.parentPath, e.name);
    const key = relative(dir, path);
    if (e.isFile()) sums.set(key, await fileSum(path));
    else if (!e.isDirectory()) sums.set(key, e.isSymbolicLink() ? 'symlink' : 'other');
  }
  return sums;
}

/** What differs, in words: "2 files added (a, b), 1 changed (c)"; empty when nothing did. */
export function treeChanges(before: TreeSums, after: TreeSums): string {
  const added = [...after.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !after.has(k));
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  const said = (n: string[], what: string) =>
    n.length === 0 ? [] : [`${n.length} ${what} (${n.slice(0, 3).join(', ')}${n.length > 3 ? ', …' : ''})`];
  return [...said(added, 'added'), ...said(changed, 'changed'), ...said(removed, 'removed')].join(', ');
}
