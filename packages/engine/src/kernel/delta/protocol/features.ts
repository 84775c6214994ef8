/**
 * Protocol versions and table features: which protocol a new table needs, and whether this engine
 * may read or write a table with a given protocol. Pure: no I/O.
 */
import type { Protocol } from './actions';
import { requestedColumnMapping } from './column-mapping';
import { type StructType, schemaUses } from './schema';
import { UnsupportedFeatureError } from './unsupported';

/**
 * Reader features this engine implements; any other is refused by name, never misread.
 * - `deletionVectors`: every scan leaves out the rows a file's vector deletes, by row position inside DuckDB
 *   (ops/delta/read/deleted-rows.ts, kernel/delta/dv/, ops/delta/dv/).
 * - `columnMapping`: columns are read by physical name or Parquet field id (ops/parquet/logical-columns.ts), stats and
 *   partition values by physical name (protocol/column-mapping.ts); users see logical names only.
 * - `v2Checkpoint`: UUID-named and classic v2 checkpoints, JSON or Parquet, with sidecars (log/checkpoint.ts).
 * - `vacuumProtocolCheck`: nothing to do when reading. It asks that VACUUM run the writer protocol check before
 *   deleting anything; it is a reader feature too only so that older vacuums, which checked reader features
 *   alone, refuse the table.
 * - `variantType` (and its preview name): a table that requires it but has no column of type `variant` reads like
 *   any other (delta-rs 1.6.x lists it on every table it creates with deletion vectors). The engine reads no variant
 *   values, so a schema holding a `variant` column, at any depth, is refused at open, naming the column (schema.ts).
 */
export const SUPPORTED_READER_FEATURES = new Set([
  'timestampNtz',
  'columnMapping',
  'v2Checkpoint',
  'vacuumProtocolCheck',
  'deletionVectors',
  'variantType',
  'variantType-preview',
]);

/**
 * The protocol a new table needs: reader 1 / writer 2 as delta-rs gives it, or reader 3 / writer 7 with the
 * `timestampNtz` feature when any column is a naive timestamp. Column mapping (`delta.columnMapping.mode` name or id)
 * needs reader 2 / writer 5, or, on a table with features, `columnMapping` among both lists (PROTOCOL.md "Column
 * Mapping"; delta-rs 1.6.6 leaves it out of the lists there, which makes readers ignore the mode).
 */
