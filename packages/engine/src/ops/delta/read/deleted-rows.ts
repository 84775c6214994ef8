/**
 * Leaves out of a scan the rows that deletion vectors delete, inside DuckDB. Each vector becomes a bit mask
 * (bit n set: row n of the data file is deleted) in a temporary table of the connection, and each data file with
 * a vector is read on its own with its row positions (`file_row_number`), keeping the rows whose bit is clear;
 * files without a vector are read together, as before. Measured against the alternatives (bench/RESULTS.md,
 * "Deletion vectors"): an anti-join on (file name, position) or a join of each row to its file's mask costs about
 * twice as much per row, a hash probe or a copied join row each time, and masks as SQL literals make a query text
 * that grows with every data file's row count (a 1M-row file: 167 KB), parsed again by every query.
 */
import { createHash } from 'node:crypto';
import { blobValue, type DuckDBConnection } from '@duckdb/node-api';
import { dvUniqueId } from '../../../kernel/delta/dv/descriptor';
import { DeletionVectorError } from '../../../kernel/delta/dv/errors';
import type { DeletionVectorDescriptor } from '../../../kernel/delta/protocol/actions';
import { type ObjectStore, PathRefusedError } from '../../../storage/object-store';
import { sqlIdent, sqlString } from '../../parquet/duck';
import { dvFileReader } from '../dv/locate';
import { readDeletionVector } from '../dv/read';

export interface DeletableFile {
  /** Object key of the data file, for messages. */
  key: string;
  deletionVector?: DeletionVectorDescriptor | null;
}

/** Reads Parquet files by local path; `rowNumbers` adds the `file_row_number` column. */
export type ReadFiles = (paths: readonly string[], rowNumbers: boolean) => Promise<string>;

/**
 * A temporary table of the connection per set of vectors a scan reads: row `i` holds the mask of the scan's i-th
 * file with a vector (bit n set: row n is deleted) and `last`, the index of its last bit.
 */
const MASK_TABLE = '__racelab_dv_';

/**
 * The source a scan reads `paths` (the local paths of `files`, in order) through, without deleted rows. Without
 * vectors that is `read(paths)` itself; with them the relation names a mask table of the connection, so it is
 * valid on `conn` only (elsewhere the table is missing: an error, never rows silently kept or lost).
 */
export async function liveRows(
  conn: DuckDBConnection,
  store: ObjectStore,
  files: readonly DeletableFile[],
  paths: readonly string[],
  read: ReadFiles,
  roots: readonly string[] = [],
): Promise<string> {
  const deletable = files.flatMap((file, i) =>
    file.deletionVector ? [{ file, dv: file.deletionVector, path: paths[i] as string }] : [],
  );
  if (deletable.length === 0) return read(paths, false);
  const ids = deletable.map(({ dv }) => `${store.location}\u0000${dvUniqueId(dv)}`).join('\n');
  const table = `${MASK_TABLE}${createHash('sha256').update(ids).digest('hex').slice(0, 32)}`;
  const found = await conn.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables() WHERE temporary AND table_name = ${sqlString(table)}`,
  );
  // The same vectors make the same masks: a scan built again on this connection reuses them.
  if (Number(found.getColumns()[0]?.[0]) === 0) await loadMasks(conn, store, deletable, table, roots);
  const plain = paths.filter((_, i) => !files[i]?.deletionVector);
  const parts = plain.length > 0 ? [`SELECT * FROM ${await read(plain, false)}`] : [];
  for (const [i, { path }] of deletable.entries()) {
    const column = (name: string) => `(SELECT ${name} FROM ${sqlIdent(table)} WHERE i = ${i})`;
    // Rows after the last deleted one read the mask's last bit, which is always clear.
    const bit = `get_bit(${column('mask')}, least(file_row_number, ${column('last')})::INTEGER)`;
    parts.push(`SELECT * EXCLUDE (file_row_number) FROM ${await read([path], true)} WHERE ${bit} = 0`);
  }
  return `(${parts.join(' UNION ALL BY NAME ')})`;
}

/** Reads the vectors (each file they live in once) into one mask table, in one statement. */
async function loadMasks(
  conn: DuckDBConnection,
  store: ObjectStore,
  deletable: readonly { file: DeletableFile; dv: DeletionVectorDescriptor }[],
  table: string,
  roots: readonly string[],
): Promise<void> {
  const readFile = dvFileReader(store, roots);
  const masks = await Promise.all(
    deletable.map(async ({ file, dv }) => {
      const fail = (message: string) =>
        new DeletionVectorError(`${store.location}: the deletion vector of ${file.key}: ${message}`);
      let positions: Float64Array;
      try {
        positions = await readDeletionVector(dv, readFile);
      } catch (e) {
        if (e instanceof PathRefusedError) {
          throw new PathRefusedError(`refusing the deletion vector of '${file.key}': ${e.message}`);
        }
        throw e instanceof DeletionVectorError ? fail(e.message) : e;
      }
      const max = positions.length > 0 ? (positions[positions.length - 1] as number) : -1;
      // get_bit takes a 32-bit index.
      if (max >= 2 ** 31 - 8) throw fail(`it deletes row ${max}, past 2^31`);
      // Bit n is row n, from the high bit of the first byte (as DuckDB casts BLOB to BIT), then one clear bit.
      const bytes = new Uint8Array(Math.floor((max + 1) / 8) + 1);
      for (const p of positions) bytes[p >>> 3] = (bytes[p >>> 3] ?? 0) | (0x80 >>> (p & 7));
      return bytes;
    }),
  );
  const rows = masks.map((_, i) => `(${i}, $${2 * i + 1}::BIT, $${2 * i + 2}::INTEGER)`);
  await conn.run(
    `CREATE TEMP TABLE IF NOT EXISTS ${sqlIdent(table)} AS SELECT * FROM (VALUES ${rows.join(', ')}) v(i, mask, last)`,
    masks.flatMap((bytes) => [blobValue(bytes), bytes.length * 8 - 1]),
  );
}
