/**
 * The winner simulation: given a table's files and, per file, how many rows match an operation's
 * predicate (counted from the data, never guessed from min/max), the actions that operation's
 * commit would contain, and what it reads. The pure checker then judges the other writer. This is
 * how a forecast tells that an update of VendorID 6 leaves files 1–7 alone although their VendorID
 * spans 1..7. Pure: runs in the browser.
 */
import type { Expr } from '../../sql/index';
import type { Action, Add, Protocol } from '../protocol/actions';
import { type FileStats, parseStats } from '../protocol/stats';
import { type Conflict, checkWinner, filesMatchingPredicate, type TransactionReads } from './conflict-checker';
import type { IsolationLevel } from './isolation';

export type SimulatedOperation =
  /** New rows; `stats` of the file it adds when known (unknown stats match every predicate). */
  | { kind: 'append'; stats?: FileStats; partitionValues?: Record<string, string | null>; blind?: boolean }
  /** UPDATE / DELETE / overwrite-with-predicate: `matches` is rows matching per file path. */
  | {
      kind: 'update' | 'delete' | 'overwrite';
      predicate: Expr | null;
      matches: ReadonlyMap<string, number>;
      updatedColumns?: string[];
    }
  | { kind: 'optimize'; targetSize: number };

export interface SimulatedCommit {
  /** The winner's actions, commitInfo first. */
  actions: Action[];
  /** The same operation as the loser: what the checker needs of it. */
  reads: TransactionReads;
}

const OPERATION: Record<SimulatedOperation['kind'], string> = {
  append: 'WRITE',
  update: 'UPDATE',
  delete: 'DELETE',
  overwrite: 'WRITE',
  optimize: 'OPTIMIZE',
};

/** The least (sign -1) or greatest (sign 1) of stats values: numbers, or same-format date/time text. */
function extreme(values: unknown[], sign: -1 | 1): unknown {
  let best = values[0] as number | string;
  for (const v of values.slice(1) as (number | string)[]) if (sign < 0 ? v < best : v > best) best = v;
  return best;
}

/** Stats of a file rewritten from `files`: bounds that hold for every row it can contain. */
function mergedStats(files: readonly Add[], rows: number, unknownColumns: readonly string[]): FileStats | null {
  const all = files.map((f) => parseStats(f.stats));
  if (all.some((s) => !s?.minValues || !s.maxValues)) return null;
  const out: FileStats = { numRecords: rows, minValues: {}, maxValues: {}, nullCount: {} };
  const first = all[0];
  for (const col of Object.keys(first?.minValues ?? {})) {
    if (unknownColumns.includes(col)) continue;
    const mins = all.map((s) => s?.minValues?.[col]);
    const maxs = all.map((s) => s?.maxValues?.[col]);
    if (mins.some((v) => v === undefined) || maxs.some((v) => v === undefined)) continue;
    out.minValues[col] = extreme(mins, -1);
    out.maxValues[col] = extreme(maxs, 1);
  }
  return out;
}

function rewrittenAdd(
  files: readonly Add[],
  rows: number,
  unknownColumns: readonly string[],
  dataChange: boolean,
  tag: string,
): Add {
  const stats = mergedStats(files, rows, unknownColumns);
  return {
    path: `simulated-${tag}.parquet`,
    partitionValues: files[0]?.partitionValues ?? {},
    size: files.reduce((n, f) => n + f.size, 0),
    modificationTime: 0,
    dataChange,
    ...(stats && { stats: JSON.stringify(stats) }),
  };
}

const removeOf = (f: Add, dataChange: boolean): Action => ({
  remove: { path: f.path, dataChange, partitionValues: f.partitionValues, size: f.size },
});

