/**
 * What the tests that set the engine beside a real library share: rows compared as values whatever reader gave
 * them, the engine's read of a table, a small table's schema and rows, and whether the Python side can run a library
 * here (outside CI a suite without it is skipped, naming why; in CI its absence is a failure).
 */
import { DeltaTable, type StructType } from '@racelab/engine';
import { PythonSideMissingError, pythonEnv } from '../../src/real/python-env';

export type Row = Record<string, unknown>;
export interface Read {
  version: number;
  rows: Row[];
}

/** Rows in one order, numbers as numbers, instants as ISO strings, so two readers' answers compare as values. */
export function sorted(rows: Row[]): Row[] {
  const value = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.toISOString() : v);
  const plain = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, value(v)])));
  return plain.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** The table as the engine reads it at its latest version: the named columns (all when none), sorted. */
export const readByEngine = async (dir: string, columns: string[] = []): Promise<Read> => {
  const t = await DeltaTable.open(dir);
  const listed = columns.length ? columns.map((c) => `"${c}"`).join(', ') : '*';
  return { version: t.version, rows: sorted(await t.query((rel) => `SELECT ${listed} FROM (${rel})`)) };
};

/** A small table's schema: a key, a name and a partition-friendly column. */
export const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'name', type: 'string', nullable: true, metadata: {} },
    { name: 'part', type: 'string', nullable: true, metadata: {} },
  ],
};

/** `n` rows of SCHEMA with ids from `from`. */
export const rowsOf = (from: number, n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, name: `n${from + i}`, part: (from + i) % 2 ? 'odd' : 'even' }));

/** Why a suite needing `library` cannot run here, or null when it can; in CI a missing Python side throws. */
export async function libraryMissing(library: Parameters<typeof pythonEnv>[0]): Promise<string | null> {
  try {
    await pythonEnv(library);
    return null;
  } catch (e) {
    if (e instanceof PythonSideMissingError && !process.env.CI) return e.message;
    throw e;
  }
}
