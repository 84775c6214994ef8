/**
 * Iceberg v2 table metadata as this package reads and writes it. Snapshot ids are BigInt everywhere
 * (they are 63-bit); every other number fits a JS number. Keys we do not model are kept as they are
 * so a commit never drops what another writer put there.
 */

export type IcebergPrimitive =
  | 'boolean'
  | 'int'
  | 'long'
  | 'float'
  | 'double'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'string'
  | 'uuid'
  | 'binary'
  | `decimal(${number}, ${number})`
  | `fixed[${number}]`;

export interface SchemaField {
  id: number;
  name: string;
  /** Primitive types only: the lab's tables are flat. Nested types are read through but not written. */
  type: IcebergPrimitive | Record<string, unknown>;
  required: boolean;
  doc?: string;
}

export interface IcebergSchema {
  type: 'struct';
  fields: SchemaField[];
  'schema-id': number;
  'identifier-field-ids'?: number[];
}

export interface Snapshot {
  'snapshot-id': bigint;
  'parent-snapshot-id'?: bigint;
  'sequence-number': number;
  'timestamp-ms': number;
  'manifest-list': string;
  summary: Record<string, string> & { operation: string };
  'schema-id'?: number;
}

export interface SnapshotRef {
  'snapshot-id': bigint;
  type: 'branch' | 'tag';
  [k: string]: unknown;
}

export interface TableMetadata {
  'format-version': number;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  schemas: IcebergSchema[];
  'current-schema-id': number;
  'partition-specs': { 'spec-id': number; fields: Record<string, unknown>[] }[];
  'default-spec-id': number;
  'last-partition-id': number;
  'sort-orders': { 'order-id': number; fields: Record<string, unknown>[] }[];
  'default-sort-order-id': number;
  properties: Record<string, string>;
  'current-snapshot-id'?: bigint;
  snapshots: Snapshot[];
  'snapshot-log': { 'snapshot-id': bigint; 'timestamp-ms': number }[];
  'metadata-log': { 'metadata-file': string; 'timestamp-ms': number }[];
  refs: Record<string, SnapshotRef>;
  [k: string]: unknown;
}

/** `namespace.table`; the namespace may itself contain dots (the last dot splits). */
export interface TableIdentifier {
  namespace: string;
  name: string;
}

export function parseIdentifier(id: string): TableIdentifier {
  const dot = id.lastIndexOf('.');
  if (dot <= 0 || dot === id.length - 1)
    throw new Error(`Invalid table identifier ${JSON.stringify(id)}: expected "namespace.table"`);
  return { namespace: id.slice(0, dot), name: id.slice(dot + 1) };
}

export function formatIdentifier(id: TableIdentifier): string {
  return `${id.namespace}.${id.name}`;
}

/** pyiceberg's exception for a lost race or a failed requirement; the only error a commit retries. */
export class CommitFailedException extends Error {
  override name = 'CommitFailedException';
}

/** A table, catalog row or file that cannot be read as Iceberg; the message names the file or row. */
export class IcebergReadError extends Error {
  override name = 'IcebergReadError';
}

export class NoSuchTableError extends Error {
  override name = 'NoSuchTableError';
}

export class TableAlreadyExistsError extends Error {
  override name = 'TableAlreadyExistsError';
}
