/**
 * Stage 2 of a race on a table of the user's own (`location`): the location resolved under the roots, the
 * table opened, and everything that would stop the race refused up front, every problem at once, before any
 * writer starts: what delta-rs 1.6.x or a copy refuses (copy-refusals.ts), the writers' fields and expressions
 * against THE TABLE's schema (runnableCustomCase: stage 1 in @racelab/contracts, then DuckDB runs each), and
 * each `sourceLocation` resolved to a Parquet file under the roots whose columns are the table's, and each command
 * writer's program and script under LAB_JOB_ROOTS (job-roots.ts).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { namesLabTable } from '@racelab/contracts';
import { DeltaTable, deltaToDuckType, NotATableError, PathRefusedError, withConnection } from '@racelab/engine';
import { sqlString } from '../data/sql';
import { clientSafeMessage, namedRoots } from '../results/safe-message';
import { raceRefusals } from '../tables/copy-refusals';
import { type LocationConfig, LocationError, resolveTableLocation } from '../tables/locations';
import { notATableReason } from '../tables/not-a-table';
import type { DeltaCase, WriterOperation } from './catalog';
import { CaseInputError, type CustomCaseInput, runnableCustomCase } from './custom';
import { hasJobCommands, withJobCommands } from './job-roots';

export interface LocationCaseOptions {
  /** Where run copies are made when not in `<workDir>/runs`: an s3:// prefix (LabOptions.tableRoot). */
  tableRoot?: string;
  /** The folder a command writer's relative cwd is taken from (the writers file's); none: cwd must be absolute. */
  jobBase?: string;
}

/** A user's error as the user may see it: the server's folders named by their settings. */
const safe = (e: unknown, cfg: LocationConfig) =>
  clientSafeMessage(e, { roots: namedRoots({ workDir: cfg.workDir, roots: cfg.roots }) });

/** The file's columns as DuckDB reads them: name → type. */
async function parquetColumns(path: string): Promise<Map<string, string>> {
  return withConnection(async (c) => {
    const rows = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`)).getRows();
    return new Map(rows.map((r) => [String(r[0]), String(r[1])]));
  });
}

/**
 * `sourceLocation` resolved: an existing `.parquet` file under the roots whose columns are the table's, by name
 * and type (an append writes them as they are). Returns the resolved path, or pushes every problem.
 */
async function sourceFile(
  text: string,
  table: DeltaTable,
  cfg: LocationConfig,
  what: string,
  problems: string[],
): Promise<string | null> {
  const said = (problem: string) => {
    problems.push(`${what}: ${problem}`);
    return null;
  };
  let resolved: Awaited<ReturnType<typeof resolveTableLocation>>;
  try {
    if (namesLabTable(text)) return said(`'${text}' is a lab table, not a Parquet file`);
    resolved = await resolveTableLocation(text, cfg);
  } catch (e) {
    if (e instanceof LocationError) return said(e.message);
    throw e;
  }
  const name = resolved.display;
  if (resolved.kind !== 'local') return said(`'${name}': a source file is read from disk; give a path under the roots`);
  if (!name.toLowerCase().endsWith('.parquet')) return said(`'${name}' must be a .parquet file`);
  const file = await stat(resolved.path).catch(() => null);
  if (!file?.isFile()) return said(`'${name}' is not a file under the roots`);
  let columns: Map<string, string>;
  try {
    columns = await parquetColumns(resolved.path);
  } catch (e) {
    return said(`'${name}' is not a readable Parquet file (${safe(e, cfg)})`);
  }
  const before = problems.length;
  for (const f of table.schema.fields) {
    const type = columns.get(f.name);
    const wanted = deltaToDuckType(f.type);
    if (type === undefined) said(`'${name}' lacks the table's column ${f.name} (${wanted})`);
    else if (type !== wanted) said(`'${name}' has ${f.name} as ${type}; the table's is ${wanted}`);
  }
  const known = new Set(table.schema.fields.map((f) => f.name));
  for (const c of columns.keys()) if (!known.has(c)) said(`'${name}' has column ${c}, which the table does not`);
  return problems.length === before ? resolved.path : null;
}

/** The writers' `sourceLocation`s as given, by writer name (read from the raw input: stage 1 may have refused it). */
function sourceLocations(input: CustomCaseInput): { name: string; text: string }[] {
  const writers: unknown[] = Array.isArray(input.writers) ? input.writers : [];
  return writers.flatMap((w) => {
    const { name, sourceLocation } = (w ?? {}) as { name?: unknown; sourceLocation?: unknown };
    return typeof sourceLocation === 'string' ? [{ name: String(name), text: sourceLocation }] : [];
  });
}

/**
 * A race on copies of the table at `input.location`, or a CaseInputError naming every problem. The returned
 * case's `table` is the resolved location; each `from: { file }` is the resolved path of its sourceLocation.
 */
export async function locationCase(
  input: CustomCaseInput,
  cfg: LocationConfig,
  options: LocationCaseOptions = {},
): Promise<DeltaCase> {
  const location = (input as { location?: unknown }).location;
  if (typeof location !== 'string') throw new CaseInputError(['location is required: the table to race copies of']);
  if (namesLabTable(location)) {
    // Refused before resolving: resolving an alias builds the lab's data set.
    throw new CaseInputError([`'${location}' is one of the lab's tables: race it with table (flat or partitioned)`]);
  }
  let resolved: Awaited<ReturnType<typeof resolveTableLocation>>;
  try {
    resolved = await resolveTableLocation(location, cfg);
  } catch (e) {
    if (e instanceof LocationError) throw new CaseInputError([e.message]);
    throw e;
  }
  const { display } = resolved;
  let table: DeltaTable;
  try {
    table = await DeltaTable.open(resolved.path, { roots: cfg.roots });
  } catch (e) {
    if (e instanceof NotATableError) throw new CaseInputError([await notATableReason(resolved)]);
    // A path the log names where the lab may not read: the refusal names it by its key in the table.
    if (e instanceof PathRefusedError) throw new CaseInputError([`${display}: ${e.message}`]);
    throw new CaseInputError([`${display} cannot be opened as a Delta table: ${safe(e, cfg)}`]);
  }
  const problems = await raceRefusals(table, {
    runsDir: options.tableRoot ?? join(cfg.workDir, 'runs'),
    roots: cfg.roots,
    display,
  });
  let c: DeltaCase | null = null;
  try {
    c = await runnableCustomCase(input, table.schema, { location: resolved.path, display });
    if (hasJobCommands(c))
      c = await withJobCommands(c, {
        roots: cfg.jobRoots ?? [],
        ...(options.jobBase !== undefined && { base: options.jobBase }),
      });
  } catch (e) {
    if (!(e instanceof CaseInputError)) throw e;
    problems.push(...e.problems);
  }
  const files = new Map<string, string>();
  for (const { name, text } of sourceLocations(input)) {
    const path = await sourceFile(text, table, cfg, `writer ${name}: sourceLocation`, problems);
    if (path !== null) files.set(name, path);
  }
  if (problems.length > 0 || c === null) throw new CaseInputError(problems);
  const withFile = (name: string, op: WriterOperation): WriterOperation =>
    'from' in op && 'file' in op.from ? { ...op, from: { file: files.get(name) as string } } : op;
  return { ...c, writers: c.writers.map((w) => ({ ...w, operation: withFile(w.name, w.operation) })) };
}
