/**
 * Vacuum removes the folders it leaves empty, and a folder a writer has just made is empty until the writer's
 * file lands in it. A local write whose folder goes in that moment makes it again. The moment is forced: the
 * file system's open and rename first remove the folder they write into, once, as a vacuum would.
 */
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LocalObjectStore } from '../src/index';
import { tempDir } from './helpers/tmp';

/** Folders to remove just before the next write into them (each once). */
const vanishing = new Set<string>();
const vanish = (path: fs.PathLike) => {
  const dir = dirname(String(path));
  if (vanishing.delete(dir)) fs.rmdirSync(dir);
};

vi.mock('node:fs', async (original) => {
  const real = await original<typeof import('node:fs')>();
  return {
    ...real,
    openSync: (path: fs.PathLike, flags: fs.OpenMode, mode?: fs.Mode) => {
      vanish(path);
      return real.openSync(path, flags, mode);
    },
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      vanish(to);
      return real.renameSync(from, to);
    },
  };
});

const root = tempDir('vanishing-folder');

describe('a local write whose new folder vacuum removes before the file lands', () => {
  it('makes the folder again, for a file written from bytes and for one moved into place', async () => {
    const store = new LocalObjectStore(join(root, 'table'));
    vanishing.add(join(root, 'table', 'ab'));
    await store.putBytes('ab/part-0.parquet', new Uint8Array([1, 2, 3]));
    expect(vanishing.size).toBe(0);
    expect([...(await store.get('ab/part-0.parquet'))]).toEqual([1, 2, 3]);

    const staged = join(await store.stagingDir(), 'f.parquet');
    fs.writeFileSync(staged, 'PAR1');
    vanishing.add(join(root, 'table', 'cd'));
    await store.putFile('cd/part-1.parquet', staged);
    expect(vanishing.size).toBe(0);
    expect(fs.readFileSync(join(root, 'table', 'cd', 'part-1.parquet'), 'utf8')).toBe('PAR1');
  });
});
