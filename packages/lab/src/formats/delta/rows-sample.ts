/**
 * `sample: N` made concrete: N rows of the table's current version written to a Parquet file in the lab's work
 * folder, once per race and before its first run, so every run and every replay adds the same rows; writer
 * processes and the serial replay only ever see files. The rows are read through the engine's relation, so
 * they carry the logical column names and leave out what deletion vectors delete. They are the first N in the
 * order of every column (ORDER BY ALL): the same rows whatever order the files are listed or read in.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DeltaTable, withConnection } from '@racelab/engine';
import type { DeltaCase, WriterOperation } from '../../cases/catalog';
import { sqlString } from '../../data/sql';

/** Writes `n` rows of `source`'s current version to `file` (written aside and renamed). */
export async function writeSample(
  source: string,
  n: number,
  file: string,
  roots: readonly string[] = [],
): Promise<void> {
  if (!Number.isInteger(n) || n < 1) throw new Error(`a sample is a whole number of rows, at least 1; got ${n}`);
  const table = await DeltaTable.open(source, { roots });
  const tmp = `${file}.tmp-${process.pid}`;
  await withConnection(async (c) => {
    const rel = await table.relation(c);
    await c.run(`COPY (SELECT * FROM (${rel}) ORDER BY ALL LIMIT ${n}) TO ${sqlString(tmp)} (FORMAT parquet)`);
  });
  await rename(tmp, file);
}

export interface SampledCase {
  /** The case with every `{ sample }` replaced by `{ file }`. */
  case: DeltaCase;
  /** Removes the sample files (after the race). */
  remove: () => Promise<void>;
}

const sampleOf = (op: WriterOperation): number | null => ('from' in op && 'sample' in op.from ? op.from.sample : null);

/** The case as its runs need it: a file for every sample (one per distinct size), made in `workDir/samples`. */
export async function withSampleFiles(
  c: DeltaCase,
  source: string,
  workDir: string,
  roots: readonly string[] = [],
): Promise<SampledCase> {
  const sizes = [...new Set(c.writers.map((w) => sampleOf(w.operation)).filter((n) => n !== null))];
  if (sizes.length === 0) return { case: c, remove: async () => {} };
  const dir = join(workDir, 'samples', `${c.id}-${process.pid}-${Date.now()}`);
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await mkdir(dir, { recursive: true });
    const files = new Map<number, string>();
    for (const n of sizes) {
      const file = join(dir, `sample-${n}.parquet`);
      await writeSample(source, n, file, roots);
      files.set(n, file);
    }
    const withFile = (op: WriterOperation): WriterOperation => {
      const n = sampleOf(op);
      return n === null || !('from' in op) ? op : { ...op, from: { file: files.get(n) as string } };
    };
    return { case: { ...c, writers: c.writers.map((w) => ({ ...w, operation: withFile(w.operation) })) }, remove };
  } catch (e) {
    await remove();
    throw e;
  }
}
