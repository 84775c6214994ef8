/**
 * Each concurrent commit judged again from the log, by the product's own conflict checkers (the ones the code
 * audit and every forecast use): delta-rs 1.2–1.6.x, delta-rs ≤ 1.1.4 (the same checker, its own reading of the
 * level), Delta Spark and Databricks, under Serializable, WriteSerializable and SnapshotIsolation, and under the
 * table's property in force as each library reads it. The loser is rebuilt as the engine's Transaction builds one:
 * its read side from its recorded predicate parsed against the table's schema, its own file actions from its
 * commit, the property from the configuration in force at its read version; each winner is its commit's actions,
 * commitInfo included (a blind-append claim changes how WriteSerializable judges it), under logical column names on
 * a column-mapped table. No snapshot is built per read version: the checkers ask of the files a loser read only
 * whether a winner removed one, so only those paths' adds are looked up in the commit files. Where the log lacks
 * what a judgement needs, the commit is not judged and `cannotJudge` says why.
 */
import {
  type Action,
  type Add,
  camelCaseSpelling,
  canMatch,
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
import { recordedPredicateSql } from './recorded-predicate';
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

/** A commit's read side as far as the log gives it, or why it cannot. */
type Parsed = { operation: string; expr: Expr | null; wholeTable: boolean } | { why: string };

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

function readSideOf(commit: HistoryCommit, table: DeltaTable): Parsed {
  const operation = commit.operation;
  if (operation === null) return { why: 'its commitInfo records no operation' };
  if (!JUDGED.has(operation))
    return { why: `the checkers model WRITE, UPDATE, DELETE, MERGE and OPTIMIZE, not ${operation}` };
  // Every UPDATE records one (`true` for all rows); a DELETE or MERGE without one read every file.
  if (commit.predicate === null && operation === 'UPDATE') {
    return { why: 'no predicate recorded for its UPDATE: what it read is unknown' };
  }
  if (commit.predicate === null) return { operation, expr: null, wholeTable: operation === 'MERGE' };
  try {
    return { operation, expr: table.parsePredicate(recordedPredicateSql(commit.predicate)), wholeTable: false };
  } catch (e) {
    return {
      why: `its recorded predicate ${JSON.stringify(commit.predicate)} does not parse against the table's schema: ${(e as Error).message}`,
    };
  }
}

/**
 * The files a loser read that matter to any checker: those among its winners' removes (delta-rs and Spark ask of
 * a read file only whether a winner removed it). A removed path was live at the read version unless an earlier
 * winner added it; it was read when the loser has no predicate, or the predicate could see its add (found in the
 * log at or before the read version). Null when such an add is not in the commits read (it is in a checkpoint).
 */
function readAmongRemoved(
  read: Extract<Parsed, { operation: string }>,
  readVersion: number,
  winners: readonly (readonly Action[])[],
  table: DeltaTable,
  adds: AddIndex,
): Set<string> | null {
  const files = new Set<string>();
  const addedSince = new Set<string>();
  for (const actions of winners) {
    for (const a of actions) {
      if (!('remove' in a) || addedSince.has(a.remove.path)) continue;
      if (read.expr === null) {
        files.add(a.remove.path);
        continue;
      }
      const add = adds.at(a.remove.path, readVersion);
      if (add === undefined) return null;
      if (canMatch(read.expr, table.fileStats(add))) files.add(a.remove.path);
    }
    for (const a of actions) if ('add' in a) addedSince.add(a.add.path);
  }
  return files;
}

/** The adds of some paths, each with the version that wrote it, from the commit files read. */
class AddIndex {
  private readonly byPath = new Map<string, { version: number; add: Add }[]>();

  static async of(paths: ReadonlySet<string>, versions: readonly number[], log: LogAccess, signal?: AbortSignal) {
    const index = new AddIndex();
    if (paths.size === 0) return index;
    for (let i = 0; i < versions.length; i += PARALLEL_READS) {
      signal?.throwIfAborted();
      const batch = versions.slice(i, i + PARALLEL_READS);
      const read = await Promise.all(batch.map((v) => log.actionsOf(v)));
      batch.forEach((version, j) => {
        for (const a of read[j] ?? []) {
          if ('add' in a && paths.has(a.add.path)) {
            index.byPath.set(a.add.path, [...(index.byPath.get(a.add.path) ?? []), { version, add: a.add }]);
          }
        }
      });
    }
    return index;
  }

  /** The newest add of `path` at or before `version`. */
  at(path: string, version: number): Add | undefined {
    return this.byPath
      .get(path)
      ?.filter((e) => e.version <= version)
      .at(-1)?.add;
  }
}

/** Commit files read at once while indexing adds. */
const PARALLEL_READS = 64;

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

/** A concurrent commit with its own actions and its winners', ready to judge. */
interface Pending {
  commit: HistoryCommit;
  readVersion: number;
  read: Parsed;
  own: readonly Action[];
  winners: readonly (readonly Action[])[];
}

async function pending(commit: HistoryCommit, ctx: RejudgeContext, log: LogAccess): Promise<Pending> {
  const [own, winners] = await Promise.all([
    log.actionsOf(commit.version),
    Promise.all(commit.concurrentWith.map((v) => log.actionsOf(v))),
  ]);
  return { commit, readVersion: readVersionOf(commit), read: readSideOf(commit, ctx.table), own, winners };
}

async function judgeOne(p: Pending, ctx: RejudgeContext, log: LogAccess, adds: AddIndex): Promise<Rejudgement> {
  const { commit, readVersion, read } = p;
  if (readVersion < 0) return notJudged(commit, "it overlapped the table's first commit: there was nothing to read");
  if ('why' in read) return notJudged(commit, read.why);
  const { table } = ctx;
  const files =
    readAmongRemoved(read, readVersion, p.winners, table, adds) ??
    // An add only a checkpoint holds: the table as of the read version says what the predicate could see.
    new Set((await log.snapshotAt(readVersion)).filesMatching(read.expr ?? undefined).map((f) => f.path));
  const fileActions = logicalActions(
    table,
    p.own.filter((a) => !('commitInfo' in a)),
  );
  const configuration: Record<string, string | null> = ctx.configurationAt(readVersion);
  const reads: LibraryTransaction = {
    readVersion,
    protocol: table.protocol,
    readPredicate: read.expr,
    readWholeTable: read.wholeTable,
    readFiles: files,
    actions: fileActions,
    operation: read.operation,
    operationChangesData: read.operation !== 'OPTIMIZE',
    // What Spark would have recorded: it read nothing (no predicate, not a rewrite) and only adds files.
    isBlindAppend: read.operation === 'WRITE' && read.expr === null && !fileActions.some((a) => 'remove' in a),
    partitionColumns: table.partitionColumns,
    metadata: { ...table.metadata, configuration },
  };
  const winners = commit.concurrentWith.map((version, i) => ({
    version,
    actions: logicalActions(table, p.winners[i] ?? []),
  }));
  const judgements = WRITER_LIBRARIES.flatMap((library) =>
    ISOLATION_LEVELS.map((level) =>
      verdict(library, level, judge(library, reads, winners, atLevel(configuration, level))),
    ),
  );
  const configured = asConfigured(reads, winners, configuration);
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
  const judged: Pending[] = [];
  const toJudge = concurrent.slice(0, max);
  for (let i = 0; i < toJudge.length; i += PARALLEL_READS) {
    ctx.signal?.throwIfAborted();
    judged.push(...(await Promise.all(toJudge.slice(i, i + PARALLEL_READS).map((c) => pending(c, ctx, log)))));
  }
  // The adds a predicate's judgement needs: those of the paths its winners removed, from the log up to its read.
  const wanted = new Set<string>();
  let upTo = -1;
  for (const p of judged) {
    if ('why' in p.read || p.read.expr === null) continue;
    upTo = Math.max(upTo, p.readVersion);
    for (const actions of p.winners) for (const a of actions) if ('remove' in a) wanted.add(a.remove.path);
  }
  const versions = commits.map((c) => c.version).filter((v) => v <= upTo);
  const adds = await AddIndex.of(wanted, versions, log, ctx.signal);
  const rejudgements: Rejudgement[] = [];
  for (const [i, p] of judged.entries()) {
    ctx.signal?.throwIfAborted();
    rejudgements.push(await judgeOne(p, ctx, log, adds));
    ctx.onProgress?.(i + 1, concurrent.length);
  }
  for (const commit of concurrent.slice(max)) {
    rejudgements.push(notJudged(commit, `the bound of ${max} commits judged was reached before it`));
  }
  return { rejudgements, findings: rejudgementFindings(commits, rejudgements) };
}
