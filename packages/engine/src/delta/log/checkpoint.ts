/**
 * Classic Parquet checkpoints: read (single- and multi-part) and write (single-part), through
 * DuckDB. A checkpoint holds protocol, metaData, txn, live adds and unexpired tombstones.
 */
import { randomUUID } from 'node:crypto';
import { rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sqlList, sqlString, withConnection } from '../../data/duck';
import type { ObjectStore } from '../../storage/object-store';
import { type Action, actionToJson } from '../protocol/actions';
import { deletedFileRetentionMs } from '../protocol/config';
import { LogFormatError, validateAction } from '../protocol/validate';
import { type CheckpointFiles, checkpointKey, LAST_CHECKPOINT_KEY, type LastCheckpoint } from './listing';
import type { TableState } from './replay';

const ACTION_COLUMNS = ['protocol', 'metaData', 'txn', 'add', 'remove'] as const;

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
 * Checkpoint files never change once written, so their parsed actions are kept per process
 * (keyed by location, name and size): reloading a table then costs a listing and the newer commits.
 */
const cache = new Map<string, Action[]>();
const CACHE_ENTRIES = 16;

export async function readCheckpoint(store: ObjectStore, cp: CheckpointFiles): Promise<Action[]> {
  const sizes = await Promise.all(cp.keys.map((k) => store.head(k)));
  const cacheKey = `${store.location}|${cp.keys.map((k, i) => `${k}:${sizes[i]?.size}`).join('|')}`;
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const actions = await parseCheckpoint(store, cp);
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, actions);
  return actions;
}

async function parseCheckpoint(store: ObjectStore, cp: CheckpointFiles): Promise<Action[]> {
  const paths = await Promise.all(cp.keys.map((k) => store.localPath(k)));
  // One string for the whole checkpoint: turning 10,000 DuckDB values into JS strings one by one
  // costs more than the query itself. Each row holds exactly one non-null action column.
  const present = await withConnection(async (c) => {
    try {
      const d = await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlList(paths)})`);
      return new Set(d.getColumns()[0] as string[]);
    } catch (e) {
      throw new LogFormatError(`${cp.keys.join(', ')}: unreadable checkpoint (${(e as Error).message})`);
    }
  });
  const parts = ACTION_COLUMNS.filter((col) => present.has(col)).map((col) => `'{"${col}":' || to_json(${col}) || '}'`);
  if (parts.length === 0) throw new LogFormatError(`${cp.keys[0]}: a checkpoint without action columns`);
  const text = await withConnection(async (c) => {
    const r = await c.runAndReadAll(
      `SELECT string_agg(coalesce(${parts.join(', ')}), ',') FROM read_parquet(${sqlList(paths)})`,
    );
    return (r.getColumns()[0]?.[0] as string | null) ?? '';
  });
  const actions: Action[] = [];
  for (const row of JSON.parse(`[${text}]`) as Record<string, Record<string, unknown>>[]) {
    const [col, body] = Object.entries(row)[0] as [string, Record<string, unknown>];
    // Maps inside actions keep their null values (a null partition value means null).
    const cleaned = col === 'metaData' ? body : dropNulls(body);
    try {
      const a = validateAction({ [col]: cleaned });
      if (a) actions.push(a);
    } catch (e) {
      throw new LogFormatError(`${cp.keys[0]}: ${(e as Error).message}`);
    }
  }
  return actions;
}

const CHECKPOINT_COLUMNS = {
  protocol:
    'STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, readerFeatures VARCHAR[], writerFeatures VARCHAR[])',
  metaData:
    'STRUCT(id VARCHAR, name VARCHAR, description VARCHAR, format STRUCT(provider VARCHAR, options MAP(VARCHAR, VARCHAR)), schemaString VARCHAR, partitionColumns VARCHAR[], createdTime BIGINT, configuration MAP(VARCHAR, VARCHAR))',
  txn: 'STRUCT(appId VARCHAR, version BIGINT, lastUpdated BIGINT)',
  add: 'STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, modificationTime BIGINT, dataChange BOOLEAN, stats VARCHAR, tags MAP(VARCHAR, VARCHAR), baseRowId BIGINT, defaultRowCommitVersion BIGINT)',
  remove:
    'STRUCT(path VARCHAR, deletionTimestamp BIGINT, dataChange BOOLEAN, extendedFileMetadata BOOLEAN, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT)',
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
 * follows its commit, so a reader that sees it can trust it.
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
