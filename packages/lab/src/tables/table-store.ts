/**
 * The lab's tables wherever they live: a local folder or `s3://bucket/path`. Base tables are built
 * locally (DuckDB writes them) and, for an S3 table root, copied up once per data set; runs then
 * copy them server-side. Removing a run's table and counting its Parquet objects work the same on
 * both.
 */
import { rm } from 'node:fs/promises';
import { isS3Url, leftoverKind, storeFor } from '@racelab/engine';
import type { BaseTables } from './base-tables';

/** A location under `root`, which is a folder or an s3:// prefix. */
export const under = (root: string, ...parts: string[]) =>
  isS3Url(root) ? [root.replace(/\/+$/, ''), ...parts].join('/') : [root, ...parts].join('/');

const keysOf = async (location: string) => (await storeFor(location).list('', { recursive: true })).map((o) => o.key);

/** Every object of the table, data and log (what writers leave while at work left out). */
async function objectsOf(location: string): Promise<string[]> {
  return (await keysOf(location)).filter((k) => leftoverKind(k) === null);
}

export interface ObjectCounts {
  /** Parquet data files, named by the log or not (zombies). */
  dataFiles: number;
  /** Files in `_staging/` folders and log files under a temporary name: what a killed writer leaves. */
  stagingFiles: number;
  tempLogFiles: number;
}

/** The table's objects counted by kind, from one listing. */
export async function countObjects(location: string): Promise<ObjectCounts> {
  const counts: ObjectCounts = { dataFiles: 0, stagingFiles: 0, tempLogFiles: 0 };
  for (const key of await keysOf(location)) {
    const kind = leftoverKind(key);
    if (kind === 'staging') counts.stagingFiles++;
    else if (kind === 'temp') counts.tempLogFiles++;
    else if (key.endsWith('.parquet') && !key.startsWith('_delta_log/')) counts.dataFiles++;
  }
  return counts;
}

export async function removeTable(location: string): Promise<void> {
  if (!isS3Url(location)) {
    await rm(location, { recursive: true, force: true });
    return;
  }
  const store = storeFor(location);
  for (const key of await objectsOf(location)) await store.delete(key);
}

/**
 * The base tables under an S3 root: `<root>/base/<dataset>/{flat,partitioned}`, uploaded from the
 * local ones when the marker there does not name this data set (so a changed data set is never
 * mixed with an old upload).
 */
export async function baseTablesAt(
  root: string,
  local: BaseTables,
  datasetKey: string,
  marker: string,
): Promise<BaseTables> {
  const dir = under(root, 'base', datasetKey);
  const store = storeFor(dir);
  const wanted = new TextEncoder().encode(marker);
  const there = await store.get('done.txt').catch(() => null);
  const tables = { flat: under(dir, 'flat'), partitioned: under(dir, 'partitioned') };
  if (there && Buffer.from(there).equals(Buffer.from(wanted))) return tables;
  for (const kind of ['flat', 'partitioned'] as const) {
    const from = storeFor(local[kind]);
    const to = storeFor(tables[kind]);
    for (const key of await objectsOf(local[kind])) await to.copyIn(from, key);
  }
  await store.put('done.txt', wanted);
  return tables;
}
