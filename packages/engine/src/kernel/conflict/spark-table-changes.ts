/**
 * How Delta Spark (v4.4.0, `ConflictChecker.scala`) judges a winning commit that changes the table
 * itself: a protocol or a metaData action. Unlike delta-rs, which fails on any winning metaData,
 * Spark adopts a protocol upgrade it supports, tolerates a metadata update that only moves an
 * identity high-water mark, and resolves a short allow-list of feature enablements. Pure.
 */
import type { Action, CommitInfo, Metadata, Protocol } from '../delta/protocol/actions';

/** Features a legacy protocol (reader < 3, writer < 7) supports by its version numbers alone. */
const LEGACY_FEATURES: readonly [name: string, minReader: number, minWriter: number][] = [
  ['appendOnly', 1, 2],
  ['invariants', 1, 2],
  ['checkConstraints', 1, 3],
  ['changeDataFeed', 1, 4],
  ['generatedColumns', 1, 4],
  ['columnMapping', 2, 5],
  ['identityColumns', 1, 6],
];

/** Every feature a protocol supports, implicitly (legacy versions) or by name (table features). */
export function protocolFeatures(p: Protocol): Set<string> {
  const named = new Set([...(p.readerFeatures ?? []), ...(p.writerFeatures ?? [])]);
  // As soon as either side uses feature lists, nothing is implied by version numbers any more.
  if (p.minReaderVersion >= 3 || p.minWriterVersion >= 7) return named;
  for (const [name, r, w] of LEGACY_FEATURES) if (p.minReaderVersion >= r && p.minWriterVersion >= w) named.add(name);
  return named;
}

/** A winning protocol fails this transaction when it also sets one, or when the winner drops a feature. */
export function protocolConflicts(txnActions: readonly Action[], readProtocol: Protocol, winner: Protocol): boolean {
  if (txnActions.some((a) => 'protocol' in a)) return true;
  const kept = protocolFeatures(winner);
  return [...protocolFeatures(readProtocol)].some((f) => !kept.has(f));
}

const IDENTITY_ONLY_TAG = 'delta.identity.schemaUpdate';

const COLUMN_MAPPING_MODE = 'delta.columnMapping.mode';
const ROW_TRACKING = 'delta.enableRowTracking';

/** Scala's `toBoolean` reads only true/false, in any case; anything else never enables a feature here. */
const isTrue = (v: string | null | undefined) => v?.toLowerCase() === 'true';
const mappingMode = (m: Metadata) => (m.configuration[COLUMN_MAPPING_MODE] ?? 'none').toLowerCase();
const enablesNameMapping = (current: Metadata, winner: Metadata) =>
  mappingMode(current) === 'none' && mappingMode(winner) === 'name';

/**
 * The configuration keys a concurrent enablement may change without failing this transaction, each
 * with the condition under which it is harmless (`added`: the key is new in the winner's metadata).
 */
type Change = { value: string | null; added: boolean; features: Set<string>; current: Metadata; winner: Metadata };
const ALLOWED_CONFIGURATION = new Map<string, (c: Change) => boolean>(
  Object.entries({
    [ROW_TRACKING]: (c) => c.features.has('rowTracking') && isTrue(c.value),
    'delta.rowTracking.materializedRowIdColumnName': (c) => isTrue(c.winner.configuration[ROW_TRACKING]),
    'delta.rowTracking.materializedRowCommitVersionColumnName': (c) => isTrue(c.winner.configuration[ROW_TRACKING]),
    [COLUMN_MAPPING_MODE]: (c) => enablesNameMapping(c.current, c.winner) && c.features.has('columnMapping'),
    'delta.columnMapping.maxColumnId': () => true,
    'delta.enableDeletionVectors': (c) => c.features.has('deletionVectors') && isTrue(c.value),
    'delta.checkpointPolicy': (c) => c.features.has('v2Checkpoint') && c.value === 'v2',
    'delta.enableInCommitTimestamps': (c) => c.features.has('inCommitTimestamp') && isTrue(c.value),
    'delta.inCommitTimestampEnablementVersion': (c) => c.added,
    'delta.inCommitTimestampEnablementTimestamp': (c) => c.added,
    // Only a catalog-owned table guards its Unity Catalog id; elsewhere the key passes unchecked.
    'io.unitycatalog.tableId': (c) => !c.features.has('catalogOwned') || c.added,
  } satisfies Record<string, (c: Change) => boolean>),
);

