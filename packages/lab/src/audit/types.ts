/**
 * A jobs manifest (shared/contracts/jobs-manifest.schema.json, extended): the jobs that write
 * shared tables, as a team describes them, and what the audit reports about them.
 */

export type JobOperation = 'append' | 'overwrite' | 'update' | 'delete' | 'merge' | 'optimize' | 'vacuum';
export type OnCommitFailed = 'fail' | 'retry-commit' | 'redo-whole-change';

export interface Job {
  name: string;
  /** Table location: a local path or s3://bucket/path (resolved like every location). */
  table: string;
  /** e.g. 'delta-rs 1.6.6', 'Delta Spark 3.2', 'Databricks' */
  engine: string;
  operation: JobOperation;
  predicate?: string;
  tableProperties?: Record<string, string>;
  commitProperties?: { maxCommitRetries?: number; isBlindAppend?: boolean; isolationLevel?: string };
  onCommitFailed?: OnCommitFailed;
  checksTableBeforeAppend?: boolean;
  schedule?: { cron?: string; maxDurationMinutes?: number };
  /** Keys starting with x- are kept and ignored. */
  extra?: Record<string, unknown>;
}

export interface Manifest {
  jobs: Job[];
}

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  /** Stable id of the rule, e.g. 'isolation-not-parsed'. */
  rule: string;
  severity: Severity;
  jobs: string[];
  table: string;
  /** What was seen, with the figures or text it rests on. */
  evidence: string;
  fix: string;
}
