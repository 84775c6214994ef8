/**
 * The results file's required shape (shared/contracts/lab-results.schema.json, plus the lab's `dataDir`),
 * checked field by field so that a bad file gets one clear line: "FILE: cases[2].runs[0].writers[1].committed
 * must be a boolean". Optional fields the schema allows to be absent are filled with their empty value.
 */
import type {
  AttemptError,
  CaseResult,
  DataSourceKind,
  FailedWriterCheck,
  LabResults,
  RunResult,
  RunVerdict,
  TableCheck,
  VerdictExample,
  VerdictWriter,
  WriterResult,
} from '../results/types';
import { UnusableInputError } from './types';

type Obj = Record<string, unknown>;

class Shape {
  constructor(private readonly label: string) {}

  fail(path: string, what: string): never {
    throw new UnusableInputError(`${this.label}: ${path} ${what}`);
  }

  object(v: unknown, path: string): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(path, 'must be an object');
    return v as Obj;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.fail(path, 'must be an array');
    return v;
  }

  string(v: unknown, path: string): string {
    if (typeof v !== 'string') this.fail(path, 'must be a string');
    return v;
  }

  boolean(v: unknown, path: string): boolean {
    if (typeof v !== 'boolean') this.fail(path, 'must be a boolean');
    return v;
  }

  number(v: unknown, path: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(path, 'must be a number');
    return v;
  }

  integer(v: unknown, path: string, min?: number): number {
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(path, 'must be an integer');
    if (min !== undefined && v < min) this.fail(path, `must be at least ${min}`);
    return v;
  }

  nullable<T>(v: unknown, path: string, read: (v: unknown, path: string) => T): T | null {
    return v === null || v === undefined ? null : read(v, path);
  }

  optional<T>(v: unknown, path: string, read: (v: unknown, path: string) => T): T | undefined {
    return v === undefined ? undefined : read(v, path);
  }

  nullableString(v: unknown, path: string): string | null {
    if (v === undefined) this.fail(path, 'must be a string or null');
    return v === null ? null : this.string(v, path);
  }

  record<T>(v: unknown, path: string, read: (v: unknown, path: string) => T): Record<string, T> {
    const o = this.object(v, path);
    const out: Record<string, T> = {};
    for (const [k, x] of Object.entries(o)) out[k] = read(x, `${path}.${k}`);
    return out;
  }

  list<T>(v: unknown, path: string, read: (v: unknown, path: string) => T): T[] {
    return this.array(v, path).map((x, i) => read(x, `${path}[${i}]`));
  }
}

export function validateResults(json: unknown, label: string): LabResults {
  const s: Shape = new Shape(label);
  const root = s.object(json, '(the file)');
  const createdAt = s.string(root.createdAt, 'createdAt');
  if (Number.isNaN(Date.parse(createdAt))) s.fail('createdAt', 'must be a date-time');
  const scale = s.number(root.scale, 'scale');
  if (!(scale > 0 && scale <= 1)) s.fail('scale', 'must be > 0 and ≤ 1');
  const source = root.dataSource;
  if (source !== 'synthetic' && source !== 'tlc') s.fail('dataSource', 'must be "synthetic" or "tlc"');
  const dataSource: DataSourceKind = source;
  const versions = s.record(root.versions, 'versions', (v, p) => s.string(v, p));
  const dataDir = s.string(root.dataDir, 'dataDir');
  const cases = s.list(root.cases, 'cases', (v, p) => caseResult(s, v, p));
  return { createdAt, scale, dataSource, versions, dataDir, cases };
}

function caseResult(s: Shape, v: unknown, path: string): CaseResult {
  const o = s.object(v, path);
  const id = s.string(o.id, `${path}.id`);
  if (!/^[A-Z][0-9]$/.test(id)) s.fail(`${path}.id`, 'must be a letter and a digit, like "B1"');
  const title = s.optional(o.title, `${path}.title`, (x, p) => s.string(x, p));
  const runs = s.list(o.runs, `${path}.runs`, (x, p) => runResult(s, x, p));
  return title === undefined ? { id, runs } : { id, title, runs };
}

