/**
 * Manifests (`manifest_entry`) and manifest lists (`manifest_file`), v2, as Avro containers with the
 * field ids the spec requires. Written the way pyiceberg writes a fast append (deflate, pyiceberg's
 * field order and record names), plus the `schema-id` header key the spec requires and pyiceberg omits.
 * Reading resolves every field by field id, not by name: old Java lists call 504-506 `added_data_files_count` etc.
 */
import { IcebergReadError, type IcebergSchema } from '../../kernel/iceberg/types';
import { type AvroSchema, readContainer, writeContainer } from './avro';
import { fileAt, readBytes } from './files';
import type { PathResolver } from './paths';

type Field = { name: string; 'field-id': number; type: AvroSchema; doc?: string; default?: null };

const opt = (name: string, id: number, type: AvroSchema, doc?: string): Field => ({
  name,
  'field-id': id,
  type: ['null', type],
  ...(doc ? { doc } : {}),
  default: null,
});
const req = (name: string, id: number, type: AvroSchema, doc?: string): Field => ({
  name,
  'field-id': id,
  type,
  ...(doc ? { doc } : {}),
});
/** Int-keyed map as the spec's array of key/value records (Appendix A). */
const intMap = (k: number, v: number, value: string): AvroSchema => ({
  type: 'array',
  logicalType: 'map',
  items: {
    type: 'record',
    name: `k${k}_v${v}`,
    fields: [
      { name: 'key', 'field-id': k, type: 'int' },
      { name: 'value', 'field-id': v, type: value },
    ],
  },
});

/** Unpartitioned v2 `manifest_entry`: `partition` (102) is the empty record r102. */
export const MANIFEST_ENTRY_SCHEMA: AvroSchema = {
  type: 'record',
  name: 'manifest_entry',
  fields: [
    req('status', 0, 'int'),
    opt('snapshot_id', 1, 'long'),
    opt('sequence_number', 3, 'long'),
    opt('file_sequence_number', 4, 'long'),
    req('data_file', 2, {
      type: 'record',
      name: 'r2',
      fields: [
        req('content', 134, 'int', 'Contents of the file: 0=data, 1=position deletes, 2=equality deletes'),
        req('file_path', 100, 'string', 'Location URI with FS scheme'),
        req('file_format', 101, 'string', 'File format name: avro, orc, or parquet'),
        req(
          'partition',
          102,
          { type: 'record', name: 'r102', fields: [] },
          'Partition data tuple, schema based on the partition spec',
        ),
        req('record_count', 103, 'long', 'Number of records in the file'),
        req('file_size_in_bytes', 104, 'long', 'Total file size in bytes'),
        opt('column_sizes', 108, intMap(117, 118, 'long'), 'Map of column id to total size on disk'),
        opt('value_counts', 109, intMap(119, 120, 'long'), 'Map of column id to total count, including null and NaN'),
        opt('null_value_counts', 110, intMap(121, 122, 'long'), 'Map of column id to null value count'),
        opt(
          'nan_value_counts',
          137,
          intMap(138, 139, 'long'),
          'Map of column id to number of NaN values in the column',
        ),
        opt('lower_bounds', 125, intMap(126, 127, 'bytes'), 'Map of column id to lower bound'),
        opt('upper_bounds', 128, intMap(129, 130, 'bytes'), 'Map of column id to upper bound'),
        opt('key_metadata', 131, 'bytes', 'Encryption key metadata blob'),
        opt('split_offsets', 132, { type: 'array', items: 'long', 'element-id': 133 }, 'Splittable offsets'),
        opt('equality_ids', 135, { type: 'array', items: 'int', 'element-id': 136 }, 'Equality comparison field IDs'),
        opt('sort_order_id', 140, 'int', 'Sort order ID'),
      ],
    }),
  ],
};

/** v2 `manifest_file`; 515/516 are required in v2 (pyiceberg writes them as plain long too). */
export const MANIFEST_FILE_SCHEMA: AvroSchema = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    req('manifest_path', 500, 'string', 'Location URI with FS scheme'),
    req('manifest_length', 501, 'long', 'Total file size in bytes'),
    req('partition_spec_id', 502, 'int', 'Spec ID used to write'),
    req('content', 517, 'int', 'Contents of the manifest: 0=data, 1=deletes'),
    req('sequence_number', 515, 'long', 'Sequence number when the manifest was added'),
    req('min_sequence_number', 516, 'long', 'Lowest sequence number in the manifest'),
    req('added_snapshot_id', 503, 'long', 'Snapshot ID that added the manifest'),
    req('added_files_count', 504, 'int', 'Added entry count'),
    req('existing_files_count', 505, 'int', 'Existing entry count'),
    req('deleted_files_count', 506, 'int', 'Deleted entry count'),
    req('added_rows_count', 512, 'long', 'Added rows count'),
    req('existing_rows_count', 513, 'long', 'Existing rows count'),
    req('deleted_rows_count', 514, 'long', 'Deleted rows count'),
    opt(
      'partitions',
      507,
      {
        type: 'array',
        'element-id': 508,
        items: {
          type: 'record',
          name: 'r508',
          fields: [
            req('contains_null', 509, 'boolean', 'True if any file has a null partition value'),
            opt('contains_nan', 518, 'boolean', 'True if any file has a nan partition value'),
            opt('lower_bound', 510, 'bytes', 'Partition lower bound for all files'),
            opt('upper_bound', 511, 'bytes', 'Partition upper bound for all files'),
          ],
        },
      },
      'Summary for each partition',
    ),
    opt('key_metadata', 519, 'bytes', 'Encryption key metadata blob'),
  ],
};

