/** What a writer process and the run that started it say to each other over the IPC channel. */
import type { WriterSpec } from '../cases/catalog';
import type { AttemptError } from '../results/types';
import type { SweepCommitRecord, SweepJob } from '../sweep/job';
import type { BarrierRef } from './pg-barrier';

export type WriterJob =
  | {
      engine: 'delta';
      /** The run's table: a folder, or s3://bucket/path. */
      table: string;
      writer: WriterSpec;
      /** The Parquet file of the rows the writer adds (a February day's, or its `from` file), for writers that add rows. */
      rowsFile?: string;
      /** Set when the race's barrier lives in Postgres (writers on several hosts) instead of IPC. */
      barrier?: BarrierRef;
    }
  | {
      engine: 'iceberg';
      /** The run's SQLite catalog file and the table's identifier in it. */
      catalog: string;
      table: string;
      writer: WriterSpec;
      rowsFile?: string;
    };

/** Any job a writer process takes: a race's writer, or one writer (or the compactor) of a sweep's point. */
export type ProcessJob = WriterJob | SweepJob;

export interface WriterOutcome {
  committed: boolean;
  version: number | null;
  readVersion: number | null;
  attempts: number;
  commitRetries: number | null;
  attemptErrors: AttemptError[];
  errorClass: string | null;
  errorMessage: string | null;
  warnings: string[];
  filesWritten: number;
  bytesWritten: number;
  filesRemoved?: number;
  filesAdded?: number;
  observed?: Record<string, number>;
  /** The writer process's peak resident memory, MB. */
  peakRssMb?: number;
}

/** Times are epoch milliseconds; the run makes them relative to its start. */
export type FromWriter =
  | { type: 'ready'; opened: number; prepared: number }
  | { type: 'committed'; version: number | null }
  | { type: 'done'; released: number; finished: number; outcome: WriterOutcome };

/** A sweep writer's messages: ready at the barrier, each commit as it ends (acknowledged or failed), its end. */
export type FromSweepWriter =
  | Extract<FromWriter, { type: 'ready' }>
  | { type: 'sweep-commit'; record: SweepCommitRecord }
  | { type: 'sweep-done'; released: number; finished: number };

/** `job` reaches a process started ahead of its race (a warm writer); `go` is the barrier's release. */
export type ToWriter = { type: 'job'; job: ProcessJob } | { type: 'go' };
