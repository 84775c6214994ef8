/**
 * User-written SQL conditions and update values for DELETE / UPDATE / MERGE, made safe to run:
 * a hand-written parser for a small expression subset, bound to the table schema, re-rendered for
 * DuckDB from the tree (never from the user's text), plus file pruning from Delta statistics. Pure:
 * no I/O and no dependencies, so it also runs in the browser.
 */
export type {
  ArithOp,
  CastTarget,
  Column,
  CompareOp,
  Expr,
  FunctionName,
  Literal,
  SqlType,
} from './ast';
export { columnsOf } from './ast';
export { resolveColumn } from './bind';
export { ExpressionError } from './errors';
export { MAX_LENGTH } from './lexer';
export { ALLOWED_FUNCTIONS, checkPredicateSyntax, MAX_DEPTH, parsePredicate, parseUpdateExpression } from './parser';
export { canMatch, type FileStatsView } from './prune';
export { renderExpression, renderSql } from './render';