export interface DataFile {
  content: number;
  filePath: string;
  fileFormat: string;
  recordCount: bigint;
  fileSizeInBytes: bigint;
  /** Per field id: bytes on disk, values (nulls included), nulls. Optional metrics. */
  columnSizes?: Map<number, bigint> | null;
  valueCounts?: Map<number, bigint> | null;
  nullValueCounts?: Map<number, bigint> | null;
  splitOffsets?: bigint[] | null;
}

export interface ManifestEntry {
  status: number;
  snapshotId: bigint | null;
  sequenceNumber: bigint | null;
  fileSequenceNumber: bigint | null;
  dataFile: DataFile;
}

export interface ManifestFile {
  manifestPath: string;
  manifestLength: bigint;
  partitionSpecId: number;
  content: number;
  sequenceNumber: bigint;
  minSequenceNumber: bigint;
  addedSnapshotId: bigint;
  addedFilesCount: number;
  existingFilesCount: number;
  deletedFilesCount: number;
  addedRowsCount: bigint;
  existingRowsCount: bigint;
  deletedRowsCount: bigint;
}

/** An int-keyed map in its Avro form: an array of {key, value} records. */
function mapRecords(m: Map<number, bigint> | null | undefined): { key: number; value: bigint }[] | null {
  return m ? [...m].map(([key, value]) => ({ key, value })) : null;
}

const mapFrom = (v: unknown): Map<number, bigint> | null =>
  Array.isArray(v) ? new Map(v.map((e: { key: number; value: bigint }) => [Number(e.key), BigInt(e.value)])) : null;

/** A manifest holding ADDED entries (status 1) with inherited (null) sequence numbers. */
export function encodeManifest(opts: { schema: IcebergSchema; snapshotId: bigint; files: DataFile[] }): Buffer {
  return writeContainer({
    schema: MANIFEST_ENTRY_SCHEMA,
    codec: 'deflate',
    metadata: {
      schema: JSON.stringify(opts.schema),
      'schema-id': String(opts.schema['schema-id']),
      'partition-spec': '[]',
      'partition-spec-id': '0',
      'format-version': '2',
      content: 'data',
    },
    records: opts.files.map((f) => ({
      status: 1,
      snapshot_id: opts.snapshotId,
      sequence_number: null,
      file_sequence_number: null,
      data_file: {
        content: f.content,
        file_path: f.filePath,
        file_format: f.fileFormat,
        partition: {},
        record_count: f.recordCount,
        file_size_in_bytes: f.fileSizeInBytes,
        column_sizes: mapRecords(f.columnSizes),
        value_counts: mapRecords(f.valueCounts),
        null_value_counts: mapRecords(f.nullValueCounts),
        split_offsets: f.splitOffsets ?? null,
        sort_order_id: null,
      },
    })),
  });
}

export function encodeManifestList(opts: {
  snapshotId: bigint;
  parentSnapshotId: bigint | undefined;
  sequenceNumber: bigint;
  manifests: ManifestFile[];
}): Buffer {
  return writeContainer({
    schema: MANIFEST_FILE_SCHEMA,
    codec: 'deflate',
    metadata: {
      'snapshot-id': String(opts.snapshotId),
      // pyiceberg writes the string "null" for a first snapshot.
      'parent-snapshot-id': opts.parentSnapshotId === undefined ? 'null' : String(opts.parentSnapshotId),
      'sequence-number': String(opts.sequenceNumber),
      'format-version': '2',
    },
    records: opts.manifests.map((m) => ({
      manifest_path: m.manifestPath,
      manifest_length: m.manifestLength,
      partition_spec_id: m.partitionSpecId,
      content: m.content,
      sequence_number: m.sequenceNumber,
      min_sequence_number: m.minSequenceNumber,
      added_snapshot_id: m.addedSnapshotId,
      added_files_count: m.addedFilesCount,
      existing_files_count: m.existingFilesCount,
      deleted_files_count: m.deletedFilesCount,
      added_rows_count: m.addedRowsCount,
      existing_rows_count: m.existingRowsCount,
      deleted_rows_count: m.deletedRowsCount,
      partitions: [],
      key_metadata: null,
    })),
  });
}

