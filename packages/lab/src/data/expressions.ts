/**
 * How a user's predicate or update value enters the lab's work (a race, a forecast, a layout's
 * counts, an audit): parsed and bound by the engine against the table's schema, then run by DuckDB
 * on a row of the schema (the engine's checkExpressionRuns), so nothing starts with an expression
 * that cannot run. The person is told in the engine's words; DuckDB's own text, which quotes the
 * SQL, goes to this process's log only.
 */
import {
  checkExpressionRuns,
  type Expr,
  ExpressionError,
  parsePredicate,
  parseUpdateExpression,
  type RunCheckOptions,
  resolveColumn,
  type StructType,
} from '@racelab/engine';
import type { Conn } from './sql';

async function checkRuns(conn: Conn, schema: StructType, expr: Expr, options?: RunCheckOptions): Promise<void> {
  try {
    await checkExpressionRuns(conn, schema, expr, options);
  } catch (e) {
    if (e instanceof ExpressionError && e.cause instanceof Error) {
      console.warn(`refused: ${e.message} [DuckDB: ${e.cause.message.replaceAll('\n', ' ')}]`);
    }
    throw e;
  }
}

/** A predicate that DuckDB can run on a table of `schema`; throws ExpressionError. */
export async function runnablePredicate(conn: Conn, text: string, schema: StructType): Promise<Expr> {
  const expr = parsePredicate(text, schema);
  await checkRuns(conn, schema, expr);
  return expr;
}

/** The value of `SET column = text`, which DuckDB can compute and store in the column; throws ExpressionError. */
export async function runnableUpdateValue(conn: Conn, text: string, schema: StructType, column: string): Promise<Expr> {
  const target = resolveColumn(schema, column);
  const value = parseUpdateExpression(text, schema, target.name);
  await checkRuns(conn, schema, value, { assignTo: target });
  return value;
}
