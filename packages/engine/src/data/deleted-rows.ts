/**
 * Leaves out of a scan the rows that deletion vectors delete, inside DuckDB. Each vector becomes a bit mask
 * (bit i set: row i of the data file is deleted) in a temporary table of the connection, and each data file with
 * a vector is read on its own with its row positions (`file_row_number`), keeping the rows whose bit is clear.
 * That filter names one column, so DuckDB evaluates it in the Parquet reader itself. Files without a vector are
 * read together, as before. Bit masks beat the alternatives measured in bench/RESULTS.md ("deletion vector
 * reads"): an anti-join on (file, position) costs a hash probe per row, and positions as SQL text are too long.
 */
import { createHash } from 'node:crypto';
import { blobValue, type DuckDBConnection } from '@duckdb/node-api';
import { dvUniqueId } from '../delta/dv/descriptor';
import { DeletionVectorError } from '../delta/dv/errors';
import { dvFileReader } from '../delta/dv/locate';
import { readDeletionVector } from '../delta/dv/read';
import type { DeletionVectorDescriptor } from '../delta/protocol/actions';
import type { ObjectStore } from '../storage/object-store';
import { sqlIdent, sqlString } from './duck';

export interface DeletableFile {
  /** Object key of the data file, for messages. */
  key: string;
  deletionVector?: DeletionVectorDescriptor | null;
}

/** Reads Parquet files by local path; `rowNumbers` adds the `file_row_number` column. */
export type ReadFiles = (paths: readonly string[], rowNumbers: boolean) => Promise<string>;

/** Temporary tables of the connection, one per vector: `mask` (BIT) and `last`, the index of its last bit. */
const MASK_TABLE = '__racelab_dv_';

/**
 * The source a scan reads `paths` (the local paths of `files`, in order) through, without deleted rows. Without
 * vectors that is `read(paths)` itself; with them the relation names the connection's mask tables, so it is
 * valid on `conn` only (a missing table is an error, never rows silently kept or lost).
 */
export async function liveRows(
  conn: DuckDBConnection,
  store: ObjectStore,
  files: readonly DeletableFile[],
  paths: readonly string[],
  read: ReadFiles,
): Promise<string> {
  if (!files.some((f) => f.deletionVector)) return read(paths, false);
  const existing = await conn.runAndReadAll(
    `SELECT table_name FROM duckdb_tables() WHERE temporary AND starts_with(table_name, ${sqlString(MASK_TABLE)})`,
  );
  const loaded = new Set(existing.getColumns()[0] as string[]);
  const readFile = dvFileReader(store);
  const masks = await Promise.all(
    files.map(async (f) => {
      if (!f.deletionVector) return null;
      const table = `${MASK_TABLE}${createHash('sha256')
        .update(`${store.location}\u0000${dvUniqueId(f.deletionVector)}`)
        .digest('hex')
        .slice(0, 32)}`;
      if (!loaded.has(table)) await loadMask(conn, store, f, f.deletionVector, table, readFile);
      return table;
    }),
  );
  const plain = paths.filter((_, i) => !masks[i]);
  const parts = plain.length > 0 ? [`SELECT * FROM ${await read(plain, false)}`] : [];
  for (const [i, table] of masks.entries()) {
    if (!table) continue;
    const t = sqlIdent(table);
    // Rows after the last deleted one read the mask's last bit, which is always clear.
    const bit = `get_bit((SELECT mask FROM ${t}), least(file_row_number, (SELECT last FROM ${t}))::INTEGER)`;
    parts.push(`SELECT * EXCLUDE (file_row_number) FROM ${await read([paths[i] as string], true)} WHERE ${bit} = 0`);
  }
  return `(${parts.join(' UNION ALL BY NAME ')})`;
}

/** Reads one file's vector into a mask table of the connection. */
async function loadMask(
  conn: DuckDBConnection,
  store: ObjectStore,
  file: DeletableFile,
  dv: DeletionVectorDescriptor,
  table: string,
  readFile: ReturnType<typeof dvFileReader>,
): Promise<void> {
  let positions: Float64Array;
  try {
    positions = await readDeletionVector(dv, readFile);
  } catch (e) {
    if (!(e instanceof DeletionVectorError)) throw e;
    throw new DeletionVectorError(`${store.location}: the deletion vector of ${file.key}: ${e.message}`);
  }
  const max = positions.length > 0 ? (positions[positions.length - 1] as number) : -1;
  // get_bit takes a 32-bit index.
  if (max >= 2 ** 31 - 8) {
    throw new DeletionVectorError(
      `${store.location}: the deletion vector of ${file.key} deletes row ${max}, past 2^31`,
    );
  }
  // Bit i is row i, counted from the high bit of the first byte (as DuckDB casts BLOB to BIT), then one clear bit.
  const bytes = new Uint8Array(Math.floor((max + 1) / 8) + 1);
  for (const p of positions) bytes[p >>> 3] = (bytes[p >>> 3] ?? 0) | (0x80 >>> (p & 7));
  await conn.run(`CREATE TEMP TABLE IF NOT EXISTS ${sqlIdent(table)} AS SELECT $1::BIT AS mask, $2::INTEGER AS last`, [
    blobValue(bytes),
    bytes.length * 8 - 1,
  ]);
}
