/**
 * Durability on a local disk (docs/durability.md): a file's bytes reach the disk only with an fsync of
 * the file, and its name only with an fsync of the folder holding it (and a new folder's name with one
 * of its parent). A commit is acknowledged only after every file it names and its log entry got both.
 */
import { closeSync, fsync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

/**
 * fsync of an open file descriptor, off the event loop: an fsync waits for the disk (milliseconds), so it is the
 * one call here that runs in the thread pool. The open and close around it are synchronous: each takes
 * microseconds, while a round trip through the pool costs ~50 µs of CPU (bench/RESULTS.md).
 */
export const fsyncFd = promisify(fsync);

/** fsync of a file or a folder (a folder opened read-only can be fsynced on Linux and macOS). */
export async function syncPath(path: string): Promise<void> {
  const fd = openSync(path, 'r');
  try {
    await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** The folders mkdir created, from `first` (what recursive mkdir returns) down to `dir`. */
function created(first: string | undefined, dir: string): string[] {
  if (first === undefined) return [];
  const out: string[] = [];
  for (let d = dir; d.length >= first.length; d = dirname(d)) out.push(d);
  return out;
}

/** Makes `dir` and its missing parents, each new one's name synced into its parent. */
export async function mkdirDurable(dir: string): Promise<void> {
  for (const d of created(mkdirSync(dir, { recursive: true }), dir)) await syncPath(dirname(d));
}

/** Syncs a file someone else wrote (DuckDB) and its name in its folder. */
export async function syncFileAndName(file: string): Promise<void> {
  await syncPath(file);
  await syncPath(dirname(file));
}
