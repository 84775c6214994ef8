/**
 * Reads a jobs manifest (shared/contracts/jobs-manifest.schema.json) from YAML or JSON. Every
 * problem is collected before throwing, so a team fixes its manifest in one pass rather than one
 * error per run; each message names the job and the field.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument, type YAMLError } from 'yaml';
import { CronError, MAX_DURATION_MINUTES, parseCron } from './schedule';
import type { Job, JobOperation, Manifest, OnCommitFailed } from './types';

export class ManifestError extends Error {
  override name = 'ManifestError';
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

export type ManifestFormat = 'yaml' | 'json';

export const MAX_JOBS = 500;
export const MAX_MANIFEST_BYTES = 1024 * 1024;

const OPERATIONS: readonly JobOperation[] = ['append', 'overwrite', 'update', 'delete', 'merge', 'optimize', 'vacuum'];
const ON_COMMIT_FAILED: readonly OnCommitFailed[] = ['fail', 'retry-commit', 'redo-whole-change'];
const JOB_KEYS = [
  'name',
  'table',
  'engine',
  'operation',
  'predicate',
  'tableProperties',
  'commitProperties',
  'onCommitFailed',
  'checksTableBeforeAppend',
  'schedule',
];
const COMMIT_PROPERTY_KEYS = ['maxCommitRetries', 'isBlindAppend', 'isolationLevel'];
const SCHEDULE_KEYS = ['cron', 'maxDurationMinutes'];

export async function readManifest(path: string): Promise<Manifest> {
  // stat first: a mistaken path to a huge file should not be read into memory to be refused.
  const { size } = await stat(path);
  if (size > MAX_MANIFEST_BYTES) throw new ManifestError([tooLarge(size)]);
  return parseManifest(await readFile(path, 'utf8'), formatOf(path));
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
  const problems: string[] = [];
  const manifest = validateManifest(data, problems);
  if (problems.length > 0) throw new ManifestError(problems);
  return manifest;
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

function validateManifest(data: unknown, problems: string[]): Manifest {
  if (data === undefined || data === null) {
    problems.push('manifest is empty: expected an object with a jobs array');
    return { jobs: [] };
  }
  if (!isObject(data)) {
    problems.push(`manifest must be an object with a jobs array, got ${describe(data)}`);
    return { jobs: [] };
  }
  for (const key of Object.keys(data)) {
    // Top-level x- keys are accepted and dropped: Manifest has no place to keep them.
    if (key !== 'jobs' && !key.startsWith('x-')) {
      problems.push(`unknown top-level key '${key}' (extension keys start with x-)`);
    }
  }
  const jobs = data.jobs;
  if (jobs === undefined || jobs === null) {
    problems.push('jobs is required');
    return { jobs: [] };
  }
  if (!Array.isArray(jobs)) {
    problems.push(`jobs must be an array, got ${describe(jobs)}`);
    return { jobs: [] };
  }
  if (jobs.length > MAX_JOBS) {
    // Validating thousands of jobs would bury this one problem under many more.
    problems.push(`jobs: at most ${MAX_JOBS} jobs, got ${jobs.length}`);
    return { jobs: [] };
  }
  const duplicates = duplicateNames(jobs);
  for (const [name, at] of duplicates) {
    problems.push(`job '${name}': name is used by more than one job (${at.map((i) => `jobs[${i}]`).join(', ')})`);
  }
  return { jobs: jobs.map((job, index) => validateJob(job, jobLabel(job, index, duplicates), problems)) };
}

/** Names used more than once, with the indexes of the jobs using them. */
function duplicateNames(jobs: unknown[]): Map<string, number[]> {
  const indexes = new Map<string, number[]>();
  jobs.forEach((job, index) => {
    const name = nameOf(job);
    if (name !== undefined) indexes.set(name, [...(indexes.get(name) ?? []), index]);
  });
  return new Map([...indexes].filter(([, at]) => at.length > 1));
}

function nameOf(job: unknown): string | undefined {
  const name = isObject(job) ? job.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : undefined;
}

/** By name, as a team knows its jobs; by position when the name is missing or shared. */
function jobLabel(job: unknown, index: number, duplicates: Map<string, number[]>): string {
  const name = nameOf(job);
  if (name === undefined) return `jobs[${index}]`;
  return duplicates.has(name) ? `job '${name}' (jobs[${index}])` : `job '${name}'`;
}

/** Collects the problems of one job; the Job returned is only used when there are none. */
function validateJob(raw: unknown, label: string, problems: string[]): Job {
  const report = (message: string) => problems.push(`${label}: ${message}`);
  if (!isObject(raw)) {
    report(`must be an object, got ${describe(raw)}`);
    return {} as Job;
  }
  const field = new FieldReader(raw, report);
  const name = field.requiredString('name');
  if (typeof name === 'string' && name.trim() === '') report('name must not be empty');
  const job: Job = {
    name,
    table: field.requiredString('table'),
    engine: field.requiredString('engine'),
    operation: field.requiredEnum('operation', OPERATIONS),
  };
  assign(job, 'predicate', field.optionalString('predicate'));
  assign(job, 'tableProperties', readTableProperties(raw.tableProperties, report));
  assign(job, 'commitProperties', readCommitProperties(raw.commitProperties, report));
  assign(job, 'onCommitFailed', field.optionalEnum('onCommitFailed', ON_COMMIT_FAILED));
  assign(job, 'checksTableBeforeAppend', field.optionalBoolean('checksTableBeforeAppend'));
  assign(job, 'schedule', readSchedule(raw.schedule, report));
  const extra = unknownKeys(raw, JOB_KEYS, '', report);
  if (extra) job.extra = extra;
  return job;
}

