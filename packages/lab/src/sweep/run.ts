/**
 * A sweep: for each N, a fresh table, N writer processes (plus compaction's compactor) released together, each
 * making K commits under one retry policy; then the point's figures and table checks, and at the end the forecast.
 */
import { mkdir, rm } from 'node:fs/promises';
import { cpus, platform } from 'node:os';
import { join } from 'node:path';
import {
  checkSweepInput,
  type StartSweepInput,
  type SweepInput,
  type SweepPoint,
  type SweepResults,
  sweepCommits,
} from '@racelab/contracts';
import { forecastSweep, isS3Url } from '@racelab/engine';
import { namedRoots } from '../results/safe-message';
import { keptMessage, RaceCancelledError } from '../runner/race';
import type { WriterPool } from '../runner/writer-pool';
import { removeTable, under } from '../tables/table-store';
import { compactorFigures, pointFigures } from './figures';
import { sweepFormatOf } from './formats';
import type { SweepCommitRecord, SweepJob } from './job';
import { racePoint } from './point';
import { writeDayFile } from './table';

export type SweepProgressKind = 'point-start' | 'commit' | 'point-done';

/** `done` and `total` count commits over the whole sweep (the compactor's included). */
export interface SweepProgress {
  kind: SweepProgressKind;
  writers: number;
  done: number;
  total: number;
}

export interface SweepOptions {
  /** An s3:// prefix for the points' tables; the work folder when unset. */
  tableRoot?: string;
  /** The lab's work folder: local tables, and append-day's day file. */
  workDir: string;
  onProgress?: (p: SweepProgress) => void;
  /** Aborting kills every writer process at once; runSweep then rejects with RaceCancelledError. */
  signal?: AbortSignal;
  /** Writer processes started ahead (see runner/writer-pool.ts); refilled after each point. */
  pool?: WriterPool;
  /** Keep each point's table afterwards (for inspection). */
  keepTables?: boolean;
}

export class SweepInputError extends Error {
  override name = 'SweepInputError';
  constructor(readonly problems: string[]) {
    super(`the sweep was refused: ${problems.join('; ')}`);
  }
}

/** The jobs of one point: N writers, and for compaction one compactor paced like them. */
export function pointJobs(input: SweepInput, writers: number, table: string, dayFile?: string): SweepJob[] {
  const { operation, commitsPerWriter: commits, policy, seed } = input;
  const base = {
    kind: 'sweep' as const,
    table,
    ...(input.tableFormat && { tableFormat: input.tableFormat }),
    writers,
    operation,
    commits,
    policy,
    seed,
  };
  const rate = operation === 'compaction' ? input.appendRatePerSec : undefined;
  const jobs: SweepJob[] = Array.from({ length: writers }, (_, index) => ({
    ...base,
    name: `w${index}`,
    index,
    ...(dayFile && { rowsFile: dayFile }),
    ...(rate && { ratePerSec: rate }),
  }));
  if (operation === 'compaction' && rate) jobs.push({ ...base, name: 'compactor', index: -1, ratePerSec: rate });
  return jobs;
}

/** Runs a sweep; the input is checked first (SweepInputError with every problem, before any work). */
export async function runSweep(given: StartSweepInput, opts: SweepOptions): Promise<SweepResults> {
  const checked = checkSweepInput(given);
  if (!checked.ok) throw new SweepInputError(checked.problems);
  const input = checked.value;
  if (opts.tableRoot !== undefined && !isS3Url(opts.tableRoot)) {
    throw new SweepInputError([`tableRoot must be an S3 location such as s3://bucket/lab, got '${opts.tableRoot}'`]);
  }
  const format = sweepFormatOf(input);
  if (opts.tableRoot !== undefined && !format.takesTableRoot) {
    throw new SweepInputError([`a ${input.tableFormat} sweep's tables are local: tableRoot is for Delta sweeps`]);
  }
  const startedAt = new Date().toISOString();
  const id = `${process.pid}-${Date.now()}`;
  const root = under(opts.tableRoot ?? opts.workDir, 'sweeps', id);
  const local = join(opts.workDir, 'sweeps', `${id}-files`);
  await mkdir(local, { recursive: true });
  const total = sweepCommits(input);
  let done = 0;
  const points: SweepPoint[] = [];
  try {
    let dayFile: string | undefined;
    if (input.operation === 'append-day') {
      dayFile = join(local, 'day.parquet');
      await writeDayFile(dayFile, input.seed);
    }
    for (const writers of input.writers) {
      opts.onProgress?.({ kind: 'point-start', writers, done, total });
      const table = under(root, `n${writers}`);
      await format.createTable(table, input, writers);
      try {
        const race = await racePoint(pointJobs(input, writers, table, dayFile), {
          ...(opts.pool && { pool: opts.pool }),
          ...(opts.signal && { signal: opts.signal }),
          onRecord: () => opts.onProgress?.({ kind: 'commit', writers, done: ++done, total }),
        });
        // The next point's processes load beside this point's checks.
        opts.pool?.fill();
        points.push(
          await pointOf(opts.workDir, input, writers, table, race.records, race.finished - race.released, dayFile),
        );
      } finally {
        if (!opts.keepTables) await removeTable(table);
      }
      // A cancel that came during the checks (the race itself stops at once) ends the sweep here, not done.
      if (opts.signal?.aborted) throw new RaceCancelledError();
      opts.onProgress?.({ kind: 'point-done', writers, done, total });
    }
  } finally {
    await rm(local, { recursive: true, force: true });
    // The points' tables are gone; their local folder goes with them (an S3 prefix is nothing to remove).
    if (!opts.tableRoot && !opts.keepTables) await rm(root, { recursive: true, force: true });
  }
  const results: Omit<SweepResults, 'forecast'> = {
    kind: 'racelab-sweep',
    formatVersion: 1,
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: { cores: cpus().length, platform: platform(), node: process.version },
    input,
    store: opts.tableRoot ? 's3' : 'local',
    points,
  };
  const { claimShare } = format;
  return { ...results, forecast: forecastSweep({ ...results, ...(claimShare !== undefined && { claimShare }) }) };
}

async function pointOf(
  workDir: string,
  input: SweepInput,
  writers: number,
  table: string,
  records: SweepCommitRecord[],
  durationMs: number,
  dayFile: string | undefined,
): Promise<SweepPoint> {
  // Results are stored and shown to clients: a message naming a server folder or carrying a stack is cut, as a
  // race's writer errors are (the engine's commit texts pass unchanged).
  const roots = namedRoots({ workDir });
  const kept = records.map((r) => (r.error === null ? r : { ...r, error: keptMessage(r.writer, r.error, roots) }));
  const appenders = kept.filter((r) => r.writer !== 'compactor');
  const compactor = kept.filter((r) => r.writer === 'compactor');
  const figures = pointFigures(writers, appenders, writers * input.commitsPerWriter, durationMs);
  // Every commit is checked, the compactor's too; its waste counts with the rest.
  const { checks, orphanFiles } = await sweepFormatOf(input).checkPoint(table, input.operation, writers, kept, dayFile);
  return {
    ...figures,
    wasted: {
      bytes: figures.wasted.bytes + compactor.reduce((s, r) => s + r.wastedBytes, 0),
      files: figures.wasted.files + compactor.reduce((s, r) => s + r.wastedFiles, 0),
      orphanFiles,
    },
    checks,
    ...(input.operation === 'compaction' && { compactor: compactorFigures(compactor) }),
  };
}
