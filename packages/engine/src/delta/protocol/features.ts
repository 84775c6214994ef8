/**
 * Protocol versions and table features: which protocol a new table needs, and whether this engine
 * may read or write a table with a given protocol. Pure: no I/O.
 */
import type { Protocol } from './actions';
import { type StructType, schemaUses } from './schema';

/**
 * Reader features this engine implements; any other is refused by name, never misread.
 * - `deletionVectors`: every scan leaves out the rows a file's vector deletes, by row position inside DuckDB
 *   (data/deleted-rows.ts, delta/dv/). Writing to such a table is still refused: `deletionVectors` is no writer
 *   feature here yet.
 * - `columnMapping`: columns are read by physical name or Parquet field id (data/column-mapping.ts), stats and
 *   partition values by physical name (protocol/column-mapping.ts); users see logical names only.
 * - `v2Checkpoint`: UUID-named and classic v2 checkpoints, JSON or Parquet, with sidecars (log/checkpoint.ts).
 * - `vacuumProtocolCheck`: nothing to do when reading. It asks that VACUUM run the writer protocol check before
 *   deleting anything; it is a reader feature too only so that older vacuums, which checked reader features
 *   alone, refuse the table.
 */
export const SUPPORTED_READER_FEATURES = new Set([
  'timestampNtz',
  'columnMapping',
  'v2Checkpoint',
  'vacuumProtocolCheck',
  'deletionVectors',
]);
/** Writer features this engine honours when it writes. */
export const SUPPORTED_WRITER_FEATURES = new Set(['timestampNtz', 'appendOnly', 'invariants']);

export class UnsupportedFeatureError extends Error {
  override name = 'UnsupportedFeatureError';
}

/**
 * The protocol delta-rs gives a new table: reader 1 / writer 2, or reader 3 / writer 7 with the
 * `timestampNtz` feature when any column is a naive timestamp.
 */
export function protocolForSchema(schema: StructType): Protocol {
  if (schemaUses(schema, 'timestamp_ntz')) {
    return {
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['timestampNtz'],
      writerFeatures: ['timestampNtz'],
    };
  }
  return { minReaderVersion: 1, minWriterVersion: 2 };
}

/** Throws, naming the feature, when reading the table's data needs something this engine lacks. */
export function assertCanRead(p: Protocol, location: string): void {
  if (p.minReaderVersion > 3) {
    throw new UnsupportedFeatureError(`${location}: reader version ${p.minReaderVersion} is not supported`);
  }
  const missing = (p.readerFeatures ?? []).filter((f) => !SUPPORTED_READER_FEATURES.has(f));
  if (missing.length > 0) {
    throw new UnsupportedFeatureError(
      `${location}: unsupported reader features required: ${missing.join(', ')}; this engine reads none of them, so it refuses rather than misread the table`,
    );
  }
}

/** Throws when writing would need a writer feature this engine does not honour. */
export function assertCanWrite(p: Protocol, location: string): void {
  assertCanRead(p, location);
  if (p.minWriterVersion > 2 && p.minWriterVersion < 7) {
    throw new UnsupportedFeatureError(`${location}: writer version ${p.minWriterVersion} is not supported`);
  }
  const missing = (p.writerFeatures ?? []).filter((f) => !SUPPORTED_WRITER_FEATURES.has(f));
  if (missing.length > 0) {
    throw new UnsupportedFeatureError(`Unsupported table features required: [${missing.join(', ')}]`);
  }
}
