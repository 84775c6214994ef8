/**
 * delta-rs 1.6.x's conflict checker as a pure function: given what this transaction read and
 * wrote, one winning commit, and the table's isolation level, the first check that fails, in
 * delta-rs's order: protocol, metadata, concurrent append, delete-vs-read, delete-vs-delete, app
 * transaction. Every winner is judged against the transaction's original read snapshot.
 */

import type { Action, Add, CommitInfo, Protocol } from '../delta/protocol/actions';
import { parseStats } from '../delta/protocol/stats';
import { canMatch, type Expr } from '../sql/index';
import type { IsolationLevel } from './isolation';

export type ConflictKind =
  | 'ProtocolChanged'
  | 'MetadataChanged'
  | 'ConcurrentAppend'
  | 'ConcurrentDeleteRead'
  | 'ConcurrentDeleteDelete'
  | 'ConcurrentTransaction';

export type ConflictCheck =
  | 'protocol'
  | 'metadata'
  | 'concurrentAppend'
  | 'deleteRead'
  | 'deleteDelete'
  | 'appTransaction';

const HELP_RERUN =
  "Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

/** delta-rs's `CommitConflictError` Display texts ("transactions" is delta-rs's own typo). */
export const CONFLICT_MESSAGES = {
  ConcurrentAppend: `Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. ${HELP_RERUN}`,
  ConcurrentDeleteRead: `Commit failed: a concurrent transaction deleted data this operation read.\nHelp: This transaction's query must be rerun to exclude the removed data. ${HELP_RERUN}`,
  ConcurrentDeleteDelete:
    'Commit failed: a concurrent transaction deleted the same data your transaction deletes.\nHelp: you should retry this write operation. If it was based on data contained in the table, you should rerun the query generating the data.',
  MetadataChanged: 'Metadata changed since last commit.',
  ConcurrentTransaction: 'Concurrent transaction failed.',
} as const;

export interface Conflict {
  kind: ConflictKind;
  check: ConflictCheck;
  /** The conflict's own text; the commit error wraps it as `Failed to commit transaction: <text>`. */
  message: string;
  winnerVersion: number;
}

/** What one transaction read and what it writes: the checker's whole view of it. */
export interface TransactionReads {
  readVersion: number;
  /** The read snapshot's protocol. */
  protocol: Protocol;
  /** The read predicate, already parsed against the table schema; null when the operation has none. */
  readPredicate: Expr | null;
  /** True only for a MERGE without an early filter. */
  readWholeTable: boolean;
  /** Paths of the read-snapshot files the predicate could see (every file without a predicate). */
  readFiles: ReadonlySet<string>;
  /** This transaction's actions (its own commitInfo may be left out: no check reads it). */
  actions: readonly Action[];
  /** The operation name, or null as in delta-rs's unit tests (which skip the downgrade). */
  operation: string | null;
  /** delta-rs's `changes_data()` for the operation. */
  operationChangesData: boolean;
}

export interface WinningCommit {
  version: number;
  actions: readonly Action[];
}

/** The read-snapshot files a predicate could see by partition values and stats (all, without one). */
export function filesMatchingPredicate(files: readonly Add[], predicate: Expr | null): Add[] {
  if (!predicate) return [...files];
  return files.filter((f) =>
    canMatch(predicate, { partitionValues: f.partitionValues, ...(parseStats(f.stats) ?? {}) }),
  );
}

/**
 * Ported from Spark through delta-rs, and passed the *winner's* actions there. Only a winner with
 * no actions at all can downgrade: a dataChange=false file action or any non-file action (every
 * real commit has commitInfo) counts as "non-file" and keeps the table's level.
 */
export function canDowngradeToSnapshotIsolation(
  actions: readonly Action[],
  operationChangesData: boolean,
  level: IsolationLevel,
): boolean {
  let dataChanged = false;
  let nonFile = false;
  for (const a of actions) {
    if ('add' in a && a.add.dataChange) dataChanged = true;
    else if ('remove' in a && a.remove.dataChange) dataChanged = true;
    else nonFile = true;
  }
  if (nonFile) return false;
  if (level === 'Serializable') return !dataChanged;
  if (level === 'WriteSerializable') return !dataChanged && !operationChangesData;
  return false;
}

const conflict = (kind: ConflictKind, check: ConflictCheck, message: string, winnerVersion: number): Conflict => ({
  kind,
  check,
  message,
  winnerVersion,
});

