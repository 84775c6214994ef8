/**
 * The code audit's scan: reads a team's files (each path a folder, or a file read in its folder), finds every setting
 * that decides how concurrent commits behave, and judges them. The walk lists the files of a kind an extractor
 * reads; a quick pre-filter spares the parsers every file with no hint of a setting; a file the parser cannot
 * read whole, or an extractor that fails on it, is a note and the scan goes on. Results name files relative to
 * the scanned root, with '/'. It lives beside code/ rather than in it: it dispatches to the extractors
 * (code/extract/), which build on code/'s settings and source maps, so code/ never leans back on it.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { judge } from '../code/judge';
import type { CodeAudit, CodeSetting, FileProblem, SkippedFile } from '../code/setting';
import { extractorFor } from './extractors';
import { mayHoldSetting } from './prefilter';
import { type WalkedFile, walk } from './walk';

export interface CodeAuditOptions {
  /** Called after each file read: files done, files in all. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** The most files read under one path (default MAX_WALK_FILES). */
  maxFiles?: number;
}

/** A path given to the audit that is not there: a bad input, not a failed audit. */
export class CodePathError extends Error {
  override name = 'CodePathError';
}

/** Bytes at the start of a file in which a NUL says it is binary. */
const BINARY_PROBE = 8 * 1024;
/** Files read at once: reading overlaps, parsing does not. */
const READ_AHEAD = 16;

export async function auditCode(paths: string[], options: CodeAuditOptions = {}): Promise<CodeAudit> {
  const walked: WalkedFile[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    const full = resolve(path);
    const info = await stat(full).catch(() => null);
    if (info === null) throw new CodePathError(`no such file or folder: ${path}`);
    const w = info.isDirectory()
      ? await walk(full, { wanted, maxFiles: options.maxFiles, signal: options.signal })
      : await walk(dirname(full), { wanted, maxFiles: options.maxFiles, signal: options.signal }, basename(full));
    walked.push(...w.files);
    skipped.push(...w.skipped);
  }

  const settings: CodeSetting[] = [];
  const unparseable: FileProblem[] = [];
  let scanned = 0;
  const pending = new Map<number, Promise<Buffer | null>>();
  const readAt = (i: number) => {
    const f = walked[i];
    if (f && !pending.has(i))
      pending.set(
        i,
        readFile(f.path).catch(() => null),
      );
  };
  for (let i = 0; i < READ_AHEAD; i++) readAt(i);
  for (const [i, f] of walked.entries()) {
    options.signal?.throwIfAborted();
    readAt(i + READ_AHEAD);
    const bytes = await pending.get(i);
    pending.delete(i);
    options.onProgress?.(i + 1, walked.length);
    if (bytes === null || bytes === undefined) {
      skipped.push({ file: f.file, reason: 'could not be read' });
      continue;
    }
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) {
      skipped.push({ file: f.file, reason: 'binary (a NUL byte in its first 8 KiB)' });
      continue;
    }
    scanned++;
    const text = bytes.toString('utf8');
    if (!mayHoldSetting(text)) continue;
    const extractor = extractorFor(f.file);
    if (!extractor) continue;
    try {
      const found = await extractor.extract(f.file, text);
      settings.push(...found.settings);
      unparseable.push(...found.problems);
    } catch (e) {
      const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
      unparseable.push({ file: f.file, line: 1, column: 1, message: `the ${extractor.name} reader failed: ${reason}` });
    }
  }

  settings.sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.column - b.column);
  const findings = judge(settings, unparseable);
  return {
    settings,
    findings,
    files: { scanned, skipped, unparseable },
    failed: findings.some((f) => f.severity === 'error'),
  };
}

const wanted = (file: string) => extractorFor(file) !== undefined;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export { DEFAULTS_PREFIX, judge, librariesFor } from '../code/judge';
export type * from '../code/setting';
export { EXTRACTORS, extractorFor } from './extractors';
export { HINTS, mayHoldSetting } from './prefilter';
export { MAX_FILE_BYTES, MAX_WALK_FILES, SKIPPED_FOLDERS } from './walk';
