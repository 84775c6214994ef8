/**
 * Reads a jobs manifest from YAML or JSON; the contract's schema (@racelab/contracts, generated into
 * contracts/jobs-manifest.schema.json) checks what the text holds. Every problem is collected before
 * throwing, so a team fixes its manifest in one pass rather than one error per run; each message
 * names the job and the field.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { checkJobsManifest } from '@racelab/contracts';
import { parseDocument, type YAMLError } from 'yaml';
import { CronError, parseCron } from './schedule';
import type { Manifest } from './types';

export class ManifestError extends Error {
  override name = 'ManifestError';
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

export type ManifestFormat = 'yaml' | 'json';

export { MAX_JOBS } from '@racelab/contracts';
export const MAX_MANIFEST_BYTES = 1024 * 1024;

export async function readManifest(path: string): Promise<Manifest> {
  const { text, format } = await readManifestText(path);
  return parseManifest(text, format);
}

/** The manifest file's text and the format its name says, for a reader that needs the text too (job lines). */
export async function readManifestText(path: string): Promise<{ text: string; format: ManifestFormat | undefined }> {
  // stat first: a mistaken path to a huge file should not be read into memory to be refused.
  const { size } = await stat(path);
  if (size > MAX_MANIFEST_BYTES) throw new ManifestError([tooLarge(size)]);
  return { text: await readFile(path, 'utf8'), format: formatOf(path) };
}

function formatOf(path: string): ManifestFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  return undefined;
}

export function parseManifest(text: string, format?: ManifestFormat): Manifest {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_MANIFEST_BYTES) throw new ManifestError([tooLarge(bytes)]);
  const body = text.replace(/^\uFEFF/, '');
  const data = (format ?? guessFormat(body)) === 'json' ? parseJsonText(body) : parseYamlText(body);
  const checked = checkJobsManifest(data, { cronProblem });
  if (!checked.ok) throw new ManifestError(checked.problems);
  return checked.value;
}

/** The schedule's own reading of a cron expression, as the contract's check asks for it. */
function cronProblem(cron: string): string | undefined {
  try {
    parseCron(cron);
    return undefined;
  } catch (error) {
    if (!(error instanceof CronError)) throw error;
    return error.message;
  }
}

function tooLarge(bytes: number): string {
  return `manifest is too large: ${bytes} bytes (at most ${MAX_MANIFEST_BYTES})`;
}

function guessFormat(text: string): ManifestFormat {
  return text.trimStart().startsWith('{') ? 'json' : 'yaml';
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // Node 20's JSON errors give a character position at best; a line is what an editor jumps to.
    const position = /at position (\d+)/.exec(message)?.[1];
    const where = position === undefined ? '' : ` at line ${lineAt(text, Number(position))}`;
    throw new ManifestError([`JSON syntax error${where}: ${message}`]);
  }
}

function lineAt(text: string, position: number): number {
  return text.slice(0, position).split('\n').length;
}

/**
 * parseDocument rather than parse: parse stops at the first error and prints warnings (unknown
 * tags) to the process; here every syntax error is reported and warnings are left to the caller.
 */
function parseYamlText(text: string): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ManifestError(doc.errors.map(yamlProblem));
  try {
    return doc.toJS();
  } catch (error) {
    // toJS throws ReferenceError for an unknown alias or an alias bomb; both are the file's fault.
    if (!(error instanceof ReferenceError)) throw error;
    throw new ManifestError([`YAML error: ${error.message}`]);
  }
}

function yamlProblem(error: YAMLError): string {
  const pos = error.linePos?.[0];
  const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
  // The library's message repeats the position and a code excerpt over several lines; keep its first clause.
  const reason = error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '');
  return `YAML syntax error${where}: ${reason}`;
}
