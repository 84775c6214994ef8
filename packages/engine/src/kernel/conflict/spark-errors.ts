/**
 * The exceptions Delta Spark's conflict checker throws, as data: the public class, the error class
 * and the text `getMessage` returns, `[<errorClass>] <template filled>` (error templates of
 * delta-io/delta v4.4.0, `delta-error-classes.json` and `DeltaErrors.scala`). Two slips of the
 * originals are kept on purpose, because users search for the exact text: the lower-case "a
 * concurrent" after "detected." in the append message, and "deleted data that was read" in the
 * delete/delete one. The messages are compared with the real Delta Spark 4.4.0's by the lab's Spark comparison.
 */
import type { CommitInfo } from '../delta/protocol/actions';

/** The page every conflict message links to (`DeltaErrors.generateDocsLink`). */
export const SPARK_CONCURRENCY_DOCS = 'https://docs.delta.io/latest/concurrency-control.html';

export interface SparkError {
  /** The class a JVM caller catches; PySpark raises `delta.exceptions.<simple name>`. */
  exceptionClass: string;
  /** The error class in brackets at the start of the message; null for a plain-text exception. */
  errorClass: string | null;
  message: string;
}

const CLASS_PREFIX = 'io.delta.exceptions.';

/** One file-level conflict's template: the main sentence, then what the winner did to the data. */
const FILE_CONFLICTS = {
  ConcurrentAppend: {
    errorClass: 'DELTA_CONCURRENT_APPEND',
    main: (op: string, table: string, v: number) =>
      `Transaction conflict detected. a concurrent ${op} added data to table ${table} committed at version ${v}.`,
    did: 'modified data',
    tail: 'that should have been read',
  },
  ConcurrentDeleteRead: {
    errorClass: 'DELTA_CONCURRENT_DELETE_READ',
    main: (op: string, table: string, v: number) =>
      `Transaction conflict detected, a concurrent ${op} deleted data from table ${table} (committed at version ${v}) that this transaction read.`,
    did: 'deleted data',
    tail: 'that was read',
  },
  ConcurrentDeleteDelete: {
    errorClass: 'DELTA_CONCURRENT_DELETE_DELETE',
    main: (op: string, table: string, v: number) =>
      `Transaction conflict detected, a concurrent ${op} deleted data from table ${table} (committed at version ${v}) that this transaction attempted to delete.`,
    did: 'deleted data',
    tail: 'that was read',
  },
} as const;

export type SparkFileConflict = keyof typeof FILE_CONFLICTS;

/**
 * ConcurrentAppend / DeleteRead / DeleteDelete. They name the winner's operation (`TRANSACTION`
 * when it wrote no commitInfo) but, unlike the others, carry no copy of its commitInfo. `partition`
 * is the hint `[col=value, …]`, or null for the WITHOUT_HINT sub-class.
 */
export function sparkFileConflictError(
  kind: SparkFileConflict,
  winner: { version: number; commitInfo: CommitInfo | undefined },
  tableName: string,
  partition: string | null,
): SparkError {
  const t = FILE_CONFLICTS[kind];
  const errorClass = `${t.errorClass}.${partition === null ? 'WITHOUT_HINT' : 'WITH_PARTITION_HINT'}`;
  const where = partition === null ? '' : ` in the partition ${partition}`;
  const sub = `The concurrent operation ${t.did}${where} ${t.tail} by this operation. Please retry the operation. Refer to ${SPARK_CONCURRENCY_DOCS} for more information.`;
  return {
    exceptionClass: `${CLASS_PREFIX}${kind}Exception`,
    errorClass,
    message: `[${errorClass}] ${t.main(operationOf(winner.commitInfo), tableName, winner.version)} ${sub}`,
  };
}

export type SparkCommitConflict = 'MetadataChanged' | 'ProtocolChanged' | 'ConcurrentTransaction';

