/**
 * Checkpoints. Read: classic and multi-part Parquet checkpoints (the v1 spec), and v2 checkpoints, classic- or
 * UUID-named, in Parquet or JSON, whose `checkpointMetadata` names their version and whose `sidecar` actions point
 * at Parquet files in `_delta_log/_sidecars/` holding the adds and removes. Written: single-part classic v1
 * checkpoints. Parquet is read through DuckDB. A checkpoint holds protocol, metaData, txn, live adds and unexpired
 * tombstones.
 */
import { randomUUID } from 'node:crypto';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TableState } from '../../../kernel/delta/log/replay';
import { type Action, actionToJson } from '../../../kernel/delta/protocol/actions';
import { deletedFileRetentionMs } from '../../../kernel/delta/protocol/config';
import { LogFormatError, validateAction } from '../../../kernel/delta/protocol/validate';
import type { ObjectStore } from '../../../storage/object-store';
import { fromLogPath } from '../../parquet/data-file-paths';
import { sqlList, sqlString, withConnection } from '../../parquet/duck';
import {
  defaultCheckpointCacheDir,
  entryKey,
  fileIdentity,
  type ParsedCheckpoint,
  readCachedCheckpoint,
  type SidecarIdentity,
  writeCachedCheckpoint,
} from './checkpoint-cache';
import { type CheckpointFiles, checkpointKey, LAST_CHECKPOINT_KEY, type LastCheckpoint, LOG_DIR } from './listing';

/** The columns of a checkpoint's top-level file; a sidecar holds only `add` and `remove`. */
const ACTION_COLUMNS = [
  'protocol',
  'metaData',
  'txn',
  'domainMetadata',
  'add',
  'remove',
  'checkpointMetadata',
  'sidecar',
] as const;
const SIDECAR_DIR = `${LOG_DIR}_sidecars/`;

/** Drops nulls a Parquet struct carries for absent optional fields, and the parsed-stats extras. */
function dropNulls(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null || k === 'partitionValues_parsed' || k === 'stats_parsed') continue;
    out[k] = x;
  }
  return out;
}

/**
 * Parsed checkpoints kept per process, keyed like the disk cache (location, version, each file's size and etag):
 * reloading a table then costs a listing and the newer commits.
 */
const memory = new Map<string, ParsedCheckpoint>();
const MEMORY_ENTRIES = 16;

export interface ReadCheckpointOptions {
  /** A folder for the disk cache of parsed checkpoints (outside every table), or null for none. */
  cacheDir?: string | null;
}

/** The identity of a file on `store`, or null when it is gone or the store gives no etag. */
async function identityOf(store: ObjectStore, key: string): Promise<string | null> {
  const meta = await store.head(key);
  return meta ? fileIdentity(meta) : null;
}

/**
 * The checkpoint's actions: from this process's memory, else from the disk cache, else parsed from its files (and
 * then remembered in both). Files without an identity (a store with no etag) are always parsed.
 */
export async function readCheckpoint(
  store: ObjectStore,
  cp: CheckpointFiles,
  options: ReadCheckpointOptions = {},
): Promise<Action[]> {
  const identities = await Promise.all(cp.keys.map((k) => identityOf(store, k)));
  if (identities.some((i) => i === null)) return (await parseCheckpoint(store, cp)).actions;
  const key = entryKey(store.location, cp.version, identities as string[]);
  const sidecarIdentity = (k: string) => identityOf(store, k);
  const unchanged = async (sidecars: SidecarIdentity[]) =>
    (await Promise.all(sidecars.map((s) => sidecarIdentity(s.key)))).every((id, i) => id === sidecars[i]?.identity);
  const cacheDir = options.cacheDir === undefined ? defaultCheckpointCacheDir() : options.cacheDir;
  let entry = memory.get(key) ?? (cacheDir ? await readCachedCheckpoint(cacheDir, store.location, key) : null);
  // Sidecars are named by the top-level file, not keyed by it: a kept entry counts only while they are the same.
  if (entry && !(await unchanged(entry.sidecars))) entry = null;
  if (!entry) {
    const parsed = await parseCheckpoint(store, cp);
    const ids = await Promise.all(parsed.sidecars.map(sidecarIdentity));
    // A sidecar without an identity could not be checked later: such a checkpoint is not kept anywhere.
    if (ids.some((i) => i === null)) return parsed.actions;
    entry = {
      sidecars: parsed.sidecars.map((k, i) => ({ key: k, identity: ids[i] as string })),
      actions: parsed.actions,
    };
    if (cacheDir) await writeCachedCheckpoint(cacheDir, store.location, key, entry);
  }
  if (memory.size >= MEMORY_ENTRIES) memory.delete(memory.keys().next().value as string);
  memory.set(key, entry);
  return entry.actions;
}

/** What one checkpoint file (or set of parts) holds: actions, and for the v2 spec its version and sidecars. */
interface CheckpointContent {
  actions: Action[];
  /** `checkpointMetadata.version` of every checkpointMetadata action found (the v2 spec has exactly one). */
  declaredVersions: number[];
  /** Object keys of the sidecar files. */
  sidecars: string[];
}

