/**
 * A run's own table, for the lab's base tables and for tables of the user's own alike: version 0 of the copy is
 * the source's latest snapshot. Its protocol and metaData (the configuration merged with the race's
 * properties), every live add as the log has it (deletion vector, stats, tags, baseRowId,
 * defaultRowCommitVersion; dataChange true, as a table's first commit says), every txn and every
 * domainMetadata. The files are copied cheaply: hard links on a local disk (Parquet and deletion vector files
 * are never modified, so sharing inodes is safe), server-side copies on S3 (the stores' copyIn). O(files), not
 * O(bytes), and nothing a run does can reach the source: new files get new names, the log is the run's own,
 * and the source is only ever read. A full copy (`fullCopy`) copies the bytes instead, for a job that may rewrite
 * files in place. A local table's deletion vectors at absolute paths (inside the table or the
 * roots: copyRefusals refuses any elsewhere) are linked into the copy and named there, so the copy is read like
 * any table, through its own folder; on S3 they stay in the table's bucket, which the copy reads too.
 */
import { createHash, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Action,
  type Add,
  buildCommitInfo,
  commit,
  DeltaTable,
  dvFileLocation,
  dvSource,
  fromLogPath,
  isS3Url,
  type ObjectStore,
  storeFor,
} from '@racelab/engine';
import { CopyRefusedError, copyRefusals } from './copy-refusals';

export interface CopyOptions {
  /** Table properties of the copy, over the source's own. */
  properties?: Record<string, string>;
  /** Where absolute deletion vector paths may lie besides the table's own folder (LAB_ROOTS). */
  roots?: readonly string[];
  /** The source as the user named it, for refusals (default: its last path segment). */
  display?: string;
  /**
   * Copy every file's bytes instead of linking it (local copies): for a command writer's job, which may rewrite a
   * file in place, where a hard link would carry the change into the source.
   */
  fullCopy?: boolean;
}

/** Copies in flight at once: hard links are cheap, S3 copies are round trips. */
const PARALLEL = 16;

/** Every batch settles before a failure is thrown: nothing is still being linked into a copy that is removed. */
async function inBatches<T>(items: readonly T[], each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) {
    const failed = (await Promise.allSettled(items.slice(i, i + PARALLEL).map(each))).find(
      (r) => r.status === 'rejected',
    );
    if (failed) throw failed.reason;
  }
}

/** A file to copy: from which store, under which key, to which key of the copy. */
interface CopiedFile {
  from: ObjectStore;
  key: string;
  to: string;
}

/**
 * A local add's `p` vector moved into the copy: its file, and the add naming it at its place in the copy. A
 * vector outside the table's folder goes under a folder named for its URI, so two such files never collide.
 */
function ownVector(
  table: DeltaTable,
  add: Add,
  dest: string,
  roots: readonly string[],
): { add: Add; file: CopiedFile } | null {
  const dv = add.deletionVector;
  if (dv?.storageType !== 'p' || isS3Url(table.location)) return null;
  const at = dvFileLocation(table.location, dv.pathOrInlineDv, roots);
  if (at === null) return null;
  const to =
    at.in === 'table'
      ? at.key
      : `deletion_vectors_of_roots/${createHash('sha256').update(dv.pathOrInlineDv).digest('hex').slice(0, 16)}/${basename(at.key)}`;
  const from = at.in === 'table' ? table.store : storeFor(at.root);
  const uri = pathToFileURL(join(resolve(dest), ...to.split('/'))).href;
  return { add: { ...add, deletionVector: { ...dv, pathOrInlineDv: uri } }, file: { from, key: at.key, to } };
}

/** A file's own bytes at its key of the copy (the source store checks the key is the table's). */
async function copyBytes(c: CopiedFile, dest: string): Promise<void> {
  if (isS3Url(dest)) throw new Error('a full copy is made on a local disk only');
  const target = join(resolve(dest), ...c.to.split('/'));
  await mkdir(dirname(target), { recursive: true });
  await copyFile(await c.from.localPath(c.key), target, constants.COPYFILE_EXCL);
}

/** Copies `source`'s latest snapshot to `dest` (a new folder or s3:// prefix) as version 0; throws CopyRefusedError. */
export async function freshCopy(source: string, dest: string, options: CopyOptions = {}): Promise<void> {
  const table = await DeltaTable.open(source, { ...(options.roots && { roots: options.roots }) });
  const display = options.display ?? source.replace(/\/+$/, '').split('/').at(-1) ?? 'the table';
  const problems = await copyRefusals(table, {
    runsDir: dest,
    display,
    ...(options.roots && { roots: options.roots }),
  });
  if (problems.length > 0) throw new CopyRefusedError(problems);
  const roots = options.roots ?? [];
  const files: Add[] = [];
  // Data files, and the files deletion vectors live in (one file often holds the vectors of many data files).
  const copied = new Map<string, CopiedFile>();
  const own = (key: string) => copied.set(key, { from: table.store, key, to: key });
  for (const f of table.activeFiles()) {
    own(fromLogPath(f.path));
    const dv = f.deletionVector ? dvSource(f.deletionVector) : null;
    if (dv?.kind === 'relative') own(dv.key);
    const moved = ownVector(table, f, dest, roots);
    if (moved) copied.set(moved.file.to, moved.file);
    files.push(moved?.add ?? f);
  }
  const to = storeFor(dest);
  const folderOf = (base: string, key: string) => storeFor(join(base, ...key.split('/').slice(0, -1)));
  await inBatches([...copied.values()], async (c) => {
    if (options.fullCopy) return copyBytes(c, dest);
    if (c.to === c.key) return to.copyIn(c.from, c.key);
    // The root's store refuses a key that is or passes through a symlink below the root; then the file's folder links it.
    await c.from.head(c.key);
    await folderOf(resolve(dest), c.to).copyIn(folderOf(c.from.location, c.key), basename(c.key));
  });
  // A new id: a copy is another table (it starts its own log at version 0), and anything that keys state by
  // table id (a streaming checkpoint, a catalog, a cache) must not take one for the other. Nothing a writer
  // decides depends on the id, so the race is the same with it renewed.
  const metaData = {
    ...table.metadata,
    id: randomUUID(),
    createdTime: Date.now(),
    configuration: { ...table.configuration, ...options.properties },
  };
  const actions: Action[] = [
    {
      commitInfo: buildCommitInfo({
        operation: 'CREATE TABLE',
        operationParameters: { mode: 'ErrorIfExists', location: display },
        customMetadata: { writer: 'lab-copy', sourceVersion: table.version },
      }),
    },
    { protocol: table.protocol },
    { metaData },
    ...files.map((add) => ({ add: { ...add, dataChange: true } })),
    ...[...table.appTransactions().values()].map((txn) => ({ txn })),
    ...[...table.domainMetadata().values()].map((domainMetadata) => ({ domainMetadata })),
  ];
  await commit({ store: to, readVersion: -1, actions });
}
