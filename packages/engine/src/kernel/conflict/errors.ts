/**
 * The errors a commit can end in, with delta-rs 1.6.x's exact texts. The Python class name
 * `CommitFailedError` is kept: the lab compares these messages byte for byte with the lesson.
 */

import type { Conflict, ConflictKind } from './conflict-checker';

export type CommitFailureKind = ConflictKind | 'MaxCommitAttempts' | 'AppendOnly' | 'VersionAlreadyExists';

export class CommitFailedError extends Error {
  override name = 'CommitFailedError';
  constructor(
    readonly kind: CommitFailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** `TransactionError::CommitConflict`: the conflict's text behind delta-rs's prefix. */
export function conflictError(c: Conflict): CommitFailedError {
  return new CommitFailedError(c.kind, `Failed to commit transaction: ${c.message}`);
}

/** `TransactionError::MaxCommitAttempts`: the text carries the configured retry count. */
export function maxCommitAttempts(maxRetries: number): CommitFailedError {
  return new CommitFailedError('MaxCommitAttempts', `Failed to commit transaction: ${maxRetries}`);
}

export function appendOnlyViolation(): CommitFailedError {
  return new CommitFailedError(
    'AppendOnly',
    'The transaction includes Remove action with data change but Delta table is append-only',
  );
}

/** A table created concurrently: delta-rs maps VersionAlreadyExists(0) to this text. */
export function tableAlreadyCreated(): CommitFailedError {
  return new CommitFailedError('VersionAlreadyExists', 'Delta transaction failed, version 0 already exists.');
}