/** The checkpoint's files as errors name them: with the table's location. */
const named = (store: ObjectStore, keys: readonly string[]) => keys.map((k) => `${store.location}/${k}`).join(', ');

/** The checkpoint's actions, and the keys of the sidecar files they came from in part. */
async function parseCheckpoint(
  store: ObjectStore,
  cp: CheckpointFiles,
): Promise<{ actions: Action[]; sidecars: string[] }> {
  const where = named(store, cp.keys);
  const top = cp.keys[0]?.endsWith('.json')
    ? await jsonCheckpoint(store, cp.keys[0])
    : await parquetCheckpoint(store, cp.keys, ACTION_COLUMNS);
  if (top.declaredVersions.some((v) => v !== cp.version)) {
    throw new LogFormatError(`${where}: checkpointMetadata says version ${top.declaredVersions.join(', ')}`);
  }
  // The UUID naming is the v2 spec's only, and a v2 checkpoint names its version in exactly one checkpointMetadata.
  if (cp.naming === 'uuid' && top.declaredVersions.length !== 1) {
    throw new LogFormatError(
      `${where}: a UUID-named checkpoint must hold one checkpointMetadata action, found ${top.declaredVersions.length}`,
    );
  }
  if (top.sidecars.length === 0) return { actions: top.actions, sidecars: [] };
  const missing = (await Promise.all(top.sidecars.map(async (k) => ((await store.head(k)) ? null : k)))).filter(
    (k) => k !== null,
  );
  if (missing.length > 0) throw new LogFormatError(`${where}: sidecar file(s) missing: ${missing.join(', ')}`);
  const files = await parquetCheckpoint(store, top.sidecars, ['add', 'remove']);
  return { actions: [...top.actions, ...files.actions], sidecars: top.sidecars };
}

/** Sorts one row of a checkpoint (an object with one action key) into `into`; `where` names it in errors. */
function collect(into: CheckpointContent, col: string, body: Record<string, unknown>, where: string): void {
  try {
    if (col === 'checkpointMetadata') {
      if (!Number.isInteger(body.version)) throw new LogFormatError('checkpointMetadata.version must be an integer');
      into.declaredVersions.push(body.version as number);
    } else if (col === 'sidecar') into.sidecars.push(sidecarKey(body));
    else {
      const a = validateAction({ [col]: body });
      if (a) into.actions.push(a);
    }
  } catch (e) {
    throw new LogFormatError(`${where}: ${(e as Error).message}`);
  }
}

/**
 * A sidecar's object key. Its path is URI-encoded and relative to `_delta_log/_sidecars/` (where the protocol
 * keeps every sidecar); an absolute URI would point outside the table, which this engine never reads.
 */
function sidecarKey(body: Record<string, unknown>): string {
  if (typeof body.path !== 'string' || body.path.length === 0) {
    throw new LogFormatError('sidecar.path must be a non-empty string');
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(body.path)) {
    throw new LogFormatError(`sidecar paths outside _delta_log/_sidecars/ are not supported: ${body.path}`);
  }
  return `${SIDECAR_DIR}${fromLogPath(body.path)}`;
}

async function parquetCheckpoint(
  store: ObjectStore,
  keys: readonly string[],
  columns: readonly string[],
): Promise<CheckpointContent> {
  const where = named(store, keys);
  const paths = await Promise.all(keys.map((k) => store.localPath(k)));
  const source = `read_parquet(${sqlList(paths)}, union_by_name=true)`;
  // One string for the whole checkpoint: turning 10,000 DuckDB values into JS strings one by one
  // costs more than the query itself. Each row holds exactly one non-null action column.
  // DuckDB's first line says what is wrong; the lines after it quote the query.
  const unreadable = (e: unknown) =>
    new LogFormatError(`${where}: unreadable checkpoint (${(e as Error).message.split('\n')[0]})`);
  const present = await withConnection(async (c) => {
    try {
      const d = await c.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
      return new Set(d.getColumns()[0] as string[]);
    } catch (e) {
      throw unreadable(e);
    }
  });
  const parts = columns.filter((col) => present.has(col)).map((col) => `'{"${col}":' || to_json(${col}) || '}'`);
  if (parts.length === 0) throw new LogFormatError(`${where}: a checkpoint without action columns`);
  // A file whose footer reads can still hold pages that do not.
  const text = await withConnection(async (c) => {
    try {
      const r = await c.runAndReadAll(`SELECT string_agg(coalesce(${parts.join(', ')}), ',') FROM ${source}`);
      return (r.getColumns()[0]?.[0] as string | null) ?? '';
    } catch (e) {
      throw unreadable(e);
    }
  });
  const content: CheckpointContent = { actions: [], declaredVersions: [], sidecars: [] };
  for (const row of JSON.parse(`[${text}]`) as Record<string, Record<string, unknown>>[]) {
    const [col, body] = Object.entries(row)[0] as [string, Record<string, unknown>];
    // Maps inside actions keep their null values (a null partition value means null).
    collect(content, col, col === 'metaData' ? body : dropNulls(body), where);
  }
  return content;
}

