/**
 * optimize.compact: in each partition, files smaller than the target size are packed into bins (the
 * largest first, a new bin when the next file would overflow it); every bin of two or more files is
 * rewritten as one file. Adds and removes carry dataChange=false, so readers and the delete-vs-read
 * check ignore the rewrite, while the concurrent-append check still sees the new files. Deletion vectors do not
 * change the bins (delta-rs build_compaction_plan, operations/optimize.rs L1196-1283): a rewritten bin keeps only
 * live rows and its removes carry the vectors; a file alone in its bin keeps its vector.
 */

import { compactionBins } from '../../../kernel/delta/compaction-bins';
import type { Action, Add } from '../../../kernel/delta/protocol/actions';
import { targetFileSize } from '../../../kernel/delta/protocol/config';
import { assertCanWrite } from '../../../kernel/delta/protocol/features';
import { UnsupportedFeatureError } from '../../../kernel/delta/protocol/unsupported';
import { DEFAULT_MAX_RETRIES } from '../../../kernel/retry/policy';
import { withConnection } from '../../parquet/duck';
import { type CommitOptions, removeFor, Transaction } from '../commit/transaction';
import type { DeltaTable } from '../table';
import { type CommitHooks, commitPrepared, type OperationResult, PreparedOperation } from './prepared';
import { summarize, writeTableRows } from './rewrite';

export interface OptimizeOptions extends CommitOptions {
  /** Defaults to `delta.targetFileSize`, else 100 MiB. */
  targetSize?: number;
}

function fileStats(files: readonly Add[]) {
  const sizes = files.map((f) => f.size);
  const total = sizes.reduce((a, b) => a + b, 0);
  return JSON.stringify({
    avg: files.length ? total / files.length : 0,
    max: Math.max(0, ...sizes),
    min: files.length ? Math.min(...sizes) : 0,
    totalFiles: files.length,
    totalSize: total,
  });
}

export async function prepareOptimize(
  table: DeltaTable,
  options: OptimizeOptions = {},
): Promise<PreparedOperation | null> {
  // delta-rs refuses column-mapped tables before its protocol check (operations/optimize.rs L416-425).
  if (table.columnMapping !== 'none') {
    throw new UnsupportedFeatureError("Column mapping is not supported for write operation 'OPTIMIZE' yet");
  }
  assertCanWrite(table.protocol, table.location);
  const target = options.targetSize ?? targetFileSize(table.configuration);
  const bins = compactionBins(table.activeFiles(), target);
  if (bins.length === 0) return null;
  return withConnection(async (conn) => {
    const actions: Action[] = [];
    const added: Add[] = [];
    const removed: Add[] = bins.flat();
    let rows = 0;
    let bytes = 0;
    const now = Date.now();
    for (const bin of bins) {
      const written = await writeTableRows(conn, table, await table.filesRelation(conn, bin));
      for (const add of written.adds) added.push({ ...add, dataChange: false });
      rows += written.rows;
      bytes += written.bytes;
    }
    actions.push(...removed.map((f) => ({ remove: removeFor(f, now, false) })), ...added.map((add) => ({ add })));
    const tx = new Transaction({
      table,
      operation: 'OPTIMIZE',
      operationParameters: { targetSize: String(target), predicate: '[]' },
      recordReadVersion: true,
      readPredicate: null,
      changesData: false,
      actions,
      operationMetrics: {
        numFilesAdded: added.length,
        numFilesRemoved: removed.length,
        filesAdded: fileStats(added),
        filesRemoved: fileStats(removed),
        partitionsOptimized: new Set(bins.map((b) => JSON.stringify(b[0]?.partitionValues))).size,
        numBatches: bins.length,
        totalConsideredFiles: table.activeFiles().length,
        totalFilesSkipped: table.activeFiles().length - removed.length,
        preserveInsertionOrder: true,
      },
      // delta-rs gives OPTIMIZE DEFAULT_RETRIES plus the commits it already made, whatever the user asked.
      options: { ...options, maxCommitRetries: DEFAULT_MAX_RETRIES },
    });
    return PreparedOperation.of(tx, {
      ...summarize(null, removed.length),
      filesAdded: added.length,
      rowsWritten: rows,
      bytesWritten: bytes,
    });
  });
}

export async function optimize(
  table: DeltaTable,
  options: OptimizeOptions = {},
  hooks?: CommitHooks,
): Promise<OperationResult | null> {
  return commitPrepared(await prepareOptimize(table, options), hooks);
}
