/**
 * A Delta table as of one version: its protocol, metadata, schema and active files, and the DuckDB
 * relation its rows are read through.
 */
import { resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Add, DomainMetadata, Metadata, Protocol, Remove, Txn } from '../../kernel/delta/protocol/actions';
import {
  type ColumnMappingMode,
  checkColumnMapping,
  columnMappingMode,
  logicalPartitionValues,
  logicalStats,
} from '../../kernel/delta/protocol/column-mapping';
import { assertCanRead } from '../../kernel/delta/protocol/features';
import { parseSchemaString, type StructType } from '../../kernel/delta/protocol/schema';
import { parseStats } from '../../kernel/delta/protocol/stats';
import { canMatch, type Expr, type FileStatsView, parsePredicate, renderSql } from '../../kernel/sql/index';
import { LocalObjectStore } from '../../storage/local-store';
import type { ObjectStore } from '../../storage/object-store';
import { isS3Url, S3ObjectStore } from '../../storage/s3-store';
import { fromLogPath } from '../parquet/data-file-paths';
import { withConnection } from '../parquet/duck';
import { assertVectorsReadable } from './dv/locate';
import { type LoadedState, loadState } from './log/snapshot';
import { type ScanFile, type ScanOptions, scanRelation } from './read/scan';

export type TableLocation = string | ObjectStore;

/** A path is a local table; `s3://bucket/path` a table on S3 (settings from the AWS environment). */
export function storeFor(location: TableLocation): ObjectStore {
  if (typeof location !== 'string') return location;
  return isS3Url(location) ? new S3ObjectStore(location) : new LocalObjectStore(resolve(location));
}

export interface OpenOptions {
  /** Time travel: the version to load instead of the latest. */
  version?: number;
  /**
   * A folder (outside every table) caching parsed checkpoints, so a fresh process opens a big table quickly;
   * null for none. Default: the `RACELAB_CACHE_DIR` environment variable, none when unset.
   */
  checkpointCacheDir?: string | null;
  /**
   * Folders besides the table's own where its deletion vectors at absolute paths may lie (a user's table roots).
   * A vector anywhere else is refused, unread (dv/locate.ts). Default: none, only the table's folder (or bucket).
   */
  roots?: readonly string[];
}

/** A predicate as text (parsed against the table's schema) or already parsed. */
export type PredicateInput = string | Expr;

export class DeltaTable {
  readonly schema: StructType;
  /** `delta.columnMapping.mode` as the protocol lets it count: files, partition values and stats use physical names. */
  readonly columnMapping: ColumnMappingMode;

  private constructor(
    readonly store: ObjectStore,
    readonly state: LoadedState,
    /** Where besides its own folder the table may read deletion vectors at absolute paths (OpenOptions.roots). */
    readonly roots: readonly string[],
  ) {
    this.schema = parseSchemaString(state.metadata.schemaString);
    this.columnMapping = columnMappingMode(state.protocol, state.metadata.configuration ?? {});
    checkColumnMapping(this.schema, this.columnMapping);
  }

  static async open(location: TableLocation, options: OpenOptions = {}): Promise<DeltaTable> {
    const store = storeFor(location);
    const cache = options.checkpointCacheDir === undefined ? {} : { cacheDir: options.checkpointCacheDir };
    const state = await loadState(store, options.version, cache);
    const roots = options.roots ?? [];
    // Every path the log names is judged before anything it names is read: data files, sidecars and `u` vectors
    // are keys the store confines to the table; a `p` vector is judged here, and again when it is read.
    assertVectorsReadable(store.location, state.files.values(), roots);
    return new DeltaTable(store, state, roots);
  }

  get location(): string {
    return this.store.location;
  }
  get version(): number {
    return this.state.version;
  }
  get protocol(): Protocol {
    return this.state.protocol;
  }
  get metadata(): Metadata {
    return this.state.metadata;
  }
  get partitionColumns(): string[] {
    return this.state.metadata.partitionColumns;
  }
  get configuration(): Record<string, string | null> {
    return this.state.metadata.configuration ?? {};
  }