/** Metadata, protocol and app-id conflicts: these quote the winner's commitInfo after the reason. */
export function sparkCommitConflictError(
  kind: SparkCommitConflict,
  winner: { version: number; commitInfo: CommitInfo | undefined },
  tableName: string,
): SparkError {
  const conflicting = winner.commitInfo
    ? `\nConflicting commit: ${sparkCommitInfoJson(winner.commitInfo, winner.version)}`
    : '';
  const reason = {
    MetadataChanged: `MetadataChangedException: The metadata of the Delta table ${tableName} has been changed by a concurrent update. Please try the operation again.`,
    ProtocolChanged: `ProtocolChangedException: The protocol version of the Delta table has been changed by a concurrent update. ${
      winner.commitInfo && winner.version === 0
        ? 'This happens when multiple writers are writing to an empty directory. Creating the table ahead of time will avoid this conflict. '
        : ''
    }`,
    ConcurrentTransaction:
      'ConcurrentTransactionException: This error occurs when multiple streaming queries are using the same checkpoint to write into this table. Did you run multiple instances of the same streaming query at the same time?',
  }[kind];
  const errorClass = {
    MetadataChanged: 'DELTA_METADATA_CHANGED',
    ProtocolChanged: 'DELTA_PROTOCOL_CHANGED',
    ConcurrentTransaction: 'DELTA_CONCURRENT_TRANSACTION',
  }[kind];
  return {
    exceptionClass: `${CLASS_PREFIX}${kind}Exception`,
    errorClass,
    message: `[${errorClass}] ${reason}${conflicting}\nRefer to ${SPARK_CONCURRENCY_DOCS} for more details.`,
  };
}

/** Both transactions write the same metadata domain: a plain-text exception without an error class. */
export function sparkDomainConflictError(domain: string): SparkError {
  return {
    exceptionClass: `${CLASS_PREFIX}ConcurrentTransactionException`,
    errorClass: null,
    message: `A conflicting metadata domain ${domain} is added.`,
  };
}

/** `delta.isolationLevel` holds a value Spark cannot parse: thrown before any conflict check. */
export function sparkInvalidIsolationLevelError(value: string | null): SparkError {
  return {
    exceptionClass: 'org.apache.spark.sql.delta.DeltaIllegalArgumentException',
    errorClass: 'DELTA_INVALID_ISOLATION_LEVEL',
    message: `[DELTA_INVALID_ISOLATION_LEVEL] invalid isolation level '${value}'`,
  };
}

function operationOf(commitInfo: CommitInfo | undefined): string {
  return typeof commitInfo?.operation === 'string' ? commitInfo.operation : 'TRANSACTION';
}

/** Spark's `CommitInfo` fields in declaration order: the order its JSON quotes them in. */
const COMMIT_INFO_FIELDS = [
  'inCommitTimestamp',
  'timestamp',
  'userId',
  'userName',
  'operation',
  'operationParameters',
  'job',
  'notebook',
  'clusterId',
  'readVersion',
  'isolationLevel',
  'isBlindAppend',
  'operationMetrics',
  'userMetadata',
  'tags',
  'engineInfo',
  'txnId',
  'lastManifestCommit',
] as const;

/** Maps Spark types as Map[String, String]: a number another engine wrote comes back as text. */
const STRING_MAPS = new Set(['operationMetrics', 'tags']);

/**
 * The winner's commitInfo as Spark quotes it: read into Spark's CommitInfo (fields it does not know,
 * such as delta-rs's `clientVersion`, are dropped) with the version filled in, and written back
 * without absent or null fields.
 */
export function sparkCommitInfoJson(commitInfo: CommitInfo, version: number): string {
  const out: Record<string, unknown> = { version };
  for (const field of COMMIT_INFO_FIELDS) {
    const v = commitInfo[field];
    if (v === undefined || v === null) continue;
    out[field] =
      STRING_MAPS.has(field) && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]))
        : v;
  }
  return JSON.stringify(out);
}
