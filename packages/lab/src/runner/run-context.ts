/** What every run of a case needs, whatever the table format, and the folder a run works in. */
import { join } from 'node:path';
import type { Dataset } from '../data/index';
import type { WriterEvent } from './race';

export interface RunContext {
  dataset: Dataset;
  workDir: string;
  /** Keep the run's table folder afterwards (for inspection). */
  keep?: boolean;
  /** Called when any writer does something, for progress displays. */
  onEvent?: (writer: string, event: WriterEvent) => void;
  /** Cancels the run: its writer processes are killed (see race()). */
  signal?: AbortSignal;
}

/** A new folder for one run of a case. */
export const runDir = (ctx: RunContext, caseId: string, index: number) =>
  join(ctx.workDir, 'runs', `${caseId}-${index}-${process.pid}-${Date.now()}`);