function commitInfoOf(actions: readonly Action[]): CommitInfo | undefined {
  for (const a of actions) if ('commitInfo' in a) return a.commitInfo;
  return undefined;
}

/** Checks one winning commit; null when it does not conflict. */
export function checkWinner(txn: TransactionReads, winner: WinningCommit, tableLevel: IsolationLevel): Conflict | null {
  const level =
    txn.operation !== null && canDowngradeToSnapshotIsolation(winner.actions, txn.operationChangesData, tableLevel)
      ? 'SnapshotIsolation'
      : tableLevel;
  const v = winner.version;
  const winAdds: Add[] = [];
  const winRemoves: { path: string; dataChange: boolean }[] = [];
  const winAppIds = new Set<string>();
  let winProtocol: Protocol | undefined;
  let winMetadata = false;
  for (const a of winner.actions) {
    if ('add' in a) winAdds.push(a.add);
    else if ('remove' in a) winRemoves.push(a.remove);
    else if ('txn' in a) winAppIds.add(a.txn.appId);
    else if ('protocol' in a) winProtocol = a.protocol;
    else if ('metaData' in a) winMetadata = true;
  }

  // 1. Protocol. The writer test fires when the winner *lowers* the writer version, as in delta-rs.
  if (winProtocol) {
    const cur = txn.protocol;
    if (cur.minReaderVersion < winProtocol.minReaderVersion || winProtocol.minWriterVersion < cur.minWriterVersion) {
      const text = `required read/write ${winProtocol.minReaderVersion}/${winProtocol.minWriterVersion}, current read/write ${cur.minReaderVersion}/${cur.minWriterVersion}`;
      return conflict('ProtocolChanged', 'protocol', `Protocol changed since last commit: ${text}`, v);
    }
    if (txn.actions.some((a) => 'protocol' in a)) {
      return conflict('ProtocolChanged', 'protocol', 'Protocol changed since last commit: protocol changed', v);
    }
  }

  // 2. Metadata: any winning metaData, even an identical one.
  if (winMetadata) return conflict('MetadataChanged', 'metadata', CONFLICT_MESSAGES.MetadataChanged, v);

  // 3. Files added that this transaction should have read.
  if (level !== 'SnapshotIsolation') {
    const changesMetadata = txn.actions.some((a) => 'metaData' in a);
    const blind = commitInfoOf(winner.actions)?.isBlindAppend === true;
    const candidates = level === 'WriteSerializable' && !changesMetadata && blind ? [] : winAdds;
    const seen = txn.readWholeTable
      ? candidates
      : txn.readPredicate
        ? filesMatchingPredicate(candidates, txn.readPredicate)
        : [];
    if (seen.length > 0) return conflict('ConcurrentAppend', 'concurrentAppend', CONFLICT_MESSAGES.ConcurrentAppend, v);
  }

  // 4. Files this transaction read that the winner deleted (compaction's dataChange=false removes don't count).
  const dataRemoves = winRemoves.filter((r) => r.dataChange);
  if (dataRemoves.some((r) => txn.readFiles.has(r.path)) || (txn.readWholeTable && dataRemoves.length > 0)) {
    return conflict('ConcurrentDeleteRead', 'deleteRead', CONFLICT_MESSAGES.ConcurrentDeleteRead, v);
  }

  // 5. Files both deleted, whatever their dataChange.
  const ownRemoves = new Set<string>();
  for (const a of txn.actions) if ('remove' in a) ownRemoves.add(a.remove.path);
  if (winRemoves.some((r) => ownRemoves.has(r.path))) {
    return conflict('ConcurrentDeleteDelete', 'deleteDelete', CONFLICT_MESSAGES.ConcurrentDeleteDelete, v);
  }

  // 6. App transactions: the same appId in this commit's txn actions and the winner's, any version.
  for (const a of txn.actions) {
    if ('txn' in a && winAppIds.has(a.txn.appId)) {
      return conflict('ConcurrentTransaction', 'appTransaction', CONFLICT_MESSAGES.ConcurrentTransaction, v);
    }
  }
  return null;
}

/** Checks the winners in order; the first conflict ends it. */
export function checkConflicts(
  txn: TransactionReads,
  winners: readonly WinningCommit[],
  tableLevel: IsolationLevel,
): Conflict | null {
  for (const w of winners) {
    const c = checkWinner(txn, w, tableLevel);
    if (c) return c;
  }
  return null;
}
