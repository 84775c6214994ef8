/**
 * The Delta log actions as the Delta protocol (PROTOCOL.md in delta-io/delta) defines them, with the key
 * order delta-rs 1.6.x writes, so a commit we write reads like one delta-rs wrote. Pure: no I/O.
 */

export interface Protocol {
  minReaderVersion: number;
  minWriterVersion: number;
  readerFeatures?: string[];
  writerFeatures?: string[];
}

export interface Format {
  provider: string;
  options: Record<string, string>;
}

export interface Metadata {
  id: string;
  name?: string | null;
  description?: string | null;
  format: Format;
  schemaString: string;
  partitionColumns: string[];
  createdTime?: number | null;
  configuration: Record<string, string | null>;
}

export interface DeletionVectorDescriptor {
  storageType: string;
  pathOrInlineDv: string;
  offset?: number;
  sizeInBytes: number;
  cardinality: number;
}

export interface Add {
  path: string;
  partitionValues: Record<string, string | null>;
  size: number;
  modificationTime: number;
  dataChange: boolean;
  stats?: string | null;
  tags?: Record<string, string | null> | null;
  deletionVector?: DeletionVectorDescriptor | null;
  baseRowId?: number | null;
  defaultRowCommitVersion?: number | null;
  clusteringProvider?: string | null;
}

export interface Remove {
  path: string;
  dataChange: boolean;
  deletionTimestamp?: number | null;
  extendedFileMetadata?: boolean | null;
  partitionValues?: Record<string, string | null> | null;
  size?: number | null;
  stats?: string | null;
  tags?: Record<string, string | null> | null;
  deletionVector?: DeletionVectorDescriptor | null;
}

export interface Txn {
  appId: string;
  version: number;
  lastUpdated?: number | null;
}

/** A domain's configuration (Delta protocol "Domain Metadata"); the last action per domain wins. */
export interface DomainMetadata {
  domain: string;
  configuration: string;
  removed: boolean;
  [key: string]: unknown;
}

export type CommitInfo = Record<string, unknown>;

export type Action =
  | { protocol: Protocol }
  | { metaData: Metadata }
  | { add: Add }
  | { remove: Remove }
  | { txn: Txn }
  | { commitInfo: CommitInfo }
  | { cdc: Record<string, unknown> }
  | { domainMetadata: Record<string, unknown> };

/** Copies `obj`'s keys in `order`; `nullKeys` are written as explicit nulls when absent, others are skipped. */
function ordered<T extends object>(obj: T, order: readonly (keyof T)[], nullKeys: readonly (keyof T)[] = []) {
  const out: Record<string, unknown> = {};
  for (const k of order) {
    const v = obj[k];
    if (v !== undefined) out[k as string] = v;
    else if (nullKeys.includes(k)) out[k as string] = null;
  }
  return out;
}

const ADD_ORDER = [
  'path',
  'partitionValues',
  'size',
  'modificationTime',
  'dataChange',
  'stats',
  'tags',
  'deletionVector',
  'baseRowId',
  'defaultRowCommitVersion',
  'clusteringProvider',
] as const satisfies readonly (keyof Add)[];
const REMOVE_ORDER = [
  'path',
  'dataChange',
  'deletionTimestamp',
  'extendedFileMetadata',
  'partitionValues',
  'size',
  'stats',
  'tags',
  'deletionVector',
] as const satisfies readonly (keyof Remove)[];
const METADATA_ORDER = [
  'id',
  'name',
  'description',
  'format',
  'schemaString',
  'partitionColumns',
  'createdTime',
  'configuration',
] as const satisfies readonly (keyof Metadata)[];

/** One action as the JSON line delta-rs writes for it. */
export function actionToJson(a: Action): string {
  if ('add' in a) {
    return JSON.stringify({
      add: ordered(a.add, ADD_ORDER, ['tags', 'baseRowId', 'defaultRowCommitVersion', 'clusteringProvider']),
    });
  }
  if ('remove' in a) return JSON.stringify({ remove: ordered(a.remove, REMOVE_ORDER) });
  if ('metaData' in a)
    return JSON.stringify({ metaData: ordered(a.metaData, METADATA_ORDER, ['name', 'description']) });
  if ('protocol' in a) {
    return JSON.stringify({
      protocol: ordered(a.protocol, ['minReaderVersion', 'minWriterVersion', 'readerFeatures', 'writerFeatures']),
    });
  }
  if ('txn' in a) return JSON.stringify({ txn: ordered(a.txn, ['appId', 'version', 'lastUpdated']) });
  return JSON.stringify(a);
}

/**
 * The bytes of a commit file: actions joined by "\n" with no trailing newline, commitInfo first
 * and app transactions last, as delta-rs 1.6 writes them.
 */
export function serializeCommit(actions: readonly Action[]): string {
  const info = actions.filter((a) => 'commitInfo' in a);
  const txns = actions.filter((a) => 'txn' in a);
  const rest = actions.filter((a) => !('commitInfo' in a) && !('txn' in a));
  return [...info, ...rest, ...txns].map(actionToJson).join('\n');
}
