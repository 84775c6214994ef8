/**
 * An operation whose data files are written and whose commit is ready: `commit()` claims the
 * version. Tests and the lab open two at the same version and commit them in a chosen order.
 */
import type { CommitResult } from '../commit/commit';
import type { AttemptFailure, Transaction } from '../commit/transaction';

export interface OperationSummary {
  filesAdded: number;
  filesRemoved: number;
  /** Rows in the files this commit adds. */
  rowsWritten: number;
  bytesWritten: number;
}

export interface OperationResult extends CommitResult, OperationSummary {}

export interface CommitHooks {
  onAttemptFailed?: (f: AttemptFailure) => void;
}

export class PreparedOperation {
  constructor(
    readonly summary: OperationSummary,
    /** The transaction, or null when the operation creates the table. */
    readonly transaction: Transaction | null,
    private readonly run: (hooks: CommitHooks) => Promise<CommitResult>,
  ) {}

  static of(transaction: Transaction, summary: OperationSummary): PreparedOperation {
    return new PreparedOperation(summary, transaction, (hooks) => transaction.commit(hooks));
  }

  async commit(hooks: CommitHooks = {}): Promise<OperationResult> {
    return { ...(await this.run(hooks)), ...this.summary };
  }
}

/** Commits a prepared operation, or returns null when there was nothing to commit. */
export async function commitPrepared(
  p: PreparedOperation | null,
  hooks?: CommitHooks,
): Promise<OperationResult | null> {
  return p ? p.commit(hooks) : null;
}
