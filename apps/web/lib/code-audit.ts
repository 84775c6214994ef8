/**
 * The code audit's GraphQL documents and shapes, the archive upload (through the dashboard's /api/uploads/code),
 * and how findings are grouped by file and a code line split around the value a finding points at.
 */
import { graphql, type ResultOf } from './gql';

/** What the code audit view shows of one audit: a fresh one and a stored one read the same. */
const CODE_AUDIT_FIELDS = graphql(`fragment CodeAuditFields on CodeAuditResult {
  id auditedAt source failed
  settings { file line column key value raw kind writer }
  findings { rule severity table evidence fix
    at { file line column endColumn message snippet } related { file line column endColumn message snippet } }
  files { scanned skipped { file reason } unparseable { file line column message } } }`);

export const AUDIT_CODE = graphql(
  'mutation AuditCode($path: String, $upload: ID) { auditCode(path: $path, upload: $upload) { ...CodeAuditFields } }',
  [CODE_AUDIT_FIELDS],
);

export type CodeAuditResult = ResultOf<typeof CODE_AUDIT_FIELDS>;
export type CodeFinding = CodeAuditResult['findings'][number];
export type CodePlace = CodeFinding['at'];

/** The stored audits, newest first, under a react-query key that a new audit invalidates; the API gives at most 50. */
export const CODE_AUDITS_KEY = 'code-audits';
export const CODE_AUDITS_QUERY = graphql(`query CodeAudits($first: Int!) {
  codeAudits(first: $first) { id auditedAt source failed startedBy { description } findings { severity } }
}`);
export type CodeAuditSummary = ResultOf<typeof CODE_AUDITS_QUERY>['codeAudits'][number];

export const CODE_AUDIT_QUERY = graphql('query CodeAudit($id: ID!) { codeAudit(id: $id) { ...CodeAuditFields } }', [
  CODE_AUDIT_FIELDS,
]);

/** The content type an archive is sent as, by its name; null for a file that is neither a .zip nor a .tar.gz. */
export function archiveType(name: string): 'application/zip' | 'application/gzip' | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip')) return 'application/zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'application/gzip';
  return null;
}

/** The API's bound on an archive. */
export const MAX_ARCHIVE_BYTES = 50 * 1024 * 1024;

/** Sends `file` to /api/uploads/code; the upload id to audit. Throws with the API's words when refused. */
export async function uploadArchive(file: File): Promise<string> {
  const type = archiveType(file.name);
  if (type === null) throw new Error(`${file.name}: choose a .zip or a .tar.gz`);
  if (file.size > MAX_ARCHIVE_BYTES) throw new Error(`${file.name} is ${file.size} bytes; at most 50 MB`);
  const res = await fetch(`/api/uploads/code?${new URLSearchParams({ name: file.name })}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body: file,
  });
  const body = (await res.json().catch(() => ({}))) as { upload?: string; errors?: { message: string }[] };
  if (!res.ok || !body.upload) throw new Error(body.errors?.[0]?.message ?? `the upload failed (HTTP ${res.status})`);
  return body.upload;
}

/** Findings by the file they are in, files in name order, each file's findings by line then column. */
export function findingsByFile(findings: readonly CodeFinding[]): [string, CodeFinding[]][] {
  const byFile = new Map<string, CodeFinding[]>();
  for (const f of findings) byFile.set(f.at.file, [...(byFile.get(f.at.file) ?? []), f]);
  return [...byFile]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, list]) => [file, [...list].sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column)]);
}

/**
 * A code line split around the value at 1-based `column` up to `endColumn` (exclusive; to the line's end when
 * absent or not after `column`): what the view shows plain, highlighted, plain.
 */
export function splitAtValue(
  line: string,
  column: number,
  endColumn: number | null,
): { before: string; value: string; after: string } {
  const start = Math.min(Math.max(column - 1, 0), line.length);
  const end = endColumn !== null && endColumn > column ? Math.min(endColumn - 1, line.length) : line.length;
  return { before: line.slice(0, start), value: line.slice(start, end), after: line.slice(end) };
}
