/**
 * Before a race starts: the writers whose change is chosen by a predicate (a delete, an update) and whose
 * predicate matches no row of the table as it is now. Such a writer will end with nothing to commit, no
 * failure; a person who meant it to change rows hears so when submitting, not after the race. The engine parses
 * each predicate and counts its rows (DeltaTable.count, the scan a writer itself makes).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DeltaTable } from '@racelab/engine';
import type { DataSourceKind } from '../results/types';
import { baseTablesDir } from '../tables/base-tables';
import type { DeltaCase, WriterSpec } from './catalog';

export async function noMatchWarnings(table: DeltaTable, writers: readonly WriterSpec[]): Promise<string[]> {
  const out: string[] = [];
  for (const w of writers) {
    const op = w.operation;
    if (op.kind !== 'delete' && op.kind !== 'update') continue;
    if ((await table.count(op.predicate)) > 0) continue;
    out.push(
      `writer ${w.name}: ${op.predicate} matches no rows of the table as it is now, so its ${op.kind} will end with nothing to commit`,
    );
  }
  return out;
}

/**
 * The same for a race on one of the lab's tables, counted on its base table at `scale` when a lab process under
 * `workDir` has built it already; nothing when none has (a submission never builds the data set: the race's
 * worker does). TLC data exists at scale 1 only, and where it does the lab races it.
 */
export async function labTableNoMatchWarnings(c: DeltaCase, workDir: string, scale: number): Promise<string[]> {
  if (typeof c.table !== 'string') return [];
  const sources: DataSourceKind[] = ['tlc', 'synthetic'];
  for (const source of sources) {
    const dir = baseTablesDir(workDir, { source, scale });
    if (!(await stat(join(dir, 'done.json')).catch(() => null))) continue;
    return noMatchWarnings(await DeltaTable.open(join(dir, c.table)), c.writers);
  }
  return [];
}
