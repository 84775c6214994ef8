/**
 * The last check before a user's expression is accepted for work: DuckDB itself binds the SQL the
 * engine renders from it, against a table of the schema, and runs it on one row of NULLs. The
 * binder in `kernel/sql/` models DuckDB's types but not every signature (round()'s digits are an INTEGER,
 * an IN list is cast to one type), and it leaves constants to DuckDB's own conversion rules
 * (`CAST('abc' AS DOUBLE)`); this catches both, so a race, forecast or audit never starts with an
 * expression that cannot run. What depends on the data is refused by the binder (casts that do not
 * hold every value of their operand's type), except overflow at the edges of a numeric type (integer
 * arithmetic, an update value beyond its column's range), which only the data can show: it fails
 * the writer that meets it, with the engine's error.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { deltaToDuckType, type StructField, type StructType } from '../../kernel/delta/protocol/schema';
import { childrenOf, columnsOf, type Expr } from '../../kernel/sql/ast';
import { ExpressionError } from '../../kernel/sql/errors';
import { renderExpression, renderSql } from '../../kernel/sql/render';
import { sqlIdent } from './duck';

export interface RunCheckOptions {
  /** An update value: the column it is written to, whose type DuckDB converts it to. */
  assignTo?: StructField;
}

interface Refusal {
  /** 'bind': DuckDB cannot type it; 'run': it fails when evaluated. */
  phase: 'bind' | 'run';
  error: Error;
}

/** One row with every column of the schema, all NULL, typed as the table's Parquet reads. */
function nullRow(schema: StructType): string {
  const columns = schema.fields.map((f) => `CAST(NULL AS ${deltaToDuckType(f.type)}) AS ${sqlIdent(f.name)}`);
  return `SELECT ${columns.length > 0 ? columns.join(', ') : 'NULL'}`;
}

/** Prepares (DuckDB binds) and runs `SELECT <sql>` over the row; the refusal, or null when it runs. */
async function refusal(conn: DuckDBConnection, row: string, sql: string): Promise<Refusal | null> {
  const select = `SELECT ${sql} FROM (${row}) AS t`;
  let prepared: Awaited<ReturnType<DuckDBConnection['prepare']>>;
  try {
    prepared = await conn.prepare(select);
  } catch (e) {
    return { phase: 'bind', error: e as Error };
  }
  try {
    await prepared.run();
    return null;
  } catch (e) {
    return { phase: 'run', error: e as Error };
  } finally {
    prepared.destroySync();
  }
}

/** The smallest part of `e` (whose own refusal is `found`) that fails on its own, with its refusal. */
async function smallest(
  conn: DuckDBConnection,
  row: string,
  e: Expr,
  found: Refusal,
): Promise<{ part: Expr; found: Refusal }> {
  for (const child of childrenOf(e)) {
    const own = await refusal(conn, row, renderSql(child));
    if (own) return smallest(conn, row, child, own);
  }
  return { part: e, found };
}

/** DuckDB's error class ("Conversion Error: …"): safe to name, unlike the rest, which quotes SQL. */
function category(error: Error): string {
  return /^([A-Z][A-Za-z ]{0,40} Error):/.exec(error.message)?.[1] ?? 'Error';
}

/** What went wrong with `part`, in the engine's words. */
function problem(part: Expr, found: Refusal): string {
  if (found.phase === 'bind') {
    switch (part.kind) {
      case 'call':
        return `DuckDB has no ${part.fn}() for these argument types`;
      case 'arith':
      case 'negate':
        return `DuckDB has no '${part.kind === 'arith' ? part.op : '-'}' for these operand types`;
      case 'compare':
      case 'in':
      case 'between':
        return 'DuckDB cannot compare these values';
      default:
        return "its types do not fit DuckDB's";
    }
  }
  const kind = category(found.error);
  const what =
    kind === 'Conversion Error'
      ? 'a value cannot be converted'
      : kind === 'Out of Range Error'
        ? 'a value is out of range'
        : `DuckDB cannot compute it (${kind.toLowerCase()})`;
  const reads = columnsOf(part);
  if (reads.length === 0) return `${what}, on every row (it reads no column)`;
  return `${what} (found on a row where ${reads.join(', ')} ${reads.length === 1 ? 'is' : 'are'} NULL)`;
}

/**
 * Throws ExpressionError when DuckDB cannot bind or evaluate `expr` on a table of `schema`; the
 * message names the smallest failing part in the engine's words. DuckDB's own text, which quotes
 * the rendered SQL, is only the error's `cause` (for a server's log), never in the message.
 */
export async function checkExpressionRuns(
  conn: DuckDBConnection,
  schema: StructType,
  expr: Expr,
  options: RunCheckOptions = {},
): Promise<void> {
  const target = options.assignTo;
  const what = target ? 'update expression' : 'predicate';
  const row = nullRow(schema);
  const sql = target ? `CAST(${renderSql(expr)} AS ${deltaToDuckType(target.type)})` : renderSql(expr);
  const found = await refusal(conn, row, sql);
  if (!found) return;
  const own = target ? await refusal(conn, row, renderSql(expr)) : found;
  if (!own && target) {
    throw new ExpressionError(
      `${what} cannot run on this table: its value does not fit column '${target.name}' (${deltaToDuckType(target.type)}): ${problem(expr, found)}`,
      expr.pos,
      { cause: found.error },
    );
  }
  const culprit = await smallest(conn, row, expr, own ?? found);
  throw new ExpressionError(
    `${what} cannot run on this table: '${renderExpression(culprit.part)}' at position ${culprit.part.pos}: ${problem(culprit.part, culprit.found)}`,
    culprit.part.pos,
    { cause: found.error },
  );
}
