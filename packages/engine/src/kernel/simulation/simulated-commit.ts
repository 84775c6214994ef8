/**
 * The commit a writer's change would make on a read snapshot, built without touching data: its
 * actions, and what the conflict checker needs of it when it loses. As the engine writes them, a
 * rewrite or an append adds one file per partition and a compaction one per bin. The files a
 * rewrite removes are those the facts say hold a matching row (never guessed from min/max); a new
 * file's stats are bounds that hold for every row it can contain. The writer's engine decides only
 * its commitInfo: Delta Spark records `isBlindAppend` on every commit, delta-rs only when the job
 * passes it as commit metadata. Both write the same file actions and `dataChange` flags for these
 * changes (a compaction's are false on both).
 */

import { filesMatchingPredicate } from '../conflict/conflict-checker';
import type { LibraryTransaction } from '../conflict/library-checkers';
import type { CheckedLibrary } from '../conflict/writer-libraries';
import type { Action, Add } from '../delta/protocol/actions';
import { type FileStats, parseStats } from '../delta/protocol/stats';
import type { Expr } from '../sql/index';
import type { AppendedFile, TableSnapshot } from './simulation-facts';

export interface SimulatedCommit {
  /** commitInfo first, then the file actions. */
  actions: Action[];
  /** The same commit as the loser: what every engine's checker judges. */
  reads: LibraryTransaction;
}

/** Who writes the commit: its engine, and a tag that names its new files. */
export interface CommitAuthor {
  engine: CheckedLibrary;
  tag: string;
}

/** The commit's file actions and what it read; `commitOf` adds the rest. */
interface CommitParts {
  operation: 'WRITE' | 'UPDATE' | 'DELETE' | 'OPTIMIZE';
  readPredicate: Expr | null;
  fileActions: Action[];
  /** It scanned the table (a check before an append counts): Delta Spark then never calls it blind. */
  readsTable: boolean;
  /** delta-rs: the job passes `isBlindAppend: true` as commit metadata, whatever it did. */
  claimsBlind?: boolean;
}

const partitionKey = (values: Record<string, string | null>) => JSON.stringify(Object.entries(values).sort());

/** Items grouped by their partition values, in first-seen order. */
function byPartition<T>(items: readonly T[], values: (item: T) => Record<string, string | null>): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = partitionKey(values(item));
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

/** The least (sign -1) or greatest (sign 1) of stats values: numbers, or same-format date/time text. */
function extreme(values: unknown[], sign: -1 | 1): unknown {
  let best = values[0] as number | string;
  for (const v of values.slice(1) as (number | string)[]) if (sign < 0 ? v < best : v > best) best = v;
  return best;
}

/** A file's stats as the log or the facts give them: maybe partial, maybe absent. */
type Bounds = Partial<FileStats> | null | undefined;

/** Bounds for a file holding rows of every `parts`' file; null when one part has no bounds at all. */
function mergedStats(parts: readonly Bounds[], rows: number, unknownColumns: readonly string[]): FileStats | null {
  if (parts.some((s) => !s?.minValues || !s.maxValues)) return null;
  const all = parts as Pick<FileStats, 'minValues' | 'maxValues'>[];
  const out: FileStats = { numRecords: rows, minValues: {}, maxValues: {}, nullCount: {} };
  for (const col of Object.keys(all[0]?.minValues ?? {})) {
    if (unknownColumns.includes(col)) continue;
    const mins = all.map((s) => s.minValues[col]);
    const maxs = all.map((s) => s.maxValues[col]);
    if (mins.some((v) => v === undefined) || maxs.some((v) => v === undefined)) continue;
    out.minValues[col] = extreme(mins, -1);
    out.maxValues[col] = extreme(maxs, 1);
  }
  return out;
}

const rowsOf = (f: Add) => parseStats(f.stats)?.numRecords ?? 0;
const sum = (ns: readonly number[]) => ns.reduce((a, b) => a + b, 0);

function newFile(
  path: string,
  partitionValues: Record<string, string | null>,
  stats: FileStats | null,
  dataChange: boolean,
): Action {
  return {
    add: {
      path,
      partitionValues,
      size: 0,
      modificationTime: 0,
      dataChange,
      ...(stats && { stats: JSON.stringify(stats) }),
    },
  };
}

const removeOf = (f: Add, dataChange: boolean): Action => ({
  remove: { path: f.path, dataChange, partitionValues: f.partitionValues, size: f.size },
});

/** Files of the snapshot holding a row that matches, by the facts' counts. */
const touchedBy = (snapshot: TableSnapshot, matches: ReadonlyMap<string, number>) =>
  snapshot.files.filter((f) => (matches.get(f.path) ?? 0) > 0);

/**
 * The whole commit from its parts: commitInfo first, as `author.engine` writes it; the loser reads
 * the files its predicate could see.
 */
