/**
 * The files a code audit reads under one scanned root, named relative to it with '/'. Folders that hold
 * no team code (dependencies, version control, caches) are not entered; a symlink is never followed out
 * of the root, and one inside it is read where its target stands, so nothing is read twice; the walk
 * stops at a bound on the number of files. Every file or folder left out is listed with the reason, except
 * the folders left out by name, which are listed once each.
 */
import type { Dirent } from 'node:fs';
import { opendir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SkippedFile } from '../code/setting';

/** Files larger than this are not read (generated code, data dumps): 2 MB. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** The walk stops after this many files under one root. */
export const MAX_WALK_FILES = 200_000;

/** Folders never entered: dependencies, version control, caches and virtual environments. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.ipynb_checkpoints',
  '.idea',
]);

export interface WalkedFile {
  /** Where to read it. */
  path: string;
  /** Relative to the scanned root, with '/'. */
  file: string;
  size: number;
}

export interface Walk {
  files: WalkedFile[];
  skipped: SkippedFile[];
}

export interface WalkOptions {
  /** Whether a file (its relative path) is of a kind the audit reads; other files are neither listed nor counted. */
  wanted: (file: string) => boolean;
  maxFiles?: number;
  signal?: AbortSignal;
}

/**
 * The wanted files under `root` (a folder), or just `only` (a file name in it) when the audit was given a file.
 * Skipped: too large, a symlink out of the root or to a folder, a broken symlink, what the bound cut.
 */
export async function walk(root: string, options: WalkOptions, only?: string): Promise<Walk> {
  const realRoot = await realpath(root);
  const maxFiles = options.maxFiles ?? MAX_WALK_FILES;
  const out: Walk = { files: [], skipped: [] };
  const rel = (path: string) => relative(root, path).split(sep).join('/');
  let cut = false;

  const visitFile = async (path: string, size: number) => {
    const file = rel(path);
    if (!options.wanted(file)) return;
    if (out.files.length >= maxFiles) {
      cut = true;
      return;
    }
    if (size > MAX_FILE_BYTES) out.skipped.push({ file, reason: `${megabytes(size)}: larger than 2 MB` });
    else out.files.push({ path, file, size });
  };

  const visitLink = async (path: string) => {
    const file = rel(path);
    const target = await realpath(path).catch(() => null);
    if (target === null) return out.skipped.push({ file, reason: 'a broken symlink' });
    const inside = relative(realRoot, target);
    if (inside === '') return out.skipped.push({ file, reason: 'a symlink to the scanned root itself: not followed' });
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      return out.skipped.push({ file, reason: 'a symlink out of the scanned root: not followed' });
    }
    // Inside the root the target is read where it stands; naming it twice would report its settings twice.
    if (options.wanted(file) || (await stat(target)).isDirectory()) {
      out.skipped.push({ file, reason: `a symlink to ${inside.split(sep).join('/')}, read there` });
    }
  };

  const visitFolder = async (folder: string): Promise<void> => {
    const entries: Dirent[] = [];
    for await (const entry of await opendir(folder)) entries.push(entry);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      options.signal?.throwIfAborted();
      if (cut) return;
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) await visitLink(path);
      else if (entry.isDirectory()) {
        if (SKIPPED_FOLDERS.has(entry.name))
          out.skipped.push({
            file: `${rel(path)}/`,
            reason: 'not scanned: a folder of dependencies, version control or caches',
          });
        else await visitFolder(path);
      } else if (entry.isFile() && options.wanted(rel(path))) await visitFile(path, (await stat(path)).size);
    }
  };

  if (only === undefined) await visitFolder(root);
  else {
    const path = join(root, only);
    const { size } = await stat(path);
    if (options.wanted(only)) await visitFile(path, size);
    else out.skipped.push({ file: only, reason: 'not a kind of file the code audit reads' });
  }
  if (cut) out.skipped.push({ file: '.', reason: `the scan stopped at ${maxFiles} files: the rest were not read` });
  return out;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
