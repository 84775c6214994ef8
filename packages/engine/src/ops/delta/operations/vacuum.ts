/**
 * VACUUM: delete the files no version within the retention window needs: files removed from the
 * table longer ago than the retention, and files no commit ever named (the zombies a losing writer
 * leaves) once they are older than it. With files to delete, it commits `VACUUM START`, deletes,
 * and commits `VACUUM END`, as delta-rs does; a dry run (the default, as in Python) only lists them.
 *
 * It also reclaims what killed writers leave beside the table (staging folders, and files under their
 * temporary names wherever they lie: log entries, `_last_checkpoint`, data files the engine encoded
 * itself; see storage/staging.ts), by the same rule as zombies: older than the retention, and never a
 * live process's on this host. These are not table files, so the markers do not count them.
 *
 * Then it removes the folders its deletes left empty (a partition's, a random prefix's, a staging
 * folder's), the folders found empty (a writer killed between making a folder and moving its file in leaves
 * one; a live writer whose folder goes makes it again) and an empty `_staging/`, on stores that have folders;
 * never the root or the log's.
 */

import type { Add, Remove } from '../../../kernel/delta/protocol/actions';
import { deletedFileRetentionMs } from '../../../kernel/delta/protocol/config';
import { DEFAULT_MAX_RETRIES } from '../../../kernel/retry/policy';
import type { ObjectMeta, ObjectStore } from '../../../storage/object-store';
import { leftoverKind, leftoverUnit, ownerAlive, STAGING_DIR } from '../../../storage/staging';
import { fromLogPath } from '../../parquet/data-file-paths';
import { type CommitOptions, Transaction } from '../commit/transaction';
import { dvFileKey } from '../dv/locate';
import { LOG_DIR } from '../log/listing';
import type { DeltaTable } from '../table';

export interface VacuumOptions extends CommitOptions {
  /** Defaults to `delta.deletedFileRetentionDuration` (one week). */
  retentionHours?: number;
  /** Only list what would be deleted; true by default, as in delta-rs's Python API. */
  dryRun?: boolean;
  /** Refuse a retention shorter than the table's; turn off only on tables no one else writes. */
  enforceRetentionDuration?: boolean;
}

export interface VacuumResult {
  dryRun: boolean;
  /** Object keys of the files deleted (or, in a dry run, to delete). */
  files: string[];
  bytes: number;
  /** Keys of the leftovers of dead writers deleted (or to delete), and their bytes. */
  leftovers: string[];
  leftoverBytes: number;
  /** The folders the deletes left empty, removed (none in a dry run, nor on a store without folders). */
  folders: string[];
}

export class VacuumRetentionError extends Error {
  override name = 'VacuumRetentionError';
}

/** Folders and files that are not table data: the log, staging, and anything hidden. */
const isHidden = (key: string) => key.split('/').some((seg) => seg.startsWith('_') || seg.startsWith('.'));