function commitOf(snapshot: TableSnapshot, parts: CommitParts, author: CommitAuthor): SimulatedCommit {
  // Delta Spark's own test: it read nothing and its only file actions are adds.
  const isBlindAppend = !parts.readsTable && parts.fileActions.every((a) => 'add' in a);
  const commitInfo = {
    operation: parts.operation,
    ...(author.engine === 'delta-rs' ? parts.claimsBlind && { isBlindAppend: true } : { isBlindAppend }),
  };
  return {
    actions: [{ commitInfo }, ...parts.fileActions],
    reads: {
      isBlindAppend,
      partitionColumns: snapshot.partitionColumns,
      readVersion: snapshot.version,
      protocol: snapshot.protocol,
      readPredicate: parts.readPredicate,
      readWholeTable: false,
      readFiles: new Set(filesMatchingPredicate(snapshot.files, parts.readPredicate).map((f) => f.path)),
      actions: parts.fileActions,
      operation: parts.operation,
      operationChangesData: parts.operation !== 'OPTIMIZE',
    },
  };
}

/**
 * New rows, one file per partition; unknown rows (null) are one file of unknown stats. An append
 * reads no predicate; `how` says whether it scanned the table first and whether it claims to be blind.
 */
export function appendCommit(
  snapshot: TableSnapshot,
  files: readonly AppendedFile[] | null,
  how: Pick<CommitParts, 'readsTable' | 'claimsBlind'>,
  author: CommitAuthor,
): SimulatedCommit {
  const adds = (files ?? [{ partitionValues: {} }]).map((f, i) =>
    newFile(`simulated-${author.tag}-${i}.parquet`, f.partitionValues, f.stats ?? null, true),
  );
  return commitOf(snapshot, { operation: 'WRITE', readPredicate: null, fileActions: adds, ...how }, author);
}

/**
 * UPDATE or DELETE: every file holding a matching row is removed, and per partition one file takes
 * the rows that stay (all of them for an update, whose set columns lose their bounds).
 */
export function rewriteCommit(
  snapshot: TableSnapshot,
  kind: 'update' | 'delete',
  predicate: Expr,
  matches: ReadonlyMap<string, number>,
  setColumns: readonly string[],
  author: CommitAuthor,
): SimulatedCommit {
  const touched = touchedBy(snapshot, matches);
  const adds = byPartition(touched, (f) => f.partitionValues).flatMap((group, i) => {
    const total = sum(group.map(rowsOf));
    const rows = kind === 'delete' ? total - sum(group.map((f) => matches.get(f.path) ?? 0)) : total;
    if (rows <= 0) return [];
    const stats = mergedStats(
      group.map((f) => parseStats(f.stats)),
      rows,
      setColumns,
    );
    return [newFile(`simulated-${author.tag}-${i}.parquet`, group[0]?.partitionValues ?? {}, stats, true)];
  });
  return commitOf(
    snapshot,
    {
      operation: kind === 'update' ? 'UPDATE' : 'DELETE',
      readPredicate: predicate,
      fileActions: [...touched.map((f) => removeOf(f, true)), ...adds],
      readsTable: true,
    },
    author,
  );
}

/**
 * Overwrite with a predicate: the files holding a matching row are removed, and per partition one
 * new file holds the new rows together with the removed files' rows that do not match.
 */
export function overwriteCommit(
  snapshot: TableSnapshot,
  predicate: Expr,
  matches: ReadonlyMap<string, number>,
  appended: readonly AppendedFile[] | null,
  author: CommitAuthor,
): SimulatedCommit {
  const touched = touchedBy(snapshot, matches);
  type Part = { partitionValues: Record<string, string | null>; stats: Bounds; rows: number };
  const parts: Part[] = [
    ...(appended ?? [{ partitionValues: {} }]).map((f) => ({
      partitionValues: f.partitionValues,
      stats: f.stats,
      // Unknown rows count as some: the overwrite writes them.
      rows: f.stats?.numRecords ?? 1,
    })),
    ...touched.map((f) => ({
      partitionValues: f.partitionValues,
      stats: parseStats(f.stats),
      rows: rowsOf(f) - (matches.get(f.path) ?? 0),
    })),
  ];
  const adds = byPartition(parts, (p) => p.partitionValues).flatMap((group, i) => {
    const rows = sum(group.map((p) => p.rows));
    if (rows <= 0) return [];
    const stats = mergedStats(
      group.filter((p) => p.rows > 0).map((p) => p.stats),
      rows,
      [],
    );
    return [newFile(`simulated-${author.tag}-${i}.parquet`, group[0]?.partitionValues ?? {}, stats, true)];
  });
  return commitOf(
    snapshot,
    {
      operation: 'WRITE',
      readPredicate: predicate,
      fileActions: [...touched.map((f) => removeOf(f, true)), ...adds],
      readsTable: true,
    },
    author,
  );
}

/** optimize.compact: each bin becomes one file; removes and adds carry dataChange=false. */
export function compactionCommit(
  snapshot: TableSnapshot,
  bins: readonly Add[][],
  author: CommitAuthor,
): SimulatedCommit {
  const fileActions = bins.flatMap((bin, i) => {
    const rows = sum(bin.map(rowsOf));
    const stats = mergedStats(
      bin.map((f) => parseStats(f.stats)),
      rows,
      [],
    );
    return [
      ...bin.map((f) => removeOf(f, false)),
      newFile(`simulated-${author.tag}-${i}.parquet`, bin[0]?.partitionValues ?? {}, stats, false),
    ];
  });
  return commitOf(snapshot, { operation: 'OPTIMIZE', readPredicate: null, fileActions, readsTable: true }, author);
}
