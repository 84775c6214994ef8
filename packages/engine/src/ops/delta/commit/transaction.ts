/**
 * One transaction: what it read (version, predicate, the files the predicate could see, whether it
 * read the whole table) and the actions it will commit. Operations build one in a prepare phase
 * (their data files are already written) and commit it later, so two can be opened at the same
 * version and committed in any order, as two racing jobs would.
 */

import { checkWinner, filesMatchingPredicate, type TransactionReads } from '../../../kernel/conflict/conflict-checker';
import { conflictError } from '../../../kernel/conflict/errors';
import { effectiveIsolationLevel } from '../../../kernel/conflict/isolation';
import type { Action, Add, Remove, Txn } from '../../../kernel/delta/protocol/actions';
import { checkpointInterval } from '../../../kernel/delta/protocol/config';
import { appendOnlyAtCommit, assertCanWrite } from '../../../kernel/delta/protocol/features';
import type { Expr } from '../../../kernel/sql/index';
import type { DeltaTable } from '../table';
import { type CommitResult, commit } from './commit';
import { buildCommitInfo } from './commit-info';

export interface CommitOptions {
  /** delta-rs `max_commit_retries`; default 15. */
  maxCommitRetries?: number;
  /** Flattened into commitInfo; reserved keys are promoted as delta-rs does (`isBlindAppend`…). */
  customMetadata?: Record<string, unknown>;
  /** `txn` actions written after every other action, as delta-rs writes them. */
  appTransactions?: Txn[];
  /** This engine's option, not delta-rs's: a taken version holding this commit's own bytes is its commit (commit.ts). */
  recogniseOwnCommit?: boolean;
}

export interface TransactionSpec {
  table: DeltaTable;
  operation: string;
  operationParameters: Record<string, unknown>;
  /** UPDATE, DELETE, MERGE and OPTIMIZE record the version they read in commitInfo. */
  recordReadVersion: boolean;
  readPredicate: Expr | null;
  readWholeTable?: boolean;
  /** delta-rs's `changes_data()`: false for OPTIMIZE and VACUUM. */
  changesData?: boolean;
  actions: Action[];
  operationMetrics?: Record<string, unknown>;
  options?: CommitOptions;
}

export interface AttemptFailure {
  attempt: number;
  /** The version this attempt tried to claim. */
  version: number;
}

export class Transaction {
  readonly reads: TransactionReads;

  constructor(readonly spec: TransactionSpec) {
    // Every commit passes here: nothing is committed to a table whose writer features the engine does not honour.
    assertCanWrite(spec.table.protocol, spec.table.location);
    const own = [...spec.actions, ...(spec.options?.appTransactions ?? []).map((txn) => ({ txn }))];
    this.reads = {
      readVersion: spec.table.version,
      protocol: spec.table.protocol,
      readPredicate: spec.readPredicate,
      readWholeTable: spec.readWholeTable ?? false,
      readFiles: new Set(filesMatchingPredicate(spec.table.activeFiles(), spec.readPredicate).map((f) => f.path)),
      actions: own,
      operation: spec.operation,
      operationChangesData: spec.changesData ?? true,
    };
  }

  get actions(): readonly Action[] {
    return this.reads.actions;
  }

  /**
   * Claims the next version. Winners that committed since the read are judged against this
   * transaction's reads under the table's `delta.isolationLevel`; a conflict or running out of
   * retries throws CommitFailedError with delta-rs's text.
   */
  async commit(hooks: { onAttemptFailed?: (f: AttemptFailure) => void } = {}): Promise<CommitResult> {
    const { table, options } = this.spec;
    const level = effectiveIsolationLevel(table.configuration);
    const info = buildCommitInfo({
      operation: this.spec.operation,
      operationParameters: this.spec.operationParameters,
      ...(this.spec.recordReadVersion && { readVersion: table.version }),
      ...(options?.customMetadata && { customMetadata: options.customMetadata }),
      ...(this.spec.operationMetrics && { operationMetrics: this.spec.operationMetrics }),
    });
    return commit({
      store: table.store,
      readVersion: table.version,
      readState: table.state,
      actions: [{ commitInfo: info }, ...this.reads.actions],
      ...(options?.maxCommitRetries !== undefined && { maxRetries: options.maxCommitRetries }),
      ...(options?.recogniseOwnCommit && { recogniseOwnCommit: true }),
      checkpointEvery: checkpointInterval(table.configuration),
      appendOnly: appendOnlyAtCommit(table.protocol, table.configuration),
      checkWinner: (winner) => {
        const c = checkWinner(this.reads, winner, level);
        if (c) throw conflictError(c);
      },
      ...(hooks.onAttemptFailed && {
        onAttemptFailed: (attempt: number, version: number) => hooks.onAttemptFailed?.({ attempt, version }),
      }),
    });
  }
}

/**
 * The remove action for a file a commit rewrites or drops, as delta-rs writes it: it carries the file's deletion
 * vector (`remove_action`, kernel/snapshot/iterators.rs L344-359), so the remove names exactly the rows it ends;
 * OPTIMIZE's (dataChange false) keeps the add's tags too (`create_remove`, operations/optimize.rs L505-523).
 */
export function removeFor(add: Add, deletionTimestamp: number, dataChange = true): Remove {
  return {
    path: add.path,
    dataChange,
    deletionTimestamp,
    extendedFileMetadata: true,
    partitionValues: add.partitionValues,
    size: add.size,
    ...(!dataChange && add.tags && { tags: add.tags }),
    ...(add.deletionVector && { deletionVector: add.deletionVector }),
  };
}
