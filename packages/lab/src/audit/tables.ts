/**
 * The parts of a jobs audit that read the tables themselves: which files two jobs' predicates
 * both touch in the table's current layout (counted from the data), the partition column that
 * would keep them apart, and the conflict forecast for every pair of jobs on a table, both orders,
 * made by the engine's one simulation on the table's facts, read once per table: FIRST written by
 * its job's engine, SECOND judged by every engine's checker. Both work pairwise, within each table
 * only (only writers of one table can race), and spend the audit's budgets.
 */

import { plural } from '@racelab/contracts';
import {
  CHECKED_LIBRARIES,
  type CheckedLibrary,
  columnsOf,
  type DeltaTable,
  type EngineForecast,
  parsePredicate,
  renderSql,
  type SimulatedWriter,
  type SimulationFacts,
  simulateConflict,
  withConnection,
} from '@racelab/engine';
import { sqlIdent } from '../data/sql';
import { tableFacts } from '../forecast/conflict-forecast';
import { tableLayout } from '../tables/layout';
import { type AuditBudgets, pairsInOrder } from './limits';
import { libraryOf, tablesSmallestFirst } from './rules';
import type { Finding, Job } from './types';

export interface PairForecast {
  table: string;
  first: string;
  second: string;
  /** Under delta-rs 1.6.x; null when the pair cannot be forecast (see `skipped`). */
  secondCommits: boolean | null;
  failedCheck: string | null;
  message: string | null;
  /** SECOND judged by each engine's checker (empty when not forecast); Spark's and Databricks' are modelled. */
  byEngine: EngineForecast[];
  /** The entry of `byEngine` that is SECOND's own engine, as its job names it; null when it names none of them. */
  secondEngine: CheckedLibrary | null;
  skipped?: string;
}

/** Partition columns with more values than this are not worth suggesting. */
const MAX_PARTITION_VALUES = 64;
const PREDICATED = new Set(['update', 'delete', 'merge', 'overwrite']);

/** A column whose values split the two predicates' rows apart, with few enough values to partition by. */
async function separatingColumn(
  table: DeltaTable,
  a: string,
  b: string,
): Promise<{ column: string; values: number } | null> {
  const [pa, pb] = [parsePredicate(a, table.schema), parsePredicate(b, table.schema)];
  return withConnection(async (conn) => {
    const rel = await table.relation(conn);
    for (const f of table.schema.fields) {
      if (table.partitionColumns.includes(f.name)) continue;
      const col = sqlIdent(f.name);
      const r = await conn.runAndReadAll(
        `SELECT count(*), count(*) FILTER (WHERE a AND b), count(*) FILTER (WHERE a OR b) FROM (
           SELECT ${col}, bool_or(${renderSql(pa)}) IS TRUE AS a, bool_or(${renderSql(pb)}) IS TRUE AS b
           FROM (${rel}) GROUP BY ${col})`,
      );
      const [values, shared, used] = (r.getRows()[0] as bigint[]).map(Number) as [number, number, number];
      if (values <= MAX_PARTITION_VALUES && shared === 0 && used > 0) return { column: f.name, values };
    }
    return null;
  });
}

/**
 * Pairs of jobs whose predicates match rows in the same files of the table as it is now. Only the
 * pairs within `budget` are compared, so only their predicates are counted; a column that separates
 * two predicates is sought once per pair of predicate texts, however many jobs share them.
 */
export async function fileOverlaps(
  jobs: Job[],
  open: (table: string) => DeltaTable,
  budget: AuditBudgets['sharedFiles'],
): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const [table, tableJobs] of tablesSmallestFirst(jobs)) {
    const withPredicate = tableJobs.filter((j) => PREDICATED.has(j.operation) && j.predicate);
    const pairs = [...pairsInOrder(withPredicate.length)].filter(() => budget.take());
    if (pairs.length === 0) continue;
    const predicates = [...new Set(pairs.flat().map((i) => (withPredicate[i] as Job).predicate as string))];
    const layout = await tableLayout(open(table), undefined, { predicates });
    const matches = (f: (typeof layout.files)[number], job: Job) =>
      f.matches?.[predicates.indexOf(job.predicate as string)] ?? 0;
    const splits = new Map<string, Promise<{ column: string; values: number } | null>>();
    for (const [i, k] of pairs) {
      const [a, b] = [withPredicate[i] as Job, withPredicate[k] as Job];
      const shared = layout.files.filter((f) => matches(f, a) > 0 && matches(f, b) > 0);
      if (shared.length === 0) continue;
      const key = `${a.predicate}\0${b.predicate}`;
      if (!splits.has(key))
        splits.set(key, separatingColumn(open(table), a.predicate as string, b.predicate as string));
      const split = await splits.get(key);
      const names = shared.slice(0, 10).map((f) => f.path);
      out.push({
        rule: 'predicates-share-files',
        severity: 'warning',
        jobs: [a.name, b.name],
        table,
        evidence: `${a.name}'s '${a.predicate}' and ${b.name}'s '${b.predicate}' both match rows in ${shared.length} of ${plural(layout.files.length, 'file')} of ${table} at version ${layout.version} (${names.join(', ')}${shared.length > names.length ? ', …' : ''}): each rewrites files the other read, so the second to commit fails`,
        fix: split
          ? `partition the table by ${split.column} (${split.values} values): the two predicates then fall in different partitions, and both commit`
          : 'no column with few values separates them: run the two jobs one after the other, or give both a redo loop',
      });
    }
  }
  return out;
}

