/**
 * MERGE on a key: source rows whose key matches a target row replace it (update), the others are
 * inserted. Like delta-rs, the read predicate is an early filter derived from the source (the key's
 * range, plus partition values the source has only one of); only without one does the merge count
 * as having read the whole table.
 */
import { rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { assertCanWrite } from '../../../kernel/delta/protocol/features';
import type { DeltaType } from '../../../kernel/delta/protocol/schema';
import { type Expr, parsePredicate, renderExpression, resolveColumn } from '../../../kernel/sql/index';
import { fromLogPath } from '../../parquet/data-file-paths';
import { sqlIdent, withConnection } from '../../parquet/duck';
import { conformToSchema, type DataSource, prepareSource, SchemaMismatchError } from '../../parquet/source';
import { type CommitOptions, removeFor, Transaction } from '../commit/transaction';
import type { DeltaTable } from '../table';
import { type CommitHooks, commitPrepared, type OperationResult, PreparedOperation } from './prepared';
import { summarize, writeTableRows } from './rewrite';
import { assertRowsValid, refuseChangeDataFeed, refuseGeneratedColumns } from './table-features';

export interface MergeSpec {
  /** Key columns: a target row matches a source row when all are equal. */
  on: string[];
}

export class MergeError extends Error {
  override name = 'MergeError';
}

/** A literal the expression parser reads back, for a value DuckDB returned; null when it has no safe form. */
function literal(value: unknown, type: DeltaType): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = String(value).replaceAll("'", "''");
  if (type === 'date') return `DATE '${text}'`;
  if (type === 'timestamp' || type === 'timestamp_ntz') return `TIMESTAMP '${text}'`;
  return type === 'string' ? `'${text}'` : null;
}

/** The column as DuckDB should hand it to JS: numbers stay numbers, times become text. */
function asJs(column: string, type: DeltaType): string {
  if (type === 'timestamp' || type === 'timestamp_ntz') return `strftime(${sqlIdent(column)}, '%Y-%m-%d %H:%M:%S.%f')`;
  return type === 'date' ? `CAST(${sqlIdent(column)} AS VARCHAR)` : sqlIdent(column);
}

/** delta-rs's early filter: each key's range in the source, and partition values the source has one of. */
async function earlyFilter(
  conn: DuckDBConnection,
  table: DeltaTable,
  src: string,
  keys: string[],
): Promise<Expr | null> {
  const parts: string[] = [];
  for (const k of keys) {
    const { type } = resolveColumn(table.schema, k);
    const r = await conn.runAndReadAll(`SELECT min(${asJs(k, type)}), max(${asJs(k, type)}) FROM ${src}`);
    const [lo, hi] = (r.getRows()[0] ?? []).map((v) => literal(v, type));
    if (lo && hi) parts.push(`${sqlIdent(k)} BETWEEN ${lo} AND ${hi}`);
  }
  for (const p of table.partitionColumns) {
    const { type } = resolveColumn(table.schema, p);
    const values = (await conn.runAndReadAll(`SELECT DISTINCT ${asJs(p, type)} FROM ${src}`)).getRows();
    const v = values.length === 1 ? literal(values[0]?.[0], type) : null;
    if (v) parts.push(`${sqlIdent(p)} = ${v}`);
  }
  return parts.length > 0 ? parsePredicate(parts.join(' AND '), table.schema) : null;
}

