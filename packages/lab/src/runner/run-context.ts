/** What every run of a case needs, whatever the table format, and the folder a run works in. */
import type { LazyDataset } from '../data/index';
import type { VerdictMemo } from '../oracle/memo';
import { under } from '../tables/table-store';
import type { AcrossHosts } from './across-hosts';
import type { WriterEvent, WriterHosting } from './race';
import type { WriterCommand } from './transport';
import type { WriterPool } from './writer-pool';

export interface RunContext {
  /** Prepared by the first run that takes rows from the lab's days or checks a lab table. */
  dataset: LazyDataset;
  workDir: string;
  /** Keep the run's table folder afterwards (for inspection). */
  keep?: boolean;
  /** Called when any writer does something, for progress displays. */
  onEvent?: (writer: string, event: WriterEvent) => void;
  /** Cancels the run: its writer processes are killed (see race()). */
  signal?: AbortSignal;
  /** Where run tables are made: an s3:// prefix, or the work folder when unset. */
  tableRoot?: string;
  /** Run the writers on other hosts, with the barrier in Postgres (needs a table root they all reach). */
  acrossHosts?: AcrossHosts;
  /** Writer processes started ahead of their race (see writer-pool.ts); absent: each race starts its own. */
  pool?: WriterPool;
  /** LAB_ROOTS: where a user's table may keep deletion vectors at absolute paths (see copy-refusals.ts). */
  roots?: readonly string[];
  /** The case's serial results, kept across its runs (see oracle/memo.ts). */
  memo?: VerdictMemo;
  /** The writers run as this program (a real library's writer, over fd 3) instead of the lab's own processes. */
  command?: WriterCommand;
  /** The writers are threads of one shared host process (the Spark host), instead of a process each. */
  host?: WriterHosting;
  /** Writers still running this long after their start are stopped by process group and fail (WriterTimedOut). */
  timeoutMs?: number;
}

/** A new folder for one run of a case. */
export const runDir = (ctx: RunContext, caseId: string, index: number) =>
  under(ctx.tableRoot ?? ctx.workDir, 'runs', `${caseId}-${index}-${process.pid}-${Date.now()}`);