function runResult(s: Shape, v: unknown, path: string): RunResult {
  const o = s.object(v, path);
  const run: RunResult = {
    index: s.integer(o.index, `${path}.index`, 1),
    writers: s.list(o.writers, `${path}.writers`, (x, p) => writer(s, x, p)),
    table: table(s, o.table, `${path}.table`),
  };
  const order = s.optional(o.commitOrder, `${path}.commitOrder`, (x, p) => s.list(x, p, (y, q) => s.string(y, q)));
  if (order !== undefined) run.commitOrder = order;
  const duration = s.optional(o.durationMs, `${path}.durationMs`, (x, p) => s.number(x, p));
  if (duration !== undefined) run.durationMs = duration;
  // Older results files have no verdict; when one is there it must be whole.
  const runVerdict = s.optional(o.verdict, `${path}.verdict`, (x, p) => verdict(s, x, p));
  if (runVerdict !== undefined) run.verdict = runVerdict;
  return run;
}

const VERDICT_STATUSES: readonly string[] = ['serializable', 'reordered', 'not-serializable'];
const EXAMPLE_KINDS: readonly string[] = ['duplicated', 'missing', 'extra'];

function verdict(s: Shape, v: unknown, path: string): RunVerdict {
  const o = s.object(v, path);
  const status = s.string(o.status, `${path}.status`);
  if (!VERDICT_STATUSES.includes(status)) s.fail(`${path}.status`, `must be one of ${VERDICT_STATUSES.join(', ')}`);
  const out: RunVerdict = {
    status: status as RunVerdict['status'],
    order: s.list(o.order, `${path}.order`, (x, p) => s.string(x, p)),
    summary: s.string(o.summary, `${path}.summary`),
    failedWriters: s.list(o.failedWriters, `${path}.failedWriters`, (x, p) => failedWriter(s, x, p)),
    oracleMs: s.number(o.oracleMs, `${path}.oracleMs`),
  };
  for (const key of ['rowsDuplicated', 'rowsMissing', 'rowsExtra'] as const) {
    const n = s.optional(o[key], `${path}.${key}`, (x, p) => s.integer(x, p, 0));
    if (n !== undefined) out[key] = n;
  }
  const writers = s.optional(o.writers, `${path}.writers`, (x, p) => s.list(x, p, (y, q) => verdictWriter(s, y, q)));
  if (writers !== undefined) out.writers = writers;
  const examples = s.optional(o.examples, `${path}.examples`, (x, p) => s.list(x, p, (y, q) => example(s, y, q)));
  if (examples !== undefined) out.examples = examples;
  return out;
}

function verdictWriter(s: Shape, v: unknown, path: string): VerdictWriter {
  const o = s.object(v, path);
  return {
    name: s.string(o.name, `${path}.name`),
    notApplied: s.boolean(o.notApplied, `${path}.notApplied`),
    appliedTwice: s.boolean(o.appliedTwice, `${path}.appliedTwice`),
  };
}

function example(s: Shape, v: unknown, path: string): VerdictExample {
  const o = s.object(v, path);
  const kind = s.string(o.kind, `${path}.kind`);
  if (!EXAMPLE_KINDS.includes(kind)) s.fail(`${path}.kind`, `must be one of ${EXAMPLE_KINDS.join(', ')}`);
  return { kind: kind as VerdictExample['kind'], row: s.object(o.row, `${path}.row`) };
}

function failedWriter(s: Shape, v: unknown, path: string): FailedWriterCheck {
  const o = s.object(v, path);
  return {
    name: s.string(o.name, `${path}.name`),
    rowsTouched: s.integer(o.rowsTouched, `${path}.rowsTouched`, 0),
    untouched: s.boolean(o.untouched, `${path}.untouched`),
    summary: s.string(o.summary, `${path}.summary`),
  };
}