/** The library with a conflict checker that a job's `engine` text names; null for others (delta-rs ≤ 1.1.4, or unknown). */
function checkedLibraryOf(job: Job): CheckedLibrary | null {
  const library = libraryOf(job.engine);
  return CHECKED_LIBRARIES.find((l) => l === library) ?? null;
}

/** A job as a writer the simulation understands, or why it cannot be one. */
function writerOf(job: Job, identitySet: Record<string, string>): SimulatedWriter | string {
  const name = job.name;
  // A redo loop is left out: the question is whether the commit is refused (no-redo-on-conflict says what then).
  const retries = job.commitProperties?.maxCommitRetries;
  const writer = (change: SimulatedWriter['change']): SimulatedWriter => ({
    name,
    change,
    // Any other delta-rs, or an engine we cannot name, writes its commitInfo as delta-rs does.
    engine: checkedLibraryOf(job) ?? 'delta-rs',
    ...(retries !== undefined && { maxCommitRetries: retries }),
  });
  switch (job.operation) {
    case 'update':
      // The manifest does not say which columns change; a rewrite conflicts the same way whatever it sets.
      return writer({ kind: 'update', predicate: job.predicate ?? 'TRUE', set: identitySet });
    case 'delete':
      return writer({ kind: 'delete', predicate: job.predicate ?? 'TRUE' });
    case 'append':
      // Its rows are unknown here (the facts know no rows by the job's name): an append of unknown stats matches anything.
      return writer({
        kind: 'append',
        rows: name,
        blind: job.commitProperties?.isBlindAppend === true,
        checksFirst: job.checksTableBeforeAppend === true,
      });
    case 'optimize':
      return writer({ kind: 'optimize' });
    default:
      return `${job.operation} jobs are not forecast`;
  }
}

/**
 * The table as a pair's jobs declare it: their table properties over its own, SECOND's value where
 * both set a key (a race of the pair sets them so too). `delta.isolationLevel` is read from here.
 */
function declaredOn(facts: SimulationFacts, first: Job, second: Job): SimulationFacts {
  const declared = { ...first.tableProperties, ...second.tableProperties };
  if (Object.keys(declared).length === 0) return facts;
  return { ...facts, snapshot: { ...facts.snapshot, configuration: { ...facts.snapshot.configuration, ...declared } } };
}

/**
 * Every ordered pair of jobs on each table, both orders of a pair together, within `budget`: does
 * the second commit after the first, under each engine? Each table is judged at the one snapshot
 * `open` gives, its facts read once for all its pairs, with the properties each pair declares.
 */
export async function pairForecasts(
  jobs: Job[],
  open: (table: string) => DeltaTable,
  budget: AuditBudgets['forecasts'],
): Promise<PairForecast[]> {
  const out: PairForecast[] = [];
  for (const [table, tableJobs] of tablesSmallestFirst(jobs)) {
    const ordered = [...pairsInOrder(tableJobs.length)].flatMap(([i, k]) => [
      [tableJobs[i], tableJobs[k]] as [Job, Job],
      [tableJobs[k], tableJobs[i]] as [Job, Job],
    ]);
    const pairs = ordered.filter(() => budget.take());
    if (pairs.length === 0) continue;
    const opened = open(table);
    const schema = opened.schema;
    // The stand-in update sets a column no predicate reads: a set column's stats are unknown after
    // the rewrite, and an unknown VendorID would make every VendorID predicate match.
    const read = new Set(tableJobs.flatMap((j) => (j.predicate ? columnsOf(parsePredicate(j.predicate, schema)) : [])));
    const column = schema.fields.find((f) => /^[A-Za-z_]\w*$/.test(f.name) && !read.has(f.name))?.name ?? '';
    const writers = new Map(tableJobs.map((j) => [j, writerOf(j, { [column]: column })]));
    const paired = new Set(pairs.flat());
    const facts = await tableFacts(
      opened,
      [...writers].flatMap(([j, w]) => (paired.has(j) && typeof w !== 'string' ? [w] : [])),
    );
    for (const [first, second] of pairs) {
      const [a, b] = [writers.get(first), writers.get(second)] as [SimulatedWriter | string, SimulatedWriter | string];
      const base = { table, first: first.name, second: second.name };
      const secondEngine = checkedLibraryOf(second);
      if (typeof a === 'string' || typeof b === 'string') {
        out.push({
          ...base,
          secondCommits: null,
          failedCheck: null,
          message: null,
          byEngine: [],
          secondEngine,
          skipped: typeof a === 'string' ? a : (b as string),
        });
        continue;
      }
      const f = simulateConflict({ facts: declaredOn(facts, first, second), first: a, second: b });
      out.push({
        ...base,
        secondCommits: f.secondCommits,
        failedCheck: f.failedCheck,
        message: f.message,
        byEngine: f.byEngine,
        secondEngine,
      });
    }
  }
  return out;
}
