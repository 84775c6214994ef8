/**
 * A model of Delta Spark's conflict checker (delta-io/delta v4.4.0 = 88c008d, `ConflictChecker`,
 * `OptimisticTransaction`, `TransactionHelper`), beside delta-rs's in `conflict-checker.ts`. The
 * rules are ported, not the code. Where Spark differs from delta-rs:
 * - the isolation level comes from the *current* transaction: its own metadata, case-insensitive,
 *   an unparseable value fails every commit; the downgrade to SnapshotIsolation is decided once,
 *   on the current transaction's actions;
 * - the order: protocol, metadata, domain metadata, app ids read, added files, deleted files read,
 *   deleted files deleted;
 * - a blind append never fails the added-files check and reads no file; on an unpartitioned table
 *   (or after `readWholeTable`) any candidate add conflicts; on a partitioned one only the partition
 *   part of the read predicates counts, never file stats;
 * - every winning remove counts against the files read, whatever its dataChange;
 * - each check throws its own exception class (`spark-errors.ts`).
 * Measured against the real Delta Spark 4.4.0 (Spark 4.2.0) on the lab's B, C and I cases by the lab's Spark
 * comparison (simulation/spark-measured.ts, docs/fidelity.md); the Databricks reading stays a model. Pure.
 */

import type { Action, Add, CommitInfo, Metadata, Protocol } from '../delta/protocol/actions';
import { canMatch, type Expr } from '../sql/index';
import type { ConflictCheck, ConflictKind, WinningCommit } from './conflict-checker';
import { ISOLATION_LEVEL_KEY, type IsolationLevel, readIsolationLevel } from './isolation';
import {
  type SparkError,
  sparkCommitConflictError,
  sparkDomainConflictError,
  sparkFileConflictError,
  sparkInvalidIsolationLevelError,
} from './spark-errors';
import { protocolConflicts, protocolFeatures, resolveWinningMetadata } from './spark-table-changes';

/** A file a scan returned: its path, and its partition values for the conflict message's hint. */
export type SparkReadFile = Pick<Add, 'path'> & { partitionValues?: Add['partitionValues'] | null };

/** What a Spark transaction records while it runs: the checker's whole view of it. */
export interface SparkTransaction {
  /** The read snapshot's protocol. */
  protocol: Protocol;
  /** The read snapshot's metadata: its partition columns, and the properties the level is read from. */
  metadata: Metadata;
  /**
   * One entry per scan: the conjuncts of its filter that name only partition columns, null when there
   * are none (TRUE). Data predicates are recorded by Spark too, but no check reads them.
   */
  readPredicates: readonly (Expr | null)[];
  /** The files the scans returned, after partition pruning and stats skipping. */
  readFiles: readonly SparkReadFile[];
  /** Set by `readWholeTable()`: a streaming sink reading its own table, SYNC IDENTITY, skipping off. */
  readWholeTable: boolean;
  /** App ids this transaction read with `txnVersion` (streaming sinks, idempotent writes); not those it writes. */
  readAppIds: readonly string[];
  /** The actions it commits, without its own commitInfo. */
  actions: readonly Action[];
  /** Spark's operation name (`WRITE`, `UPDATE`, `DELETE`, `MERGE`, `OPTIMIZE`, …). */
  operation: string;
  /** Spark's `Operation.changesData`: false for OPTIMIZE and metadata-only operations. */
  operationChangesData: boolean;
}

export type SparkConflictKind = ConflictKind | 'InvalidIsolationLevel';
export type SparkConflictCheck = ConflictCheck | 'domainMetadata' | 'isolationLevel';

export interface SparkConflict extends SparkError {
  kind: SparkConflictKind;
  check: SparkConflictCheck;
  /** null when the commit fails before meeting any winner (an unparseable isolation level). */
  winnerVersion: number | null;
}

/** The table's level as Spark reads it, or the value that makes every Spark commit fail. */
export type SparkIsolation = { level: IsolationLevel } | { invalid: string | null };

/**
 * `delta.isolationLevel` as Spark reads it at commit: the exact key; the value compared without case
 * (no trimming) with the three level names. Unset is `whenUnset`: Serializable on Delta Spark,
 * WriteSerializable on Databricks. A key present with any other value, null included, is invalid.
 */
export function sparkIsolationLevel(
  configuration: Readonly<Record<string, string | null | undefined>>,
  whenUnset: IsolationLevel = 'Serializable',
): SparkIsolation {
  if (!Object.hasOwn(configuration, ISOLATION_LEVEL_KEY) || configuration[ISOLATION_LEVEL_KEY] === undefined) {
    return { level: whenUnset };
  }
  const value = configuration[ISOLATION_LEVEL_KEY] ?? null;
  // One parser: Delta Spark's reading in isolation.ts, the one /isolation and the audit show.
  const level = value === null ? null : readIsolationLevel(value, 'delta-spark').effective;
  return level ? { level } : { invalid: value };
}

