/**
 * Each concurrent commit judged again from the log, by the product's own conflict checkers (the ones the code
 * audit and every forecast use): delta-rs 1.2–1.6.x, delta-rs ≤ 1.1.4 (the same checker, its own reading of the
 * level), Delta Spark and Databricks, under Serializable, WriteSerializable and SnapshotIsolation, and under the
 * table's property in force as each library reads it. The loser is rebuilt as the engine's Transaction builds one:
 * its read side from its recorded predicate parsed against the schema at its read version, the files it read those
 * live then that the predicate could see (partition values and stats, logical names on a column-mapped table), its
 * own file actions from its commit; each winner is its commit's actions, commitInfo included (a blind-append claim
 * changes how WriteSerializable judges it). Where the log lacks what a judgement needs, the commit is not judged
 * and `cannotJudge` says why.
 */
import {
  type Action,
  type Add,
  camelCaseSpelling,
  checkerFor,
  type DeltaTable,
  type Expr,
  ISOLATION_LEVEL_KEY,
  ISOLATION_LEVELS,
  type IsolationLevel,
  type LibraryConflict,
  type LibraryTransaction,
  readIsolationLevel,
  WRITER_LIBRARIES,
  type WriterLibrary,
} from '@racelab/engine';
import { rejudgementFindings } from './findings';
import { type LogAccess, logAccess } from './log-access';
import type { HistoryCommit, HistoryFinding, HistoryWriter, LibraryJudgement, Rejudgement } from './types';

/** The operations the checkers model. */
const JUDGED = new Set(['WRITE', 'UPDATE', 'DELETE', 'MERGE', 'OPTIMIZE']);

export interface RejudgeContext {
  /** The table opened at the newest version read: schema, partition columns, column mapping. */
  table: DeltaTable;
  /** The table's configuration in force after `version` (its own metaData, else the last one before it). */
  configurationAt(version: number): Record<string, string>;
  /** A commit's actions, read again from the log. */
  readActions(version: number): Promise<Action[]>;
  signal?: AbortSignal;
  /** Commits judged at most (default DEFAULT_MAX_JUDGED); the rest are "cannot judge", naming the bound. */
  maxJudged?: number;
  onProgress?: (judged: number, total: number) => void;
}

export interface RejudgeResult {
  rejudgements: Rejudgement[];
  findings: HistoryFinding[];
}

export const DEFAULT_MAX_JUDGED = 20_000;

/** The library a writer's record names: delta-rs before 1.2 reads the level its own way. */
export function judgedLibrary(writer: HistoryWriter): WriterLibrary | null {
  const lib = writer.library;
  if (lib === 'delta-rs') {
    const m = /^(\d+)\.(\d+)/.exec(writer.version ?? '');
    return m && (Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < 2)) ? 'delta-rs-legacy' : 'delta-rs';
  }
  return lib === 'delta-spark' || lib === 'databricks' ? lib : null;
}

/** The read side of a commit as the checkers need it, or why the log cannot give it. */
type Loser = { reads: LibraryTransaction; configuration: Record<string, string | null> } | { why: string };

/** A file action under logical names, as the reader presents files to predicates on a column-mapped table. */
function logicalAdd(table: DeltaTable, add: Add): Add {
  if (table.columnMapping === 'none') return add;
  const { partitionValues, ...stats } = table.fileStats(add);
  return {
    ...add,
    partitionValues,
    ...(add.stats !== undefined && add.stats !== null && { stats: JSON.stringify(stats) }),
  };
}

const logicalActions = (table: DeltaTable, actions: readonly Action[]): Action[] =>
  actions.map((a) => ('add' in a ? { add: logicalAdd(table, a.add) } : a));

function parsed(table: DeltaTable, predicate: string): Expr | string {
  try {
    return table.parsePredicate(predicate);
  } catch (e) {
    return `its recorded predicate ${JSON.stringify(predicate)} does not parse against the table's schema: ${(e as Error).message}`;
  }
}

function loserOf(commit: HistoryCommit, table: DeltaTable, own: readonly Action[]): Loser {
  const operation = commit.operation;
  if (operation === null) return { why: 'its commitInfo records no operation' };
  if (!JUDGED.has(operation))
    return { why: `the checkers model WRITE, UPDATE, DELETE, MERGE and OPTIMIZE, not ${operation}` };
  // Every UPDATE records one (`true` for all rows); a DELETE or MERGE without one read every file.
  if (commit.predicate === null && operation === 'UPDATE') {
    return { why: 'no predicate recorded for its UPDATE: what it read is unknown' };
  }
  const expr = commit.predicate === null ? null : parsed(table, commit.predicate);
  if (typeof expr === 'string') return { why: expr };
  const fileActions = logicalActions(
    table,
    own.filter((a) => !('commitInfo' in a)),
  );
  const removes = fileActions.some((a) => 'remove' in a);
  return {
    configuration: table.configuration,
    reads: {
      readVersion: table.version,
      protocol: table.protocol,
      readPredicate: expr,
      // A MERGE records a predicate only when it filtered its target early; without one it read every file.
      readWholeTable: operation === 'MERGE' && expr === null,
      readFiles: new Set(table.filesMatching(expr ?? undefined).map((f) => f.path)),
      actions: fileActions,
      operation,
      operationChangesData: operation !== 'OPTIMIZE',
      // What Spark would have recorded: it read nothing (no predicate, not a rewrite) and only adds files.
      isBlindAppend: operation === 'WRITE' && expr === null && !removes,
      partitionColumns: table.partitionColumns,
      metadata: table.metadata,
    },
  };
}