  activeFiles(): Add[] {
    return [...this.state.files.values()];
  }
  tombstones(): Remove[] {
    return [...this.state.tombstones.values()];
  }
  appTransactions(): Map<string, Txn> {
    return this.state.appTransactions;
  }
  /** The live domain metadata, by domain (what a copy of the table carries over). */
  domainMetadata(): Map<string, DomainMetadata> {
    return this.state.domainMetadata;
  }

  parsePredicate(predicate: PredicateInput): Expr {
    return typeof predicate === 'string' ? parsePredicate(predicate, this.schema) : predicate;
  }

  /** The active files that may hold rows matching `predicate`, by partition values and stats. */
  filesMatching(predicate?: PredicateInput): Add[] {
    const files = this.activeFiles();
    if (predicate === undefined) return files;
    const expr = this.parsePredicate(predicate);
    return files.filter((f) => canMatch(expr, this.fileStats(f)));
  }

  /**
   * A file's partition values and stats under the logical column names (the log keys them by physical name
   * when column mapping is on), as predicates, layouts and people name the columns.
   */
  fileStats(file: Add): FileStatsView {
    return {
      partitionValues: this.partitionValues(file),
      ...logicalStats(parseStats(file.stats) ?? {}, this.schema, this.columnMapping),
    };
  }

  /** A file's partition values keyed by the logical names of the partition columns. */
  partitionValues(file: Add): Record<string, string | null> {
    return logicalPartitionValues(file.partitionValues, this.schema, this.partitionColumns, this.columnMapping);
  }

  /**
   * Runs `build(relation)` over the rows of this version (restricted to files that may match the
   * predicate, and filtered by it). The relation is engine-built SQL; callers compose engine SQL only.
   */
  async query<T = Record<string, unknown>>(
    build: (relation: string) => string,
    options: { predicate?: PredicateInput; conn?: DuckDBConnection } = {},
  ): Promise<T[]> {
    const run = async (conn: DuckDBConnection) => {
      const relation = await this.relation(conn, options.predicate);
      const reader = await conn.runAndReadAll(build(relation));
      return reader.getRowObjectsJS() as T[];
    };
    return options.conn ? run(options.conn) : withConnection(run);
  }

  /** The SQL relation of this version's rows, optionally filtered by a predicate. */
  async relation(conn: DuckDBConnection, predicate?: PredicateInput): Promise<string> {
    const expr = predicate === undefined ? undefined : this.parsePredicate(predicate);
    const rel = await this.filesRelation(conn, this.filesMatching(expr));
    return expr ? `SELECT * FROM (${rel}) WHERE ${renderSql(expr)}` : rel;
  }

  /** The rows of some of this version's files; with `withFile`, a `__file` column names each row's file key. */
  async filesRelation(conn: DuckDBConnection, files: readonly Add[], options: ScanOptions = {}): Promise<string> {
    assertCanRead(this.protocol, this.location);
    const scan: ScanFile[] = files.map((f) => ({
      key: fromLogPath(f.path),
      partitionValues: this.partitionValues(f),
      deletionVector: f.deletionVector,
    }));
    return scanRelation(conn, this.store, this.schema, this.partitionColumns, scan, {
      ...options,
      columnMapping: this.columnMapping,
      dvRoots: this.roots,
    });
  }

  async count(predicate?: PredicateInput): Promise<number> {
    const [row] = await this.query<{ n: bigint }>((rel) => `SELECT count(*) AS n FROM (${rel})`, {
      ...(predicate !== undefined && { predicate }),
    });
    return Number(row?.n ?? 0);
  }

  /** Every row as a plain object (small tables, tests, the demo). */
  async rows(predicate?: PredicateInput): Promise<Record<string, unknown>[]> {
    return this.query((rel) => `SELECT * FROM (${rel})`, { ...(predicate !== undefined && { predicate }) });
  }
}