const isFileAction = (a: Action) => 'add' in a || 'remove' in a || 'cdc' in a;
const ROW_TRACKING_DOMAIN = 'delta.rowTracking';
const domainOf = (a: Action) => ('domainMetadata' in a ? String(a.domainMetadata.domain) : null);

/** Spark's `isBlindAppend`: the transaction read nothing, and every file it commits is an add. */
export function sparkIsBlindAppend(txn: SparkTransaction): boolean {
  const read = txn.readPredicates.length > 0 || txn.readFiles.length > 0 || txn.readWholeTable;
  return !read && txn.actions.filter(isFileAction).every((a) => 'add' in a);
}

/**
 * The level this commit is checked at, decided once on the current transaction's own actions:
 * no data-changing file action (a CDC file never changes data) and nothing but file actions and
 * row-tracking domain metadata lets Serializable fall to SnapshotIsolation; WriteSerializable
 * only when the operation does not change data either. So OPTIMIZE and empty commits run at
 * SnapshotIsolation.
 */
export function sparkCommitIsolationLevel(txn: SparkTransaction, tableLevel: IsolationLevel): IsolationLevel {
  let dataChanged = false;
  for (const a of txn.actions) {
    if ('commitInfo' in a) continue;
    if ('add' in a) dataChanged ||= a.add.dataChange;
    else if ('remove' in a) dataChanged ||= a.remove.dataChange;
    else if (!('cdc' in a) && domainOf(a) !== ROW_TRACKING_DOMAIN) return tableLevel;
  }
  if (tableLevel === 'Serializable' && !dataChanged) return 'SnapshotIsolation';
  if (tableLevel === 'WriteSerializable' && !dataChanged && !txn.operationChangesData) return 'SnapshotIsolation';
  return tableLevel;
}

/** The metadata this transaction commits with: its own metaData action, else the read snapshot's. */
const ownMetadata = (txn: SparkTransaction) =>
  txn.actions.reduce<Metadata>((m, a) => ('metaData' in a ? a.metaData : m), txn.metadata);

/** `[col=value, …]` over the read snapshot's partition columns; null when unpartitioned or unknown. */
function partitionHint(partitionColumns: readonly string[], values: Add['partitionValues'] | null | undefined) {
  if (partitionColumns.length === 0 || !values || Object.keys(values).length === 0) return null;
  return `[${partitionColumns.map((c) => `${c}=${values[c] ?? 'null'}`).join(', ')}]`;
}

/** Does a winning add lie in a partition one of the read predicates selects? Missing values are null. */
function inReadPartitions(add: Add, predicates: readonly (Expr | null)[], partitionColumns: readonly string[]) {
  const partitionValues = { ...Object.fromEntries(partitionColumns.map((c) => [c, null])), ...add.partitionValues };
  return predicates.some((p) => p === null || canMatch(p, { partitionValues }));
}

export interface SparkCheckOptions {
  /** The level when `delta.isolationLevel` is unset (Serializable: Delta Spark; WriteSerializable: Databricks). */
  whenUnset?: IsolationLevel;
  /** How the engine reads the table's level; Delta Spark's reading (`sparkIsolationLevel`) unless given. */
  readLevel?: (configuration: Readonly<Record<string, string | null | undefined>>) => SparkIsolation;
  /** The table as messages name it; Spark prints the catalog name, else ``delta.`<path>` ``. */
  tableName?: string;
  /**
   * 'resolve' (Delta Spark): a supported protocol upgrade is adopted, identity-only and allow-listed
   * metadata updates pass. 'failAll' (the Databricks documentation): every winning protocol or
   * metaData fails the transaction.
   */
  tableChanges?: 'resolve' | 'failAll';
}

export const DEFAULT_SPARK_TABLE_NAME = 'delta.`<table path>`';

/**
 * Checks the winners in order, as Spark's commit does: the level is decided once, and each winner
 * is judged against the transaction as the previous winners left it (an adopted protocol or
 * metadata). The first conflict ends it; null when the commit goes through.
 */