export async function vacuum(table: DeltaTable, options: VacuumOptions = {}): Promise<VacuumResult> {
  const dryRun = options.dryRun ?? true;
  const minimumMs = deletedFileRetentionMs(table.configuration);
  const retentionMs = options.retentionHours === undefined ? minimumMs : options.retentionHours * 3_600_000;
  if ((options.enforceRetentionDuration ?? true) && retentionMs < minimumMs) {
    throw new VacuumRetentionError(
      `Invalid retention period, minimum retention for vacuum is configured to be greater than ${minimumMs / 3_600_000} hours, got ${retentionMs / 3_600_000} hours`,
    );
  }
  const now = Date.now();
  const cutoff = now - retentionMs;
  // A file kept keeps its deletion vector's file too (which no add or remove names as a path).
  const keysKept = (f: Add | Remove) => {
    const dv = f.deletionVector ? dvFileKey(table.store, f.deletionVector) : null;
    return dv === null ? [fromLogPath(f.path)] : [fromLogPath(f.path), dv];
  };
  const keep = new Set(table.activeFiles().flatMap(keysKept));
  const tombstoned = new Map<string, number>();
  for (const r of table.tombstones()) {
    const key = fromLogPath(r.path);
    if ((r.deletionTimestamp ?? 0) > cutoff) for (const k of keysKept(r)) keep.add(k);
    else tombstoned.set(key, r.deletionTimestamp ?? 0);
  }
  const files: string[] = [];
  let bytes = 0;
  const units = new Map<string, { owner: string; newest: number; files: ObjectMeta[] }>();
  for (const { key } of await table.store.list('', { recursive: true })) {
    const leftover = leftoverKind(key) !== null;
    if (!leftover && (isHidden(key) || keep.has(key))) continue;
    const meta = await table.store.head(key);
    if (!meta) continue;
    if (leftover) {
      const { unit, owner } = leftoverUnit(key);
      const u = units.get(unit) ?? { owner, newest: 0, files: [] };
      u.newest = Math.max(u.newest, meta.lastModified);
      u.files.push(meta);
      units.set(unit, u);
      continue;
    }
    // A file no commit names may belong to a writer still at work: only old ones go.
    if (!tombstoned.has(key) && meta.lastModified > cutoff) continue;
    files.push(key);
    bytes += meta.size;
  }
  files.sort();
  // A staging folder goes whole or not at all: its newest file says when its writer was last at work.
  const stale = [...units.values()].filter((u) => u.newest <= cutoff && !ownerAlive(u.owner)).flatMap((u) => u.files);
  const leftovers = stale.map((m) => m.key).sort();
  const leftoverBytes = stale.reduce((n, m) => n + m.size, 0);
  const result = { dryRun, files, bytes, leftovers, leftoverBytes, folders: [] };
  if (dryRun) return result;
  for (const key of leftovers) await table.store.delete(key);
  if (files.length > 0) await deleteTableFiles(table, files, bytes, retentionMs, minimumMs, options);
  const emptied = [...leftovers, ...files].map(parentOf);
  const empty = (await table.store.emptyFolders?.()) ?? [];
  return { ...result, folders: await removeEmptyFolders(table.store, [...emptied, ...empty]) };
}

/** Deletes table files between the `VACUUM START` and `VACUUM END` commits, as delta-rs does. */
async function deleteTableFiles(
  table: DeltaTable,
  files: string[],
  bytes: number,
  retentionMs: number,
  minimumMs: number,
  options: VacuumOptions,
): Promise<void> {
  const marker = async (
    operation: string,
    operationParameters: Record<string, unknown>,
    metrics: Record<string, unknown>,
  ) =>
    new Transaction({
      table,
      operation,
      operationParameters,
      recordReadVersion: false,
      readPredicate: null,
      changesData: false,
      actions: [],
      operationMetrics: metrics,
      options: { ...options, maxCommitRetries: options.maxCommitRetries ?? DEFAULT_MAX_RETRIES },
    }).commit();
  await marker(
    'VACUUM START',
    {
      retentionCheckEnabled: options.enforceRetentionDuration ?? true,
      defaultRetentionMillis: minimumMs,
      ...(options.retentionHours !== undefined && { specifiedRetentionMillis: retentionMs }),
    },
    { numFilesToDelete: files.length, sizeOfDataToDelete: bytes },
  );
  for (const key of files) await table.store.delete(key);
  await marker('VACUUM END', { status: 'COMPLETED' }, { numDeletedFiles: files.length, numVacuumedDirectories: 0 });
}

const parentOf = (key: string) => key.slice(0, Math.max(0, key.lastIndexOf('/')));

/**
 * Removes the `folders` that are empty now, then their parents that this empties in turn, and `_staging/` when
 * empty; never the root nor anything of the log. Returns the folders removed.
 */
async function removeEmptyFolders(store: ObjectStore, folders: string[]): Promise<string[]> {
  if (!store.removeEmptyFolder) return [];
  const log = LOG_DIR.replace(/\/$/, '');
  const removable = (f: string) => f !== '' && f !== log && !f.startsWith(LOG_DIR);
  const removed: string[] = [];
  let round = new Set([STAGING_DIR.replace(/\/$/, ''), ...folders]);
  while (round.size > 0) {
    const next = new Set<string>();
    // Deepest first: `a/b` sorts after `a`.
    for (const folder of [...round].filter(removable).sort().reverse()) {
      if (!(await store.removeEmptyFolder(folder))) continue;
      removed.push(folder);
      next.add(parentOf(folder));
    }
    round = next;
  }
  return removed.sort();
}
