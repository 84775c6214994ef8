/** What a sweep's writer process is given, and what it reports for each commit it makes (IPC, see runner/messages.ts). */
import type { RetryPolicy, SweepOperation, SweepTableFormat } from '@racelab/contracts';
import type { FromWriter } from '../runner/messages';

export interface SweepJob {
  kind: 'sweep';
  /** The point's table: a folder, or s3://bucket/path (Iceberg: the folder of its catalog and warehouse). */
  table: string;
  /** Absent: Delta. */
  tableFormat?: SweepTableFormat;
  /** `w<index>` for a writer, `compactor` for compaction's one compactor; commitInfo carries it. */
  name: string;
  /** The writer's index (its partition for update-disjoint); -1 for the compactor. */
  index: number;
  /** The point's N, which with the seed and the index seeds the writer's jitter. */
  writers: number;
  operation: SweepOperation;
  /** K: the commits this process makes. */
  commits: number;
  policy: RetryPolicy;
  seed: number;
  /** append-day: the day-sized Parquet file each commit appends. */
  rowsFile?: string;
  /** compaction: each commit's start is paced at this many per second from the release. */
  ratePerSec?: number;
}

/** One commit of one writer: its tries of the whole change, the engine's attempts in them, and its end. */
export interface SweepCommitRecord {
  writer: string;
  seq: number;
  acknowledged: boolean;
  /** The version the engine told the writer it committed at. */
  version: number | null;
  /** The table version the last try read (its commit's readVersion): whom it was concurrent with, from its side. */
  readVersion: number | null;
  tries: number;
  /** Claims of a version (won or lost) plus refusals before a claim, over every try. */
  attempts: number;
  /** Epoch ms: the first try's start, and the acknowledgement or final failure. */
  startedAt: number;
  endedAt: number;
  /** The final failure's exact message; null when acknowledged. */
  error: string | null;
  /** Data files (and their bytes) written by tries that lost: nothing references them. */
  wastedFiles: number;
  wastedBytes: number;
  /** Per try: reopening the table and preparing the change (read + write files). */
  prepareMs: number[];
  /** Per attempt: list latest, check winners, claim. */
  attemptMs: number[];
  /** The app loop's pauses before tries 2, 3, … */
  pauseMs: number[];
}

/** A sweep writer's messages: ready at the barrier, each commit as it ends (acknowledged or failed), its end. */
export type FromSweepWriter =
  | Extract<FromWriter, { type: 'ready' }>
  | { type: 'sweep-commit'; record: SweepCommitRecord }
  | { type: 'sweep-done'; released: number; finished: number };