export function protocolForSchema(schema: StructType, configuration: Record<string, string | null> = {}): Protocol {
  const mapped = requestedColumnMapping(configuration) !== 'none';
  if (schemaUses(schema, 'timestamp_ntz')) {
    const features = mapped ? ['timestampNtz', 'columnMapping'] : ['timestampNtz'];
    return { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: features, writerFeatures: [...features] };
  }
  return mapped ? { minReaderVersion: 2, minWriterVersion: 5 } : { minReaderVersion: 1, minWriterVersion: 2 };
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

/**
 * The write half follows delta-rs 1.6.x's protocol checker (crates/core/src/kernel/transaction/protocol.rs at
 * python-v1.6.3, as its Python wheel is built: with `datafusion`, without `nanosecond-timestamps`): the features
 * its `INSTANCE` accepts (L299-333), the feature sets legacy versions imply (L18-66), and `can_write_to` (L221-249),
 * which checks the reader features first, so `vacuumProtocolCheck`, absent from both of delta-rs's sets, is refused
 * for writing although this engine reads it. What the engine does for each accepted feature: docs/delta-features.md.
 */
const WRITER_ACCEPTED_READER_FEATURES = new Set([
  'timestampNtz',
  'deletionVectors',
  'variantType',
  'variantType-preview',
  'v2Checkpoint',
  'columnMapping',
]);
const WRITER_ACCEPTED_FEATURES = new Set([
  'appendOnly',
  'timestampNtz',
  'variantType',
  'variantType-preview',
  'v2Checkpoint',
  'changeDataFeed',
  'invariants',
  'checkConstraints',
  'generatedColumns',
  'columnMapping',
  'deletionVectors',
]);

/** The features a legacy writer version implies (protocol.rs L22-66, the datafusion build). */
const LEGACY_WRITER_FEATURES: readonly (readonly string[])[] = [
  [],
  [],
  ['appendOnly', 'invariants'],
  ['appendOnly', 'invariants', 'checkConstraints'],
  ['appendOnly', 'invariants', 'checkConstraints', 'changeDataFeed', 'generatedColumns'],
  ['appendOnly', 'invariants', 'checkConstraints', 'changeDataFeed', 'generatedColumns', 'columnMapping'],
  [
    'appendOnly',
    'invariants',
    'checkConstraints',
    'changeDataFeed',
    'generatedColumns',
    'columnMapping',
    'identityColumns',
  ],
];

/**
 * The name delta-rs prints for a feature: the Rust `Debug` of delta-kernel-rs's `TableFeature` (v0.25.0,
 * kernel/src/table_features/mod.rs L72-176), i.e. the variant name, `Unknown("x")` for a name it does not know.
 */
const DEBUG_NAMES: Record<string, string> = {
  appendOnly: 'AppendOnly',
  invariants: 'Invariants',
  checkConstraints: 'CheckConstraints',
  changeDataFeed: 'ChangeDataFeed',
  generatedColumns: 'GeneratedColumns',
  identityColumns: 'IdentityColumns',
  inCommitTimestamp: 'InCommitTimestamp',
  rowTracking: 'RowTracking',
  domainMetadata: 'DomainMetadata',
  icebergCompatV1: 'IcebergCompatV1',
  icebergCompatV2: 'IcebergCompatV2',
  icebergCompatV3: 'IcebergCompatV3',
  clustering: 'ClusteredTable',
  materializePartitionColumns: 'MaterializePartitionColumns',
  allowColumnDefaults: 'AllowColumnDefaults',
  catalogManaged: 'CatalogManaged',
  'catalogOwned-preview': 'CatalogOwnedPreview',
  columnMapping: 'ColumnMapping',
  deletionVectors: 'DeletionVectors',
  timestampNtz: 'TimestampWithoutTimezone',
  typeWidening: 'TypeWidening',
  'typeWidening-preview': 'TypeWideningPreview',
  v2Checkpoint: 'V2Checkpoint',
  vacuumProtocolCheck: 'VacuumProtocolCheck',
  variantType: 'VariantType',
  'variantType-preview': 'VariantTypePreview',
  variantShredding: 'VariantShredding',
  'variantShredding-preview': 'VariantShreddingPreview',
};

export function featureDebugName(feature: string): string {
  return DEBUG_NAMES[feature] ?? `Unknown(${JSON.stringify(feature)})`;
}

/** `TransactionError::UnsupportedTableFeatures` as delta-rs's Python binding raises it (no "Transaction failed:"). */
function unsupported(features: readonly string[]): UnsupportedFeatureError {
  return new UnsupportedFeatureError(
    `Unsupported table features required: [${features.map(featureDebugName).join(', ')}]`,
  );
}

/** The features a protocol requires of readers (`can_read_from_protocol`, L194-219). */
function requiredReaderFeatures(p: Protocol): readonly string[] {
  if (p.minReaderVersion < 2) return [];
  if (p.minReaderVersion === 2) return ['columnMapping'];
  return p.readerFeatures ?? (p.minReaderVersion === 3 ? ['deletionVectors'] : []);
}

/** The features a protocol requires of writers (`can_write_to`, L227-235). */
export function requiredWriterFeatures(p: Protocol): readonly string[] {
  if (p.minWriterVersion < 7) return LEGACY_WRITER_FEATURES[Math.max(0, p.minWriterVersion)] ?? [];
  return p.writerFeatures ?? [];
}

/**
 * Throws, with delta-rs's text, when delta-rs 1.6.x would refuse to write to a table with this protocol. The
 * missing features are listed in the table's order (delta-rs lists them in HashSet order, which varies).
 */
export function assertCanWrite(p: Protocol, location: string): void {
  const readers = requiredReaderFeatures(p).filter((f) => !WRITER_ACCEPTED_READER_FEATURES.has(f));
  if (readers.length > 0) throw unsupported(readers);
  const writers = requiredWriterFeatures(p).filter((f) => !WRITER_ACCEPTED_FEATURES.has(f));
  if (writers.length > 0) throw unsupported(writers);
  // What delta-rs accepts, this engine must still be able to read (the rows it rewrites).
  assertCanRead(p, location);
}

/**
 * Whether a commit's data-changing removes are refused (`can_commit`, L251-289): `delta.appendOnly=true` at writer
 * versions 2-6; at 7 only when `appendOnly` is among the writer features too.
 */
export function appendOnlyAtCommit(p: Protocol, configuration: Record<string, string | null>): boolean {
  if (p.minWriterVersion < 2) return false;
  const on = configuration['delta.appendOnly'] === 'true';
  return p.minWriterVersion < 7 ? on : on && (p.writerFeatures ?? []).includes('appendOnly');
}