/**
 * Reports every key outside `known` unless it starts with x-; returns the x- keys (or undefined).
 * `prefix` names the nested object so the message says `commitProperties.foo`, not just `foo`.
 */
function unknownKeys(
  raw: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
  report: (message: string) => void,
): Record<string, unknown> | undefined {
  const extensions: [string, unknown][] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (known.includes(key)) continue;
    if (key.startsWith('x-')) extensions.push([key, value]);
    else report(`unknown key '${prefix}${key}' (extension keys start with x-)`);
  }
  // fromEntries defines own properties, so a key like __proto__ cannot reach a prototype.
  return extensions.length > 0 ? Object.fromEntries(extensions) : undefined;
}

function readTableProperties(raw: unknown, report: (message: string) => void): Record<string, string> | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) {
    report(`tableProperties must be an object, got ${describe(raw)}`);
    return undefined;
  }
  for (const [key, value] of Object.entries(raw)) {
    // YAML reads `delta.appendOnly: true` as a boolean; Delta stores every property as a string.
    if (typeof value !== 'string') report(`tableProperties['${key}'] must be a string, got ${describe(value)}`);
  }
  return Object.fromEntries(Object.entries(raw)) as Record<string, string>;
}

function readCommitProperties(raw: unknown, report: (message: string) => void): Job['commitProperties'] {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) {
    report(`commitProperties must be an object, got ${describe(raw)}`);
    return undefined;
  }
  const field = new FieldReader(raw, report, 'commitProperties.');
  const props: NonNullable<Job['commitProperties']> = {};
  assign(props, 'maxCommitRetries', field.optionalInteger('maxCommitRetries', 0, 'an integer >= 0'));
  assign(props, 'isBlindAppend', field.optionalBoolean('isBlindAppend'));
  assign(props, 'isolationLevel', field.optionalString('isolationLevel'));
  // x- keys inside are accepted but dropped: Job keeps extensions only at the job level.
  unknownKeys(raw, COMMIT_PROPERTY_KEYS, 'commitProperties.', report);
  return props;
}

function readSchedule(raw: unknown, report: (message: string) => void): Job['schedule'] {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) {
    report(`schedule must be an object, got ${describe(raw)}`);
    return undefined;
  }
  const field = new FieldReader(raw, report, 'schedule.');
  const schedule: NonNullable<Job['schedule']> = {};
  const cron = field.optionalString('cron');
  if (cron !== undefined) {
    checkCron(cron, report);
    schedule.cron = cron;
  }
  assign(
    schedule,
    'maxDurationMinutes',
    // Bounded: the schedule rules walk every run a job's duration reaches back over.
    field.optionalInteger(
      'maxDurationMinutes',
      1,
      `an integer from 1 to ${MAX_DURATION_MINUTES} (the 7 days the audit looks at)`,
      MAX_DURATION_MINUTES,
    ),
  );
  unknownKeys(raw, SCHEDULE_KEYS, 'schedule.', report);
  return schedule;
}

function checkCron(cron: string, report: (message: string) => void): void {
  try {
    parseCron(cron);
  } catch (error) {
    if (!(error instanceof CronError)) throw error;
    report(`schedule.cron is invalid: ${error.message}`);
  }
}

/**
 * Typed reads of one object's fields, each reporting its own problem. A null required field is
 * reported as missing: in YAML, `table:` with nothing after it is how a field gets left out.
 */
class FieldReader {
  constructor(
    private readonly raw: Record<string, unknown>,
    private readonly report: (message: string) => void,
    private readonly prefix = '',
  ) {}

  requiredString(key: string): string {
    const value = this.raw[key];
    if (value === undefined || value === null) this.report(`${this.prefix}${key} is required`);
    else if (typeof value !== 'string') this.report(`${this.prefix}${key} must be a string, got ${describe(value)}`);
    return value as string;
  }

  requiredEnum<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.raw[key];
    if (value === undefined || value === null) this.report(`${this.prefix}${key} is required`);
    else this.checkEnum(key, allowed, value);
    return value as T;
  }

  // The optional readers return undefined for a bad value, so later checks (the cron) see only valid ones.

  optionalString(key: string): string | undefined {
    return this.optional(key, 'a string', (value) => typeof value === 'string');
  }

  optionalEnum<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const value = this.raw[key];
    return value !== undefined && this.checkEnum(key, allowed, value) ? (value as T) : undefined;
  }

  optionalBoolean(key: string): boolean | undefined {
    return this.optional(key, 'a boolean', (value) => typeof value === 'boolean');
  }

  optionalInteger(key: string, min: number, expected: string, max = Number.POSITIVE_INFINITY): number | undefined {
    return this.optional(
      key,
      expected,
      (value) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
    );
  }

  private optional<T>(key: string, expected: string, valid: (value: unknown) => boolean): T | undefined {
    const value = this.raw[key];
    if (value === undefined) return undefined;
    if (valid(value)) return value as T;
    this.report(`${this.prefix}${key} must be ${expected}, got ${describe(value)}`);
    return undefined;
  }

  private checkEnum(key: string, allowed: readonly string[], value: unknown): boolean {
    if (typeof value === 'string' && allowed.includes(value)) return true;
    this.report(`${this.prefix}${key} must be one of ${allowed.join(', ')}, got ${describe(value)}`);
    return false;
  }
}

/** Sets an optional property only when present, so parsed jobs have no `key: undefined` entries. */
function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`;
  return String(value);
}
