/**
 * DELETE: drop the files whose every row matches, rewrite the others that hold a match with only the
 * rows to keep (`(pred) IS NOT TRUE`: rows where the predicate is NULL stay, as in delta-rs). No
 * commit when nothing matches.
 */

import { assertCanWrite } from '../../../kernel/delta/protocol/features';
import { columnsOf, parsePredicate, renderExpression, renderSql } from '../../../kernel/sql/index';
import { withConnection } from '../../parquet/duck';
import { type CommitOptions, removeFor, Transaction } from '../commit/transaction';
import type { DeltaTable } from '../table';
import { type CommitHooks, commitPrepared, type OperationResult, PreparedOperation } from './prepared';
import { type FileMatch, matchingFiles, summarize, writeTableRows } from './rewrite';
import { assertNotAppendOnly, refuseChangeDataFeed } from './table-features';

export async function prepareDelete(
  table: DeltaTable,
  predicate?: string,
  options: CommitOptions = {},
): Promise<PreparedOperation | null> {
  const started = Date.now();
  // delta-rs's order (operations/delete.rs L296-299): append-only first, even when nothing would match.
  assertNotAppendOnly(table);
  assertCanWrite(table.protocol, table.location);
  if (predicate === undefined) {
    // No predicate: every file goes, nothing is read, and the parameters are empty.
    const files = table.activeFiles();
    if (files.length === 0) return null;
    const now = Date.now();
    const tx = new Transaction({
      table,
      operation: 'DELETE',
      operationParameters: {},
      recordReadVersion: true,
      readPredicate: null,
      actions: files.map((f) => ({ remove: removeFor(f, now) })),
      operationMetrics: { num_added_files: 0, num_removed_files: files.length, execution_time_ms: now - started },
      options,
    });
    return PreparedOperation.of(tx, summarize(null, files.length));
  }
  const expr = parsePredicate(predicate, table.schema);
  // Only a predicate on partition columns drops whole files with no change data (delete.rs L443-444, L475-538).
  if (!columnsOf(expr).every((c) => table.partitionColumns.includes(c))) refuseChangeDataFeed(table, 'DELETE');
  return withConnection(async (conn) => {
    const matches = await matchingFiles(conn, table, expr);
    if (matches.length === 0) return null;
    const scanned = Date.now();
    const partly: FileMatch[] = matches.filter((m) => m.matched < m.total);
    const written =
      partly.length > 0
        ? await writeTableRows(
            conn,
            table,
            `SELECT * FROM (${await table.filesRelation(
              conn,
              partly.map((m) => m.add),
            )}) WHERE (${renderSql(expr)}) IS NOT TRUE`,
          )
        : null;
    const now = Date.now();
    const deleted = matches.reduce((n, m) => n + m.matched, 0);
    const tx = new Transaction({
      table,
      operation: 'DELETE',
      operationParameters: { predicate: renderExpression(expr, 'delta-rs') },
      recordReadVersion: true,
      readPredicate: expr,
      actions: [
        ...matches.map((m) => ({ remove: removeFor(m.add, now) })),
        ...(written?.adds ?? []).map((add) => ({ add })),
      ],
      operationMetrics: {
        num_added_files: written?.adds.length ?? 0,
        num_removed_files: matches.length,
        num_deleted_rows: deleted,
        num_copied_rows: written?.rows ?? 0,
        execution_time_ms: now - started,
        scan_time_ms: scanned - started,
        rewrite_time_ms: now - scanned,
      },
      options,
    });
    return PreparedOperation.of(tx, summarize(written, matches.length));
  });
}

export async function deleteRows(
  table: DeltaTable,
  predicate?: string,
  options: CommitOptions = {},
  hooks?: CommitHooks,
): Promise<OperationResult | null> {
  return commitPrepared(await prepareDelete(table, predicate, options), hooks);
}