/** `configuration` with `delta.isolationLevel` set to the spelling every library reads as `level`. */
const atLevel = (configuration: Record<string, string | null>, level: IsolationLevel) => ({
  ...configuration,
  [ISOLATION_LEVEL_KEY]: camelCaseSpelling(level),
});

/** The library's checker over the winners in order: the first refusal, or null. */
function judge(
  library: WriterLibrary,
  reads: LibraryTransaction,
  winners: readonly { version: number; actions: readonly Action[] }[],
  configuration: Record<string, string | null>,
): LibraryConflict | null {
  // delta-rs ≤ 1.1.4 checks as 1.2+ does; only its reading of the property differs (applied by the caller).
  const check = checkerFor(library === 'delta-rs-legacy' ? 'delta-rs' : library);
  const always = check(reads, null, configuration);
  if (always) return always;
  for (const w of winners) {
    const c = check(reads, w, configuration);
    if (c) return c;
  }
  return null;
}

/** The level a library could not read from the property (its every commit fails). */
export const UNREADABLE_LEVEL = 'unreadable';

function verdict(library: WriterLibrary, level: IsolationLevel | null, c: LibraryConflict | null): LibraryJudgement {
  return {
    library,
    level: level ?? UNREADABLE_LEVEL,
    outcome: c ? 'conflict' : 'commit',
    conflict: c ? c.kind : null,
    message: c && (c.winnerVersion === null ? c.message : `against version ${c.winnerVersion}: ${c.message}`),
  };
}

/** Each library under the property in force, as that library reads it. */
function asConfigured(
  reads: LibraryTransaction,
  winners: readonly { version: number; actions: readonly Action[] }[],
  configuration: Record<string, string | null>,
): LibraryJudgement[] {
  const value = configuration[ISOLATION_LEVEL_KEY] ?? null;
  return WRITER_LIBRARIES.map((library) => {
    const level = readIsolationLevel(value, library).effective;
    // delta-rs ≥ 1.2 and the Spark models read the raw property themselves; ≤ 1.1.4 is given the level it reads.
    const config = library === 'delta-rs-legacy' && level ? atLevel(configuration, level) : configuration;
    return verdict(library, level, judge(library, reads, winners, config));
  });
}

const readVersionOf = (commit: HistoryCommit) => commit.readVersion ?? Math.min(...commit.concurrentWith) - 1;

function notJudged(commit: HistoryCommit, why: string): Rejudgement {
  return {
    version: commit.version,
    judgements: [],
    cannotJudge: why,
    readVersion: readVersionOf(commit),
    evidence: commit.evidence,
    winners: [...commit.concurrentWith],
    library: judgedLibrary(commit.writer),
    asConfigured: [],
    agreesWithLog: null,
  };
}

async function rejudgeOne(commit: HistoryCommit, log: LogAccess): Promise<Rejudgement> {
  const readVersion = readVersionOf(commit);
  if (readVersion < 0) return notJudged(commit, "it overlapped the table's first commit: there was nothing to read");
  const [table, own, winnerActions] = await Promise.all([
    log.snapshotAt(readVersion),
    log.actionsOf(commit.version),
    Promise.all(commit.concurrentWith.map((v) => log.actionsOf(v))),
  ]);
  const loser = loserOf(commit, table, own);
  if ('why' in loser) return notJudged(commit, loser.why);
  const winners = commit.concurrentWith.map((version, i) => ({
    version,
    actions: logicalActions(table, winnerActions[i] ?? []),
  }));
  const judgements = WRITER_LIBRARIES.flatMap((library) =>
    ISOLATION_LEVELS.map((level) =>
      verdict(library, level, judge(library, loser.reads, winners, atLevel(loser.configuration, level))),
    ),
  );
  const configured = asConfigured(loser.reads, winners, loser.configuration);
  const library = judgedLibrary(commit.writer);
  const mine = configured.find((v) => v.library === library);
  return {
    ...notJudged(commit, ''),
    cannotJudge: null,
    judgements,
    asConfigured: configured,
    agreesWithLog: mine ? mine.outcome === 'commit' : null,
  };
}

/**
 * Every commit with a concurrent commit, judged again (commits with none are not listed), and the findings the
 * judgements support.
 */
export async function rejudge(commits: HistoryCommit[], ctx: RejudgeContext): Promise<RejudgeResult> {
  const max = ctx.maxJudged ?? DEFAULT_MAX_JUDGED;
  const log = logAccess(ctx.table, ctx.readActions);
  const concurrent = commits.filter((c) => c.concurrentWith.length > 0);
  const rejudgements: Rejudgement[] = [];
  for (const [i, commit] of concurrent.entries()) {
    ctx.signal?.throwIfAborted();
    rejudgements.push(
      i < max
        ? await rejudgeOne(commit, log)
        : notJudged(commit, `the bound of ${max} commits judged was reached before it`),
    );
    ctx.onProgress?.(i + 1, concurrent.length);
  }
  return { rejudgements, findings: rejudgementFindings(commits, rejudgements) };
}
