/**
 * The writers that failed: how many rows their change would have touched, and whether those rows are as
 * a serial result without them leaves them (true: nothing of the failed change leaked in). When the raced
 * table equals a serial result of the committed writers, nothing can have leaked; otherwise the rows in
 * the writer's scope are compared, over the files the two tables do not share.
 */
import { agree } from '@racelab/contracts';
import type { WriterOperation, WriterSpec } from '../cases/catalog';
import { dayPredicate } from '../cases/operations';
import type { FailedWriterCheck } from '../results/types';
import { countRows, parquetRows } from './compare';
import { describePredicate, failedWords, operationWord, rows, thousands } from './summary-text';

/** The raced table and the serial result a run's failed writers are checked against. */
export interface ComparedTables {
  /** The raced table's rows matching a predicate (all of them without one). */
  racedCount(predicate?: string): Promise<number>;
  /** Whether the two tables' rows matching a predicate (all of them without one) are the same. */
  equal(predicate?: string): Promise<boolean>;
}

export async function checkFailedWriters(
  failed: WriterSpec[],
  tables: ComparedTables,
  tablesEqual: boolean,
  rowsFile: (op: WriterOperation) => string | undefined,
): Promise<FailedWriterCheck[]> {
  const out: FailedWriterCheck[] = [];
  for (const w of failed) {
    const op = w.operation;
    // The rows the change is about: its predicate's, its day's, or (a compaction, a job) the whole table's.
    const scope = 'predicate' in op ? op.predicate : 'day' in op ? dayPredicate(op.day) : undefined;
    const isAppend = op.kind === 'append' || op.kind === 'check-then-append';
    const file = rowsFile(op);
    const rowsTouched = isAppend && file ? await countRows(parquetRows([file], file)) : await tables.racedCount(scope);
    // A lab day's rows are that day's trips; any other table's are rows (matching the overwrite's predicate).
    const added =
      'day' in op ? `${thousands(rowsTouched)} ${op.day} ${agree(rowsTouched, 'trip', 'trips')}` : rows(rowsTouched);
    const scopeWords =
      'day' in op ? `the ${op.day} trips` : scope !== undefined ? `rows matching ${scope}` : "the table's rows";
    const untouched = tablesEqual || (await tables.equal(scope));
    const what = failedWords(w.name, operationWord(op));
    const detail = (() => {
      switch (op.kind) {
        case 'delete':
          return untouched
            ? `its ${describePredicate(op.predicate).rows(rowsTouched)} ${agree(rowsTouched, 'is', 'are')} still there`
            : `yet rows matching ${op.predicate} differ from a serial result without it`;
        case 'update':
          return untouched
            ? `its ${describePredicate(op.predicate).rows(rowsTouched)} ${agree(rowsTouched, 'keeps its value', 'keep their values')}`
            : `yet rows matching ${op.predicate} differ from a serial result without it`;
        // A job's change is its code's: the whole table is its scope.
        case 'command':
        case 'optimize':
          return untouched
            ? `the table's ${rows(rowsTouched)} ${agree(rowsTouched, 'is', 'are')} as the other writers left them`
            : 'yet the table differs from a serial result without it';
        default:
          if (isAppend) {
            return untouched
              ? `its ${added} ${agree(rowsTouched, 'is', 'are')} not in the table`
              : `yet ${scopeWords} differ from a serial result without it`;
          }
          if (!untouched) return `yet ${scopeWords} differ from a serial result without it`;
          return 'day' in op
            ? `its ${added} left the day as it was`
            : `its ${describePredicate(scope ?? 'true').rows(rowsTouched)} ${agree(rowsTouched, 'is as it was', 'are as they were')}`;
      }
    })();
    out.push({ name: w.name, rowsTouched, untouched, summary: `${what}${untouched ? ': ' : ', '}${detail}` });
  }
  return out;
}
