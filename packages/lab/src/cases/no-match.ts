/**
 * Before a race starts: the writers whose change is chosen by a predicate (a delete, an update) and whose
 * predicate matches no row of the table as it is now. Such a writer will end with nothing to commit, no
 * failure; a person who meant it to change rows hears so when submitting, not after the race. The engine parses
 * each predicate and counts its rows (DeltaTable.count, the scan a writer itself makes).
 */
import type { DeltaTable } from '@racelab/engine';
import type { WriterSpec } from './catalog';

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