export async function prepareMerge(
  table: DeltaTable,
  data: DataSource,
  spec: MergeSpec,
  options: CommitOptions = {},
): Promise<PreparedOperation | null> {
  const started = Date.now();
  if (spec.on.length === 0) throw new MergeError('merge needs at least one key column');
  const keys = spec.on.map((k) => resolveColumn(table.schema, k).name);
  // MERGE checks the protocol (merge/mod.rs L1884-1895) but not append-only: only its removes are refused, at commit.
  assertCanWrite(table.protocol, table.location);
  refuseChangeDataFeed(table, 'MERGE');
  refuseGeneratedColumns(table, 'MERGE');
  const staging = await table.store.stagingDir();
  try {
    return await withConnection(async (conn) => {
      const prepared = await prepareSource(conn, data, staging);
      try {
        const src = conformToSchema(prepared, table.schema);
        await conn.run(`CREATE TEMP TABLE __merge_src AS ${src}`);
        const keyList = keys.map(sqlIdent).join(', ');
        const dup = await conn.runAndReadAll(
          `SELECT count(*) FROM (SELECT ${keyList} FROM __merge_src GROUP BY ALL HAVING count(*) > 1)`,
        );
        if (Number(dup.getColumns()[0]?.[0] ?? 0) > 0) {
          throw new MergeError(
            'Cannot perform Merge as multiple source rows matched and attempted to modify the same target row in the Delta table.',
          );
        }
        const sourceRows = Number(
          (await conn.runAndReadAll('SELECT count(*) FROM __merge_src')).getColumns()[0]?.[0] ?? 0,
        );
        if (sourceRows === 0) return null;
        const filter = await earlyFilter(conn, table, '__merge_src', keys);
        const candidates = filter ? table.filesMatching(filter) : table.activeFiles();
        const on = keys.map((k) => `t.${sqlIdent(k)} = s.${sqlIdent(k)}`).join(' AND ');
        const rel = await table.filesRelation(conn, candidates, { withFile: true });
        const hits = await conn.runAndReadAll(
          `SELECT t.__file, count(*) FROM (${rel}) t SEMI JOIN __merge_src s ON ${on} GROUP BY t.__file`,
        );
        const byKey = new Map(candidates.map((a) => [fromLogPath(a.path), a]));
        const touched = (hits.getRows() as [string, bigint][])
          .map(([file]) => byKey.get(file))
          .filter((a) => a !== undefined)
          .sort((a, b) => (a.path < b.path ? -1 : 1));
        const updated = (hits.getRows() as [string, bigint][]).reduce((n, [, c]) => n + Number(c), 0);
        const kept = await table.filesRelation(conn, touched);
        const output = `SELECT * FROM (${kept}) t ANTI JOIN __merge_src s ON ${on} UNION ALL SELECT * FROM __merge_src`;
        await assertRowsValid(conn, table, output);
        const written = await writeTableRows(conn, table, output);
        const now = Date.now();
        const params: Record<string, unknown> = {
          ...(filter && { predicate: renderExpression(filter, 'delta-rs') }),
          mergePredicate: keys.map((k) => `target.${k} = source.${k}`).join(' AND '),
          matchedPredicates: [{ actionType: 'update' }],
          notMatchedPredicates: [{ actionType: 'insert' }],
          notMatchedBySourcePredicates: [],
        };
        const tx = new Transaction({
          table,
          operation: 'MERGE',
          operationParameters: params,
          recordReadVersion: true,
          readPredicate: filter,
          readWholeTable: filter === null,
          actions: [...touched.map((f) => ({ remove: removeFor(f, now) })), ...written.adds.map((add) => ({ add }))],
          operationMetrics: {
            num_source_rows: sourceRows,
            num_target_rows_inserted: sourceRows - updated,
            num_target_rows_updated: updated,
            num_target_rows_copied: written.rows - sourceRows,
            num_output_rows: written.rows,
            num_target_files_added: written.adds.length,
            num_target_files_removed: touched.length,
            execution_time_ms: now - started,
          },
          options,
        });
        return PreparedOperation.of(tx, summarize(written, touched.length));
      } finally {
        await conn.run('DROP TABLE IF EXISTS __merge_src');
        await prepared.dispose();
      }
    });
  } catch (e) {
    if (e instanceof SchemaMismatchError) throw new MergeError(`merge source does not fit the table: ${e.message}`);
    throw e;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export async function merge(
  table: DeltaTable,
  data: DataSource,
  spec: MergeSpec,
  options: CommitOptions = {},
  hooks?: CommitHooks,
): Promise<OperationResult | null> {
  return commitPrepared(await prepareMerge(table, data, spec, options), hooks);
}
