/**
 * UPDATE: rewrite the files that hold matching rows, with the new values where the predicate is
 * TRUE, into new files (one per partition up to 100 MiB, as delta-rs writes them).
 */

import { assertCanWrite } from '../../../kernel/delta/protocol/features';
import { deltaToDuckType } from '../../../kernel/delta/protocol/schema';
import {
  type Expr,
  parsePredicate,
  parseUpdateExpression,
  renderExpression,
  renderSql,
  resolveColumn,
} from '../../../kernel/sql/index';
import { sqlIdent, withConnection } from '../../parquet/duck';
import { type CommitOptions, removeFor, Transaction } from '../commit/transaction';
import type { DeltaTable } from '../table';
import { type CommitHooks, commitPrepared, type OperationResult, PreparedOperation } from './prepared';
import { matchingFiles, summarize, writeTableRows } from './rewrite';
import { assertNotAppendOnly, assertRowsValid, refuseChangeDataFeed, refuseGeneratedColumns } from './table-features';

export interface UpdateSpec {
  /** Which rows; none updates every row (and records the predicate `true`, as delta-rs does). */
  predicate?: string;
  /** Column → SQL expression of the new value, e.g. `{ tip_amount: 'tip_amount + 1' }`. */
  set: Record<string, string>;
}

const TRUE_PREDICATE = 'true';

/** Writes the new files and returns the commit, ready; null when no row matches (nothing to commit). */
export async function prepareUpdate(
  table: DeltaTable,
  spec: UpdateSpec,
  options: CommitOptions = {},
): Promise<PreparedOperation | null> {
  const started = Date.now();
  const expr: Expr = parsePredicate(spec.predicate ?? TRUE_PREDICATE, table.schema);
  const assignments = Object.entries(spec.set).map(([col, text]) => {
    const field = resolveColumn(table.schema, col);
    return { field, value: parseUpdateExpression(text, table.schema, field.name) };
  });
  if (assignments.length === 0) throw new Error('update needs at least one column to set');
  // delta-rs's order (operations/update.rs L466-470): append-only first, then the protocol.
  assertNotAppendOnly(table);
  assertCanWrite(table.protocol, table.location);
  refuseChangeDataFeed(table, 'UPDATE');
  refuseGeneratedColumns(table, 'UPDATE');
  return withConnection(async (conn) => {
    const matches = await matchingFiles(conn, table, expr);
    if (matches.length === 0) return null;
    const scanned = Date.now();
    const cond = renderSql(expr);
    const replace = assignments
      .map(({ field, value }) => {
        const col = sqlIdent(field.name);
        return `CAST(CASE WHEN ${cond} THEN ${renderSql(value)} ELSE ${col} END AS ${deltaToDuckType(field.type)}) AS ${col}`;
      })
      .join(', ');
    const rel = await table.filesRelation(
      conn,
      matches.map((m) => m.add),
    );
    const source = `SELECT * REPLACE (${replace}) FROM (${rel})`;
    await assertRowsValid(conn, table, source);
    const written = await writeTableRows(conn, table, source);
    const now = Date.now();
    const updated = matches.reduce((n, m) => n + m.matched, 0);
    const total = matches.reduce((n, m) => n + m.total, 0);
    const tx = new Transaction({
      table,
      operation: 'UPDATE',
      operationParameters: {
        predicate: spec.predicate === undefined ? TRUE_PREDICATE : renderExpression(expr, 'delta-rs'),
      },
      recordReadVersion: true,
      readPredicate: expr,
      actions: [...matches.map((m) => ({ remove: removeFor(m.add, now) })), ...written.adds.map((add) => ({ add }))],
      operationMetrics: {
        num_added_files: written.adds.length,
        num_removed_files: matches.length,
        num_updated_rows: updated,
        num_copied_rows: total - updated,
        execution_time_ms: now - started,
        scan_time_ms: scanned - started,
      },
      options,
    });
    return PreparedOperation.of(tx, summarize(written, matches.length));
  });
}

export async function update(
  table: DeltaTable,
  spec: UpdateSpec,
  options: CommitOptions = {},
  hooks?: CommitHooks,
): Promise<OperationResult | null> {
  return commitPrepared(await prepareUpdate(table, spec, options), hooks);
}