/** What `op`'s commit would hold on a table with `files` (the read snapshot), and what it reads. */
export function simulateCommit(
  files: readonly Add[],
  protocol: Protocol,
  op: SimulatedOperation,
  tag = 'w',
): SimulatedCommit {
  const operation = OPERATION[op.kind];
  const fileActions: Action[] = [];
  let readPredicate: Expr | null = null;
  let blind = false;
  if (op.kind === 'append') {
    blind = op.blind === true;
    fileActions.push({
      add: {
        path: `simulated-${tag}.parquet`,
        partitionValues: op.partitionValues ?? {},
        size: 0,
        modificationTime: 0,
        dataChange: true,
        ...(op.stats && { stats: JSON.stringify(op.stats) }),
      },
    });
  } else if (op.kind === 'optimize') {
    // The engine's own bin packing lives with the operation; a simulation compacts every small file.
    const small = files.filter((f) => f.size < op.targetSize);
    if (small.length >= 2) {
      const rows = small.reduce((n, f) => n + (parseStats(f.stats)?.numRecords ?? 0), 0);
      fileActions.push(...small.map((f) => removeOf(f, false)), { add: rewrittenAdd(small, rows, [], false, tag) });
    }
  } else {
    readPredicate = op.predicate;
    const touched = files.filter((f) => (op.predicate === null ? true : (op.matches.get(f.path) ?? 0) > 0));
    const total = touched.reduce((n, f) => n + (parseStats(f.stats)?.numRecords ?? 0), 0);
    const matched = touched.reduce((n, f) => n + (op.matches.get(f.path) ?? 0), 0);
    fileActions.push(...touched.map((f) => removeOf(f, true)));
    const rows = op.kind === 'delete' ? total - matched : total;
    if (touched.length > 0 && rows > 0 && !(op.kind === 'delete' && op.predicate === null)) {
      fileActions.push({ add: rewrittenAdd(touched, rows, op.updatedColumns ?? [], true, tag) });
    }
  }
  const commitInfo = { operation, ...(blind && { isBlindAppend: true }) };
  return {
    actions: [{ commitInfo }, ...fileActions],
    reads: {
      readVersion: 0,
      protocol,
      readPredicate,
      readWholeTable: false,
      readFiles: new Set(filesMatchingPredicate(files, readPredicate).map((f) => f.path)),
      actions: fileActions,
      operation,
      operationChangesData: op.kind !== 'optimize',
    },
  };
}

export interface Prediction {
  /** The second writer's fate: null when it commits. */
  conflict: Conflict | null;
  winnerActions: Action[];
}

/** Both writers read the same snapshot; `first` commits, then `second` is judged against it. */
export function predictConflict(
  files: readonly Add[],
  protocol: Protocol,
  first: SimulatedOperation,
  second: SimulatedOperation,
  level: IsolationLevel,
): Prediction {
  const winner = simulateCommit(files, protocol, first, 'first');
  const loser = simulateCommit(files, protocol, second, 'second');
  return {
    conflict: checkWinner(loser.reads, { version: 1, actions: winner.actions }, level),
    winnerActions: winner.actions,
  };
}

/** One part of a commit: an operation on the files it applies to (a partition, a compaction bin). */
export interface CommitPiece {
  files: readonly Add[];
  op: SimulatedOperation;
}

/** The files grouped by partition values (one group for an unpartitioned table). */
export function partitionGroups(files: readonly Add[]): Add[][] {
  const groups = new Map<string, Add[]>();
  for (const f of files) {
    const key = JSON.stringify(Object.entries(f.partitionValues).sort());
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()];
}

/**
 * A commit the engine writes in parts: `main` over the whole snapshot gives the commitInfo and
 * what the writer reads; each piece gives its file actions (the engine writes one new file per
 * partition it rewrites or appends to, and one per compaction bin).
 */
export function simulatePieces(
  files: readonly Add[],
  protocol: Protocol,
  main: SimulatedOperation,
  pieces: readonly CommitPiece[],
  tag = 'w',
): SimulatedCommit {
  const whole = simulateCommit(files, protocol, main, tag);
  const fileActions: Action[] = pieces.flatMap((p, i) =>
    simulateCommit(p.files, protocol, p.op, `${tag}-${i}`).actions.filter((a) => !('commitInfo' in a)),
  );
  return {
    actions: [...whole.actions.filter((a) => 'commitInfo' in a), ...fileActions],
    reads: { ...whole.reads, actions: fileActions },
  };
}

/** An update, delete or predicate overwrite: one rewrite per partition of the snapshot. */
export function simulateRewrite(files: readonly Add[], protocol: Protocol, op: SimulatedOperation, tag = 'w') {
  return simulatePieces(
    files,
    protocol,
    op,
    partitionGroups(files).map((group) => ({ files: group, op })),
    tag,
  );
}
