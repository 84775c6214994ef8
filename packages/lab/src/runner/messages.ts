/**
 * What a writer process and the run that started it say to each other, over Node IPC or as JSON lines on fd 3
 * (transport.ts): the same objects either way.
 */

import type { WriterRun } from '@racelab/contracts';
import type { TableFormatId, WriterSpec } from '../cases/catalog';
import type { AttemptError } from '../results/types';
import type { BarrierRef } from './pg-barrier';

/** One writer of a race, as its writer process is given it. */
export interface WriterJob {
  kind: 'race';
  /** The case's table format, whose writer runs the job (see formats/registry.ts). */
  format: TableFormatId;
  /** The run's table: a folder or s3://bucket/path, or (in a catalog) the table's identifier. */
  table: string;
  /** The catalog file the table is registered in, for a format whose tables live in one. */
  catalog?: string;
  writer: WriterSpec;
  /** The Parquet file of the rows the writer adds (a February day's, or its `from` file), for writers that add rows. */
  rowsFile?: string;
  /** Set when the race's barrier lives in Postgres (writers on several hosts) instead of IPC. */
  barrier?: BarrierRef;
}

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
  /** A real library's writer says which library ran the change; the race names the emulated ones. */
  library?: string;
  libraryVersion?: string;
  run?: WriterRun;
}

/** Times are epoch milliseconds; the run makes them relative to its start. */
export type FromWriter =
  | { type: 'ready'; opened: number; prepared: number }
  | { type: 'committed'; version: number | null }
  | { type: 'done'; released: number; finished: number; outcome: WriterOutcome };

/** How a writer tells its run what it did: over IPC, or as rows of a barrier in Postgres. */
export type Send = (msg: FromWriter) => Promise<void>;

/**
 * `job` reaches a process started ahead of its race (a warm writer): a race's writer, or one of a sweep's (see
 * processes/writer-process.ts); `go` is the barrier's release.
 */
export type ToWriter<J = unknown> = { type: 'job'; job: J } | { type: 'go' };
