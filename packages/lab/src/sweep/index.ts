/** Sweeps: many writers, contention curves under a retry policy. */
export { checkPoint, type PointChecks } from './checks';
export type { SweepCommitRecord, SweepJob } from './job';
export { sweepTable } from './report';
export {
  pointJobs,
  runSweep,
  SweepInputError,
  type SweepOptions,
  type SweepProgress,
  type SweepProgressKind,
} from './run';