function configurationResolves(current: Metadata, winner: Metadata, features: Set<string>): boolean {
  const before = current.configuration;
  const after = winner.configuration;
  // Unsetting a property is never resolved.
  if (Object.keys(before).some((k) => !Object.hasOwn(after, k))) return false;
  return Object.entries(after).every(([key, value]) => {
    const added = !Object.hasOwn(before, key);
    if (!added && before[key] === value) return true;
    return ALLOWED_CONFIGURATION.get(key)?.({ value, added, features, current, winner }) === true;
  });
}

/** Field metadata a column-mapping enablement writes; any other field change is a real schema change. */
const COLUMN_MAPPING_FIELD_KEYS = new Set([
  'delta.columnMapping.id',
  'delta.columnMapping.physicalName',
  'delta.columnMapping.nested.ids',
  'parquet.field.id',
  'parquet.field.nested.ids',
]);

interface SchemaField {
  name: string;
  type: unknown;
  nullable: boolean;
  metadata?: Record<string, unknown>;
}

const fieldsOf = (m: Metadata): SchemaField[] => JSON.parse(m.schemaString || '{"fields":[]}').fields ?? [];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A schema change resolves only as the column-mapping metadata of a none→name enablement. */
function schemaResolves(current: Metadata, winner: Metadata): boolean {
  const before = fieldsOf(current);
  const after = fieldsOf(winner);
  if (before.length !== after.length || !enablesNameMapping(current, winner)) return false;
  return before.every((f, i) => {
    const g = after[i];
    if (!g || f.name !== g.name || !same(f.type, g.type) || f.nullable !== g.nullable) return false;
    const m0 = f.metadata ?? {};
    const m1 = g.metadata ?? {};
    const changed = [...new Set([...Object.keys(m0), ...Object.keys(m1)])].filter((k) => !same(m0[k], m1[k]));
    return changed.every((k) => COLUMN_MAPPING_FIELD_KEYS.has(k));
  });
}

/** The Metadata fields that differ, as Spark's `diffFieldNames` names them (absent and null are alike). */
function differingFields(a: Metadata, b: Metadata): Set<string> {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof Metadata)[]);
  return new Set([...fields].filter((f) => !same(a[f] ?? null, b[f] ?? null)));
}

/**
 * A winning metaData against this transaction: 'conflict', 'ignored' (an identity high-water mark
 * only: nothing to adopt), or 'adopted' (identical, or an allow-listed enablement: the transaction
 * continues on the winner's metadata). `features` is the protocol this transaction now writes with.
 */
export function resolveWinningMetadata(
  txnChangesMetadata: boolean,
  current: Metadata,
  winner: Metadata,
  winnerCommitInfo: CommitInfo | undefined,
  features: Set<string>,
): 'conflict' | 'ignored' | 'adopted' {
  if (txnChangesMetadata) return 'conflict';
  const tags = winnerCommitInfo?.tags as Record<string, string> | undefined;
  if (isTrue(tags?.[IDENTITY_ONLY_TAG])) return 'ignored';
  const diff = differingFields(current, winner);
  if ([...diff].some((f) => f !== 'configuration' && f !== 'schemaString')) return 'conflict';
  if (diff.has('configuration') && !configurationResolves(current, winner, features)) return 'conflict';
  if (diff.has('schemaString') && !schemaResolves(current, winner)) return 'conflict';
  return 'adopted';
}