function writer(s: Shape, v: unknown, path: string): WriterResult {
  const o = s.object(v, path);
  const int = (x: unknown, p: string) => s.integer(x, p);
  const w: WriterResult = {
    name: s.string(o.name, `${path}.name`),
    operation: s.string(o.operation, `${path}.operation`),
    committed: s.boolean(o.committed, `${path}.committed`),
    version: s.nullable(o.version, `${path}.version`, int),
    attempts: s.integer(o.attempts, `${path}.attempts`, 0),
    commitRetries: s.nullable(o.commitRetries, `${path}.commitRetries`, int),
    attemptErrors:
      s.optional(o.attemptErrors, `${path}.attemptErrors`, (x, p) => s.list(x, p, (y, q) => attemptError(s, y, q))) ??
      [],
    waitedOnLock: s.nullable(o.waitedOnLock, `${path}.waitedOnLock`, (x, p) => s.boolean(x, p)),
    warnings: s.optional(o.warnings, `${path}.warnings`, (x, p) => s.list(x, p, (y, q) => s.string(y, q))) ?? [],
    errorClass: s.nullableString(o.errorClass, `${path}.errorClass`),
    errorMessage: s.nullableString(o.errorMessage, `${path}.errorMessage`),
  };
  const readVersion = s.optional(o.readVersion, `${path}.readVersion`, (x, p) => s.nullable(x, p, int));
  if (readVersion !== undefined) w.readVersion = readVersion;
  for (const key of ['filesWritten', 'filesRemoved', 'filesAdded'] as const) {
    const n = s.optional(o[key], `${path}.${key}`, int);
    if (n !== undefined) w[key] = n;
  }
  const bytes = s.optional(o.bytesWritten, `${path}.bytesWritten`, (x, p) => s.number(x, p));
  if (bytes !== undefined) w.bytesWritten = bytes;
  const observed = s.optional(o.observed, `${path}.observed`, (x, p) => s.record(x, p, int));
  if (observed !== undefined) w.observed = observed;
  return w;
}

function attemptError(s: Shape, v: unknown, path: string): AttemptError {
  const o = s.object(v, path);
  const e: AttemptError = {
    attempt: s.integer(o.attempt, `${path}.attempt`),
    errorClass: s.string(o.errorClass, `${path}.errorClass`),
    errorMessage: s.string(o.errorMessage, `${path}.errorMessage`),
  };
  const readVersion = s.optional(o.readVersion, `${path}.readVersion`, (x, p) =>
    s.nullable(x, p, (y, q) => s.integer(y, q)),
  );
  if (readVersion !== undefined) e.readVersion = readVersion;
  return e;
}

function table(s: Shape, v: unknown, path: string): TableCheck {
  const o = s.object(v, path);
  const int = (x: unknown, p: string) => s.integer(x, p);
  const num = (x: unknown, p: string) => s.number(x, p);
  const t: TableCheck = {
    version: s.nullable(o.version, `${path}.version`, int),
    rows: s.integer(o.rows, `${path}.rows`),
    distinctTripIds: s.nullable(o.distinctTripIds, `${path}.distinctTripIds`, int),
    tripsOnDay: s.optional(o.tripsOnDay, `${path}.tripsOnDay`, (x, p) => s.record(x, p, int)) ?? {},
    tipDeltaByVendor: s.optional(o.tipDeltaByVendor, `${path}.tipDeltaByVendor`, (x, p) => s.record(x, p, num)) ?? {},
    dataFilesOnDisk: s.nullable(o.dataFilesOnDisk, `${path}.dataFilesOnDisk`, int),
    dataFilesInLog: s.nullable(o.dataFilesInLog, `${path}.dataFilesInLog`, int),
  };
  const changed = s.optional(o.tipChangedByVendor, `${path}.tipChangedByVendor`, (x, p) => s.record(x, p, int));
  if (changed !== undefined) t.tipChangedByVendor = changed;
  const values = s.optional(o.tipDeltaValues, `${path}.tipDeltaValues`, (x, p) => s.list(x, p, num));
  if (values !== undefined) t.tipDeltaValues = values;
  const byVendor = s.optional(o.tripsByVendor, `${path}.tripsByVendor`, (x, p) => s.record(x, p, int));
  if (byVendor !== undefined) t.tripsByVendor = byVendor;
  const staging = s.optional(o.stagingFilesOnDisk, `${path}.stagingFilesOnDisk`, int);
  if (staging !== undefined) t.stagingFilesOnDisk = staging;
  const tempLog = s.optional(o.tempLogFilesOnDisk, `${path}.tempLogFilesOnDisk`, int);
  if (tempLog !== undefined) t.tempLogFilesOnDisk = tempLog;
  return t;
}