/** A JSON checkpoint (v2 spec, UUID-named): one action per line, as in a commit. */
async function jsonCheckpoint(store: ObjectStore, key: string): Promise<CheckpointContent> {
  const where = named(store, [key]);
  const content: CheckpointContent = { actions: [], declaredVersions: [], sidecars: [] };
  const lines = new TextDecoder().decode(await store.get(key)).split('\n');
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (e) {
      throw new LogFormatError(`${where}: line ${i + 1} is not valid JSON (${(e as Error).message})`);
    }
    const entries = row && typeof row === 'object' ? Object.entries(row) : [];
    const [col, body] = entries[0] ?? [];
    if (entries.length !== 1 || !body || typeof body !== 'object') {
      throw new LogFormatError(`${where}: line ${i + 1} must hold exactly one action`);
    }
    collect(content, col as string, body as Record<string, unknown>, `${where}: line ${i + 1}`);
  }
  return content;
}

const CHECKPOINT_COLUMNS = {
  protocol:
    'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, readerFeatures VARCHAR[], writerFeatures VARCHAR[])',
  metaData:
    'STRUCT(id VARCHAR, name VARCHAR, description VARCHAR, format STRUCT(provider VARCHAR, options MAP(VARCHAR, VARCHAR)), schemaString VARCHAR, partitionColumns VARCHAR[], createdTime BIGINT, configuration MAP(VARCHAR, VARCHAR))',
  txn: 'STRUCT(appId VARCHAR, version BIGINT, lastUpdated BIGINT)',
  add: 'STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR, tags MAP(VARCHAR, VARCHAR), deletionVector STRUCT(storageType VARCHAR, pathOrInlineDv VARCHAR, "offset" INTEGER, sizeInBytes INTEGER, cardinality BIGINT), baseRowId BIGINT, defaultRowCommitVersion BIGINT)',
  remove:
    'STRUCT(path VARCHAR, deletionTimestamp BIGINT, dataChange BOOLEAN, extendedFileMetadata BOOLEAN, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, deletionVector STRUCT(storageType VARCHAR, pathOrInlineDv VARCHAR, "offset" INTEGER, sizeInBytes INTEGER, cardinality BIGINT))',
};

/** The actions a checkpoint of `state` holds; tombstones past the retention window are dropped. */
export function checkpointActions(state: TableState, now = Date.now()): Action[] {
  const retention = deletedFileRetentionMs(state.metadata.configuration);
  const actions: Action[] = [{ protocol: state.protocol }, { metaData: state.metadata }];
  for (const txn of state.appTransactions.values()) actions.push({ txn });
  for (const add of state.files.values()) actions.push({ add: { ...add, dataChange: false } });
  for (const remove of state.tombstones.values()) {
    if ((remove.deletionTimestamp ?? now) >= now - retention)
      actions.push({ remove: { ...remove, dataChange: false } });
  }
  return actions;
}

/**
 * Writes `<version>.checkpoint.parquet` and then `_last_checkpoint`. The checkpoint file only ever
 * follows its commit, so a reader that sees it can trust it. It is parsed into the caches in between.
 */
export async function writeCheckpoint(store: ObjectStore, state: TableState): Promise<LastCheckpoint> {
  const actions = checkpointActions(state);
  const staging = await store.stagingDir();
  const jsonPath = join(staging, `${randomUUID()}.json`);
  const parquetPath = join(staging, `${randomUUID()}.parquet`);
  try {
    await writeFile(jsonPath, actions.map(actionToJson).join('\n'));
    const columns = Object.entries(CHECKPOINT_COLUMNS)
      .map(([k, t]) => `${k}: ${sqlString(t)}`)
      .join(', ');
    await withConnection((c) =>
      c.run(
        `COPY (SELECT ${Object.keys(CHECKPOINT_COLUMNS).join(', ')} FROM read_json(${sqlString(jsonPath)}, format='newline_delimited', columns={${columns}})) TO ${sqlString(parquetPath)} (FORMAT parquet, COMPRESSION snappy)`,
      ),
    );
    const sizeInBytes = (await stat(parquetPath)).size;
    await store.putFile(checkpointKey(state.version), parquetPath);
    // Read once here, before the hint names it: every process that then loads the table finds it parsed, in this
    // process's memory or (with RACELAB_CACHE_DIR, as the lab runs) in the disk cache, instead of each parsing it
    // with DuckDB the moment the hint changes under it.
    await readCheckpoint(store, { version: state.version, naming: 'classic', keys: [checkpointKey(state.version)] });
    const last: LastCheckpoint = {
      version: state.version,
      size: actions.length,
      sizeInBytes,
      numOfAddFiles: state.files.size,
    };
    await store.put(LAST_CHECKPOINT_KEY, new TextEncoder().encode(JSON.stringify(last)));
    return last;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
