/**
 * The text of the code line each finding points at, read from the scanned files before a scratch folder is
 * removed, so the dashboard can show the line beside the finding. Only regular files inside the scanned folder
 * are read (never through a symbolic link), each at most once and at most MAX_FILE_BYTES.
 */
import { lstat, readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { CodeAudit, CodeFinding, CodePlace } from '@racelab/lab';

/** A place with its code line's text, when the file could be read there. */
export type PlaceWithSnippet = CodePlace & { snippet?: string };
export type FindingWithSnippets = Omit<CodeFinding, 'at' | 'related'> & {
  at: PlaceWithSnippet;
  related: PlaceWithSnippet[];
};
/** What a CodeAudit row's `result` holds. */
export type StoredCodeAudit = Omit<CodeAudit, 'findings'> & { findings: FindingWithSnippets[] };

/** The walker's own bound on a file: larger ones are never scanned, so never a finding's. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_SNIPPET_CHARS = 400;

/** A file's lines, or null when it is not a regular file inside `dir` within the bound. */
async function linesOf(dir: string, file: string): Promise<string[] | null> {
  const full = resolve(dir, file);
  const rel = relative(dir, full);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null;
  const info = await lstat(full).catch(() => null);
  if (!info?.isFile() || info.size > MAX_FILE_BYTES) return null;
  return (await readFile(full, 'utf8')).split(/\r?\n/);
}

/** `audit` with each finding's places carrying their code line's text, read from `dir` (the scanned folder). */
export async function withSnippets(audit: CodeAudit, dir: string): Promise<StoredCodeAudit> {
  const files = new Map<string, Promise<string[] | null>>();
  const place = async (p: CodePlace): Promise<PlaceWithSnippet> => {
    let lines = files.get(p.file);
    if (!lines) {
      lines = linesOf(dir, p.file).catch(() => null);
      files.set(p.file, lines);
    }
    const line = (await lines)?.[p.line - 1];
    return line === undefined ? p : { ...p, snippet: line.slice(0, MAX_SNIPPET_CHARS) };
  };
  const findings: FindingWithSnippets[] = [];
  for (const f of audit.findings) {
    findings.push({ ...f, at: await place(f.at), related: await Promise.all(f.related.map(place)) });
  }
  return { ...audit, findings };
}
