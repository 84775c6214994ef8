/** Keys for the verdict memo (memo.ts): a digest of everything a replay depends on. */
import { createHash, randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { WriterOperation, WriterSpec } from '../cases/catalog';

/** A digest of `inputs` as JSON (BigInts as text). */
export const memoKey = (inputs: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(inputs, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)))
    .digest('hex');

/**
 * Each writer's rows file as path, size and modification time. A file that cannot be looked at gets a key of
 * its own (never served from the memo): not knowing what it holds, nothing may be assumed about it.
 */
export async function rowsFileFacts(input: {
  writers: readonly WriterSpec[];
  rowsFile: (op: WriterOperation) => string | undefined;
}): Promise<unknown[]> {
  return Promise.all(
    input.writers.map(async (w) => {
      const file = input.rowsFile(w.operation);
      if (file === undefined) return null;
      try {
        const s = await stat(file);
        return [file, s.size, s.mtimeMs];
      } catch {
        return [file, randomUUID()];
      }
    }),
  );
}
