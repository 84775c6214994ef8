/**
 * A run's own table, for the lab's base tables and for tables of the user's own alike: version 0 of the copy is
 * the source's latest snapshot. Its protocol and metaData (the configuration merged with the race's
 * properties), every live add as the log has it (deletion vector, stats, tags, baseRowId,
 * defaultRowCommitVersion; dataChange true, as a table's first commit says), every txn and every
 * domainMetadata. The files are copied cheaply: hard links on a local disk (Parquet and deletion vector files
 * are never modified, so sharing inodes is safe), server-side copies on S3 (the stores' copyIn). O(files), not
 * O(bytes), and nothing a run does can reach the source: new files get new names, the log is the run's own,
 * and the source is only ever read.
 */
import { randomUUID } from 'node:crypto';
import { type Action, buildCommitInfo, commit, DeltaTable, dvSource, fromLogPath, storeFor } from '@racelab/engine';
import { CopyRefusedError, copyRefusals } from './copy-refusals';

export interface CopyOptions {
  /** Table properties of the copy, over the source's own. */
  properties?: Record<string, string>;
  /** Where absolute deletion vector paths may lie besides the table's own folder (LAB_ROOTS). */
  roots?: readonly string[];
  /** The source as the user named it, for refusals (default: its last path segment). */
  display?: string;
}

/** Copies in flight at once: hard links are cheap, S3 copies are round trips. */
const PARALLEL = 16;

async function inBatches<T>(items: readonly T[], each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(each));
}

/** Copies `source`'s latest snapshot to `dest` (a new folder or s3:// prefix) as version 0; throws CopyRefusedError. */
export async function freshCopy(source: string, dest: string, options: CopyOptions = {}): Promise<void> {
  const table = await DeltaTable.open(source);
  const display = options.display ?? source.replace(/\/+$/, '').split('/').at(-1) ?? 'the table';
  const problems = await copyRefusals(table, {
    runsDir: dest,
    display,
    ...(options.roots && { roots: options.roots }),
  });
  if (problems.length > 0) throw new CopyRefusedError(problems);
  const files = table.activeFiles();
  // Data files, and the files `u` deletion vectors live in (one file often holds the vectors of many data files).
  const keys = new Set<string>();
  for (const f of files) {
    keys.add(fromLogPath(f.path));
    const dv = f.deletionVector ? dvSource(f.deletionVector) : null;
    if (dv?.kind === 'relative') keys.add(dv.key);
  }
  const to = storeFor(dest);
  await inBatches([...keys], (key) => to.copyIn(table.store, key));
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
