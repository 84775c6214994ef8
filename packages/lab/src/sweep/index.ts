/** Sweeps: many writers, contention curves under a retry policy. */
export { checkPoint, type PointChecks } from './checks';
export { COMPARISON_COLUMNS, comparisonCells, comparisonTable, type PolicyRun } from './compare';
export type { SweepCommitRecord, SweepJob } from './job';
export { BACKOFF_JITTER, POLICY_SPELLINGS, policySpelling, spelledPolicy } from './policy';
export { sweepTable } from './report';
export {
  pointJobs,
  runSweep,
  SweepInputError,
  type SweepOptions,
  type SweepProgress,
  type SweepProgressKind,
} from './run';
