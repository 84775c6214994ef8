/** The exact texts the lesson's writers caught (delta-rs 1.6.6, pyiceberg 0.12.0, Postgres 18), byte for byte. */

export const COMMIT_FAILED = 'CommitFailedError';

export const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

export const DELETED_READ =
  "Failed to commit transaction: Commit failed: a concurrent transaction deleted data this operation read.\nHelp: This transaction's query must be rerun to exclude the removed data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

/** delta-rs with max_commit_retries = 0: the 0 is the number of retries allowed. */
export const NO_RETRIES = 'Failed to commit transaction: 0';

export const ICEBERG_COMMIT_FAILED = 'CommitFailedException';
export const ICEBERG_BRANCH_CHANGED = 'Requirement failed: branch main has changed: expected id';
export const ICEBERG_RETRY_WARNING = 'Commit failed due to a concurrent update, retrying';

export const PG_SERIALIZE = 'could not serialize access due to concurrent update';

/**
 * The G cases' lost answer that reaches the writer (this engine's LostAnswerStore; a Python application on S3
 * would catch an OSError from object_store instead).
 */
export const ANSWER_LOST = 'AnswerLostError';