type Rec = Record<string, unknown>;

/** field id → field name of a record schema (names differ between writers; ids do not). */
function namesById(schema: AvroSchema): Map<number, string> {
  const out = new Map<number, string>();
  if (typeof schema === 'object' && !Array.isArray(schema) && schema.type === 'record') {
    for (const f of (schema as { fields: Rec[] }).fields) {
      if (typeof f['field-id'] === 'number') out.set(f['field-id'], f.name as string);
    }
  }
  return out;
}

function recordOf(t: AvroSchema): AvroSchema {
  const b = Array.isArray(t) ? t.find((x) => x !== 'null') : t;
  return b as AvroSchema;
}

async function readAvroFile(
  location: string,
  resolvePath: PathResolver,
  what: string,
): Promise<ReturnType<typeof readContainer> & { file: string }> {
  const at = fileAt(location, resolvePath);
  const file = at.path;
  const buf = Buffer.from(
    await readBytes(
      at,
      () => new IcebergReadError(`${what} does not exist: ${file}`),
      (e) => new IcebergReadError(`Cannot read ${what} ${file}: ${e.message}`),
    ),
  );
  const where = `${what} ${file}`;
  try {
    return { ...readContainer(buf, where), file };
  } catch (e) {
    // Some reader messages already start with the file; say it once.
    const msg = (e as Error).message.replace(`${where}: `, '');
    throw new IcebergReadError(`Corrupt ${where}: ${msg}`);
  }
}

const getter =
  (names: Map<number, string>, rec: Rec, file: string) =>
  (id: number, required = true): unknown => {
    const name = names.get(id);
    const v = name === undefined ? undefined : rec[name];
    if ((v === undefined || v === null) && required)
      throw new IcebergReadError(`${file}: required field ${id} is missing`);
    return v ?? null;
  };
const bigOrNull = (v: unknown): bigint | null => (v === null ? null : BigInt(v as bigint));

export async function readManifestList(location: string, resolvePath: PathResolver): Promise<ManifestFile[]> {
  const c = await readAvroFile(location, resolvePath, 'manifest list');
  const names = namesById(c.schema);
  return c.records.map((r) => {
    const g = getter(names, r, c.file);
    return {
      manifestPath: g(500) as string,
      manifestLength: BigInt(g(501) as bigint),
      partitionSpecId: Number(g(502)),
      content: Number(g(517, false) ?? 0),
      sequenceNumber: BigInt((g(515, false) as bigint | null) ?? 0n),
      minSequenceNumber: BigInt((g(516, false) as bigint | null) ?? 0n),
      addedSnapshotId: BigInt(g(503) as bigint),
      addedFilesCount: Number(g(504, false) ?? 0),
      existingFilesCount: Number(g(505, false) ?? 0),
      deletedFilesCount: Number(g(506, false) ?? 0),
      addedRowsCount: BigInt((g(512, false) as bigint | null) ?? 0n),
      existingRowsCount: BigInt((g(513, false) as bigint | null) ?? 0n),
      deletedRowsCount: BigInt((g(514, false) as bigint | null) ?? 0n),
    };
  });
}

export async function readManifest(
  location: string,
  resolvePath: PathResolver,
): Promise<{ entries: ManifestEntry[]; metadata: Record<string, string> }> {
  const c = await readAvroFile(location, resolvePath, 'manifest');
  const names = namesById(c.schema);
  const dfName = names.get(2);
  const dfField = (c.schema as { fields: Rec[] }).fields.find((f) => f.name === dfName);
  if (!dfField) throw new IcebergReadError(`${c.file}: manifest has no data_file (field id 2)`);
  const dfNames = namesById(recordOf(dfField.type as AvroSchema));
  const entries = c.records.map((r) => {
    const g = getter(names, r, c.file);
    const d = getter(dfNames, g(2) as Rec, c.file);
    return {
      status: Number(g(0)),
      snapshotId: bigOrNull(g(1, false)),
      sequenceNumber: bigOrNull(g(3, false)),
      fileSequenceNumber: bigOrNull(g(4, false)),
      dataFile: {
        content: Number(d(134, false) ?? 0),
        filePath: d(100) as string,
        fileFormat: d(101) as string,
        recordCount: BigInt(d(103) as bigint),
        fileSizeInBytes: BigInt(d(104) as bigint),
        columnSizes: mapFrom(d(108, false)),
        valueCounts: mapFrom(d(109, false)),
        nullValueCounts: mapFrom(d(110, false)),
        splitOffsets: d(132, false) as bigint[] | null,
      },
    };
  });
  return { entries, metadata: c.metadata };
}