export function checkSparkConflicts(
  txn: SparkTransaction,
  winners: readonly WinningCommit[],
  options: SparkCheckOptions = {},
): SparkConflict | null {
  const table = options.tableName ?? DEFAULT_SPARK_TABLE_NAME;
  const configuration = ownMetadata(txn).configuration;
  const isolation = options.readLevel?.(configuration) ?? sparkIsolationLevel(configuration, options.whenUnset);
  if ('invalid' in isolation) {
    return {
      kind: 'InvalidIsolationLevel',
      check: 'isolationLevel',
      winnerVersion: null,
      ...sparkInvalidIsolationLevelError(isolation.invalid),
    };
  }
  const level = sparkCommitIsolationLevel(txn, isolation.level);
  const blind = sparkIsBlindAppend(txn);
  const changesMetadata = txn.actions.some((a) => 'metaData' in a);
  const partitionColumns = txn.metadata.partitionColumns;
  const readFiles = new Map(txn.readFiles.map((f) => [f.path, f.partitionValues]));
  const ownRemoves = new Map<string, Add['partitionValues'] | null | undefined>();
  for (const a of txn.actions) if ('remove' in a) ownRemoves.set(a.remove.path, a.remove.partitionValues);
  const ownDomains = new Set(txn.actions.map(domainOf).filter((d) => d !== null && d !== ROW_TRACKING_DOMAIN));
  let protocol = txn.protocol;
  let metadata = txn.metadata;

  for (const winner of winners) {
    let commitInfo: CommitInfo | undefined;
    let winProtocol: Protocol | undefined;
    let winMetadata: Metadata | undefined;
    const adds: Add[] = [];
    const removes: string[] = [];
    const winDomains = new Set<string>();
    const appIds = new Set<string>();
    for (const a of winner.actions) {
      if ('commitInfo' in a) commitInfo ??= a.commitInfo;
      else if ('protocol' in a) winProtocol ??= a.protocol;
      else if ('metaData' in a) winMetadata ??= a.metaData;
      else if ('add' in a) adds.push(a.add);
      else if ('remove' in a) removes.push(a.remove.path);
      else if ('txn' in a) appIds.add(a.txn.appId);
      else if ('domainMetadata' in a) winDomains.add(String(a.domainMetadata.domain));
    }
    const w = { version: winner.version, commitInfo };
    const fail = (kind: SparkConflictKind, check: SparkConflictCheck, error: SparkError): SparkConflict => ({
      kind,
      check,
      winnerVersion: winner.version,
      ...error,
    });
    const commitConflict = (
      kind: 'MetadataChanged' | 'ProtocolChanged' | 'ConcurrentTransaction',
      check: ConflictCheck,
    ) => fail(kind, check, sparkCommitConflictError(kind, w, table));

    // 1. Protocol: a supported upgrade that drops no feature is adopted (its own support is not modelled).
    if (winProtocol) {
      if (options.tableChanges === 'failAll' || protocolConflicts(txn.actions, txn.protocol, winProtocol)) {
        return commitConflict('ProtocolChanged', 'protocol');
      }
      protocol = winProtocol;
    }
    // 2. Metadata.
    if (winMetadata) {
      const verdict =
        options.tableChanges === 'failAll'
          ? 'conflict'
          : resolveWinningMetadata(changesMetadata, metadata, winMetadata, commitInfo, protocolFeatures(protocol));
      if (verdict === 'conflict') return commitConflict('MetadataChanged', 'metadata');
      if (verdict === 'adopted') metadata = winMetadata;
    }
    // 3. Domain metadata, when the protocol supports it; row tracking's own domain is merged instead.
    if (protocolFeatures(protocol).has('domainMetadata')) {
      const clash = [...ownDomains].find((d) => d !== null && winDomains.has(d));
      if (clash) return fail('ConcurrentTransaction', 'domainMetadata', sparkDomainConflictError(clash));
    }
    // 4. App ids this transaction read.
    if (txn.readAppIds.some((id) => appIds.has(id))) return commitConflict('ConcurrentTransaction', 'appTransaction');

    // 5. Added files this transaction should have read. The winner's blind appends are left out
    // only under WriteSerializable, and only when it says so: delta-rs never writes isBlindAppend.
    const winnerBlind = commitInfo?.isBlindAppend === true;
    const candidates =
      level === 'SnapshotIsolation' || (level === 'WriteSerializable' && !changesMetadata && winnerBlind) ? [] : adds;
    const seen = blind
      ? undefined
      : txn.readWholeTable || partitionColumns.length === 0
        ? candidates[0]
        : candidates.find((add) => inReadPartitions(add, txn.readPredicates, partitionColumns));
    if (seen) {
      const hint = partitionHint(partitionColumns, seen.partitionValues);
      return fail('ConcurrentAppend', 'concurrentAppend', sparkFileConflictError('ConcurrentAppend', w, table, hint));
    }
    // 6. Files this transaction read that the winner removed, compaction's dataChange=false removes too.
    const removedRead = removes.find((path) => readFiles.has(path));
    if (removedRead !== undefined || (txn.readWholeTable && removes.length > 0)) {
      const hint = removedRead === undefined ? null : partitionHint(partitionColumns, readFiles.get(removedRead));
      return fail('ConcurrentDeleteRead', 'deleteRead', sparkFileConflictError('ConcurrentDeleteRead', w, table, hint));
    }
    // 7. Files both remove.
    const removedTwice = removes.find((path) => ownRemoves.has(path));
    if (removedTwice !== undefined) {
      const hint = partitionHint(partitionColumns, ownRemoves.get(removedTwice));
      return fail(
        'ConcurrentDeleteDelete',
        'deleteDelete',
        sparkFileConflictError('ConcurrentDeleteDelete', w, table, hint),
      );
    }
  }
  return null;
}

/** One winning commit against the transaction; null when it does not conflict. */
export function checkSparkWinner(
  txn: SparkTransaction,
  winner: WinningCommit,
  options: SparkCheckOptions = {},
): SparkConflict | null {
  return checkSparkConflicts(txn, [winner], options);
}
