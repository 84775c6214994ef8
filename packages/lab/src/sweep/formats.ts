/**
 * The table formats a sweep writes, one entry each, and the only place that names them: a point's table is made,
 * its writers run and its table checked by the entry of the input's `tableFormat` (Delta when absent).
 */
import { type SweepInput, type SweepOperation, type SweepTableFormat, sweepTableFormatOf } from '@racelab/contracts';
import { checkPoint, type PointChecks } from './checks';
import { checkIcebergPoint } from './iceberg-checks';
import { createIcebergSweepTable } from './iceberg-table';
import { runIcebergSweepJob } from './iceberg-writer';
import type { FromSweepWriter, SweepCommitRecord, SweepJob } from './job';
import { createSweepTable } from './table';
import { runDeltaSweepJob } from './writer';

export interface SweepFormat {
  /** Whether its points' tables may live under an S3 table root. */
  readonly takesTableRoot: boolean;
  /** The forecast's share of a local attempt between its read of the head and its claim (the engine's default: Delta's). */
  readonly claimShare?: number;
  /** Creates a point's fresh table at `location` (a folder, or an s3:// prefix). */
  createTable(location: string, input: SweepInput, writers: number): Promise<void>;
  /** The point's table checked against the writers' records after the race. */
  checkPoint(
    location: string,
    op: SweepOperation,
    writers: number,
    records: readonly SweepCommitRecord[],
    dayFile?: string,
  ): Promise<PointChecks>;
  /** In a writer process: opens the table, the barrier, the job's commits, each reported. */
  runJob(job: SweepJob, send: (msg: FromSweepWriter) => Promise<void>, go: () => Promise<void>): Promise<void>;
}

const FORMATS: Record<SweepTableFormat, SweepFormat> = {
  delta: {
    takesTableRoot: true,
    createTable: (location, input, writers) => createSweepTable(location, input.operation, writers),
    checkPoint,
    runJob: runDeltaSweepJob,
  },
  iceberg: {
    takesTableRoot: false,
    // An attempt refreshes the metadata, stages its manifests and metadata file, then swaps: all of it is the window.
    claimShare: 1,
    createTable: (location, input) => createIcebergSweepTable(location, input.policy),
    checkPoint: (location, op, _writers, records) => checkIcebergPoint(location, op, records),
    runJob: runIcebergSweepJob,
  },
};

/** The format a sweep's input names. */
export const sweepFormatOf = (input: Pick<SweepInput, 'tableFormat'>): SweepFormat =>
  FORMATS[sweepTableFormatOf(input)];

/** A sweep job in its writer process, run by its format. */
export const runSweepJob = (
  job: SweepJob,
  send: (msg: FromSweepWriter) => Promise<void>,
  go: () => Promise<void>,
): Promise<void> => sweepFormatOf(job).runJob(job, send, go);
