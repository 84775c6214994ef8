/**
 * A failed writer's words: they name the writer (two runs that lost different writers never read alike), and the
 * count of rows and what is said of them agree in number at 0, 1 and 2 rows, for every kind of change.
 */
import { describe, expect, it } from 'vitest';
import type { WriterSpec } from '../src/cases/catalog';
import { checkFailedWriters } from '../src/oracle/failed-writers';

/** The raced table as the check sees it: `n` rows in every writer's scope, untouched. */
const tablesWith = (n: number) => ({ racedCount: async () => n, equal: async () => true });

async function summary(writer: WriterSpec, n: number): Promise<string> {
  const [check] = await checkFailedWriters([writer], tablesWith(n), true, () => undefined);
  return check?.summary ?? '';
}

describe('failed writer summaries', () => {
  const update: WriterSpec = { name: 'b', operation: { kind: 'update', predicate: 'value = 1', set: { value: '2' } } };
  const del: WriterSpec = { name: 'gdpr', operation: { kind: 'delete', predicate: 'id = 1' } };
  const optimize: WriterSpec = { name: 'compact', operation: { kind: 'optimize' } };
  const append: WriterSpec = { name: 'feb02', operation: { kind: 'append', day: '2025-02-02' } };
  const sample: WriterSpec = { name: 'more', operation: { kind: 'append', from: { sample: 2 } } };

  it.each([
    [update, 0, "b's update failed: its 0 value 1 rows keep their values"],
    [update, 1, "b's update failed: its 1 value 1 row keeps its value"],
    [update, 2, "b's update failed: its 2 value 1 rows keep their values"],
    [del, 0, "gdpr's delete failed: its 0 id 1 rows are still there"],
    [del, 1, "gdpr's delete failed: its 1 id 1 row is still there"],
    [del, 2, "gdpr's delete failed: its 2 id 1 rows are still there"],
    [optimize, 1, "compact's compaction failed: the table's 1 row is as the other writers left them"],
    [optimize, 2, "compact's compaction failed: the table's 2 rows are as the other writers left them"],
    [append, 1, "feb02's append failed: its 1 2025-02-02 trip is not in the table"],
    [append, 1234, "feb02's append failed: its 1,234 2025-02-02 trips are not in the table"],
    [sample, 1, "more's append failed: its 1 row is not in the table"],
    [sample, 2, "more's append failed: its 2 rows are not in the table"],
  ])('%#: %o with %d rows', async (writer, n, words) => {
    expect(await summary(writer, n)).toBe(words);
  });
});
