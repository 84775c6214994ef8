/**
 * A jobs manifest (contracts/jobs-manifest.schema.json): the jobs that write shared tables, as a
 * team describes them, and what the audit reports about them.
 */

// A job and a manifest are what the contract's schema accepts (@racelab/contracts).
export type { Job, JobOperation, Manifest, OnCommitFailed } from '@racelab/contracts';

import type { RetryPolicy } from '@racelab/contracts';

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
  /** The contention findings' fix as numbers: the smallest policy whose forecast clears the finding. */
  fixPolicy?: RetryPolicy;
  /** The contention findings' forecast: the largest share of a named job's commits failing after all retries. */
  exhaustion?: number;
}
