/**
 * One writer's change on a table it has open, as a prepared commit: the engine's operations with
 * the lab's parameters. Nothing here knows which case it serves.
 */

import { plural } from '@racelab/contracts';
import {
  type CommitOptions,
  type DataSource,
  type DeltaTable,
  type PreparedOperation,
  prepareDelete,
  prepareOptimize,
  prepareUpdate,
  prepareWrite,
} from '@racelab/engine';
import type { FebDay, WriterOperation } from './catalog';

export const dayPredicate = (day: string) => `CAST(tpep_pickup_datetime AS DATE) = DATE '${day}'`;

/**
 * The one Parquet file a writer's new rows come from: a lab February day's file, or the file its `from`
 * names (a `sample` is written to a file once per race before anything runs, so none is left here).
 */
export function rowsFileOf(op: WriterOperation, dayFile?: (day: FebDay) => string): string | undefined {
  if ('day' in op) return dayFile?.(op.day);
  if (!('from' in op)) return undefined;
  if (!('file' in op.from))
    throw new Error(`a sample of ${plural(op.from.sample, 'row')} must be written to a file before the race`);
  return op.from.file;
}

/**
 * What a check-then-append counts before it writes: the rows of its day (kept under the day, as the lesson's
 * E1 reports them) or the rows matching its predicate (kept under the predicate).
 */
export function checkOf(op: WriterOperation): { key: string; predicate: string } | null {
  if (op.kind !== 'check-then-append') return null;
  return 'day' in op
    ? { key: op.day, predicate: dayPredicate(op.day) }
    : { key: op.predicate, predicate: op.predicate };
}

export interface PreparedChange {
  operation: string;
  prepared: PreparedOperation | null;
}

/**
 * `rowsFile`: the Parquet file the writer's new rows come from (rowsFileOf). `observed` is what a
 * check-then-append job saw before the barrier (rows already matching its check, under checkOf's key).
 */
export async function prepareChange(
  table: DeltaTable,
  op: WriterOperation,
  options: CommitOptions,
  rowsFile: string | undefined,
  observed: Record<string, number>,
): Promise<PreparedChange> {
  const rows = (): DataSource => {
    if (!rowsFile) throw new Error(`${op.kind} needs a file of rows`);
    return { kind: 'parquet', paths: [rowsFile] };
  };
  switch (op.kind) {
    case 'command':
      throw new Error("a command writer's change is its own job's: it runs as a process (runner/job-command.ts)");
    case 'append': {
      const meta = op.blind ? { ...options.customMetadata, isBlindAppend: true } : options.customMetadata;
      return {
        operation: 'append',
        prepared: await prepareWrite(table, rows(), {
          ...options,
          mode: 'append',
          ...(meta && { customMetadata: meta }),
        }),
      };
    }
    case 'update':
      return {
        operation: 'update',
        prepared: await prepareUpdate(table, { predicate: op.predicate, set: op.set }, options),
      };
    case 'delete':
      return { operation: 'delete', prepared: await prepareDelete(table, op.predicate, options) };
    case 'optimize':
      return { operation: 'optimize', prepared: await prepareOptimize(table, options) };
    case 'check-then-append':
      // The job's own check, outside any transaction: the count it made before the barrier.
      return {
        operation: 'check-then-append',
        prepared:
          (observed[checkOf(op)?.key ?? ''] ?? 0) > 0
            ? null
            : await prepareWrite(table, rows(), { ...options, mode: 'append' }),
      };
    case 'overwrite-day':
    case 'overwrite': {
      const predicate = op.kind === 'overwrite' ? op.predicate : dayPredicate(op.day);
      return {
        operation: 'overwrite',
        prepared: await prepareWrite(table, rows(), { ...options, mode: 'overwrite', predicate }),
      };
    }
  }
}
