/**
 * One writer's change on a table it has open, as a prepared commit: the engine's operations with
 * the lab's parameters. Nothing here knows which case it serves.
 */
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
import type { WriterOperation } from '../cases/catalog';

export const dayPredicate = (day: string) => `CAST(tpep_pickup_datetime AS DATE) = DATE '${day}'`;

export interface PreparedChange {
  operation: string;
  prepared: PreparedOperation | null;
}

/** `observed` is what a check-then-append job saw before the barrier (trips already on its day). */
export async function prepareChange(
  table: DeltaTable,
  op: WriterOperation,
  options: CommitOptions,
  dayFile: string | undefined,
  observed: Record<string, number>,
): Promise<PreparedChange> {
  const day = (): DataSource => {
    if (!dayFile) throw new Error(`${op.kind} needs a day file`);
    return { kind: 'parquet', paths: [dayFile] };
  };
  switch (op.kind) {
    case 'append': {
      const meta = op.blind ? { ...options.customMetadata, isBlindAppend: true } : options.customMetadata;
      return {
        operation: 'append',
        prepared: await prepareWrite(table, day(), {
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
        prepared: (observed[op.day] ?? 0) > 0 ? null : await prepareWrite(table, day(), { ...options, mode: 'append' }),
      };
    case 'overwrite-day':
      return {
        operation: 'overwrite',
        prepared: await prepareWrite(table, day(), { ...options, mode: 'overwrite', predicate: dayPredicate(op.day) }),
      };
  }
}
