/**
 * Two renderings of a bound expression. Both are built only from the tree, never from the user's
 * text: identifiers and string literals are re-quoted and re-escaped here, so what reaches DuckDB is
 * exactly what was checked.
 */
import { deltaToDuckType } from '../delta/protocol/schema';
import type { Expr, Literal } from './ast';
import { formatTimestamp } from './date-time';
import { isKeyword } from './lexer';

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A literal as DuckDB reads it; `human` spells a UTC instant as the parser reads it back (TIMESTAMP '…+00'). */
function renderLiteral(e: Literal, human = false): string {
  switch (e.sqlType) {
    case 'number':
      return e.text;
    case 'string':
      return `'${e.value.replaceAll("'", "''")}'`;
    case 'boolean':
      return e.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    case 'date':
      return `DATE '${e.value}'`;
    case 'timestamp':
      // An explicit +00 keeps the instant independent of the DuckDB session's TimeZone.
      if (!e.utc) return `TIMESTAMP '${formatTimestamp(e.value)}'`;
      return `${human ? 'TIMESTAMP' : 'TIMESTAMPTZ'} '${formatTimestamp(e.value)}+00'`;
  }
}

/** DuckDB SQL with every identifier double-quoted and every operator parenthesised. */
export function renderSql(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return renderLiteral(e);
    case 'column':
      return quoteIdent(e.name);
    case 'negate':
      return `(-${renderSql(e.operand)})`;
    case 'arith':
    case 'compare':
      return `(${renderSql(e.left)} ${e.op} ${renderSql(e.right)})`;
    case 'logical':
      return `(${e.operands.map(renderSql).join(` ${e.op} `)})`;
    case 'not':
      return `(NOT ${renderSql(e.operand)})`;
    case 'isNull':
      return `(${renderSql(e.operand)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'isBool':
      return `(${renderSql(e.operand)} IS ${e.negated ? 'NOT ' : ''}${e.value ? 'TRUE' : 'FALSE'})`;
    case 'in':
      return `(${renderSql(e.operand)} ${e.negated ? 'NOT ' : ''}IN (${e.list.map((l) => renderLiteral(l)).join(', ')}))`;
    case 'between':
      return `(${renderSql(e.operand)} ${e.negated ? 'NOT ' : ''}BETWEEN ${renderLiteral(e.low)} AND ${renderLiteral(e.high)})`;
    case 'cast':
      return `CAST(${renderSql(e.operand)} AS ${deltaToDuckType(e.to)})`;
    case 'call':
      return `${e.fn}(${e.args.map(renderSql).join(', ')})`;
  }
}

/** Binding strength, loosest first, as the parser reads it. */
function precedence(e: Expr): number {
  switch (e.kind) {
    case 'logical':
      return e.op === 'OR' ? 1 : 2;
    case 'not':
      return 3;
    case 'compare':
    case 'isNull':
    case 'isBool':
    case 'in':
    case 'between':
      return 4;
    case 'arith':
      return e.op === '+' || e.op === '-' ? 5 : 6;
    case 'negate':
      return 7;
    default:
      return 8;
  }
}

const BARE_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** DataFusion's unparser leaves an identifier bare only when it is lower case. */
const DATAFUSION_BARE_IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * How an expression is spelled: `human` as a person writes it (logs, messages); `delta-rs` as delta-rs 1.6.6
 * records a predicate in commitInfo (DataFusion's SQL unparser, measured): an identifier with upper case quoted
 * (`"VendorID" = 1`), a cast to DATE as `arrow_cast(x, 'Date32')`, a DATE literal as `'2025-02-14'::date`.
 */
export type ExpressionStyle = 'human' | 'delta-rs';

/**
 * The expression with only the parentheses it needs (plus one around a NOT's operand, for
 * readability), in `style`. The human spelling parses back to the same tree.
 */
export function renderExpression(e: Expr, style: ExpressionStyle = 'human'): string {
  const child = (c: Expr, min: number): string => {
    const text = renderExpression(c, style);
    return precedence(c) < min ? `(${text})` : text;
  };
  const deltaRs = style === 'delta-rs';
  switch (e.kind) {
    case 'literal':
      return deltaRs && e.sqlType === 'date' ? `'${e.value}'::date` : renderLiteral(e, true);
    case 'column':
      if (deltaRs) return DATAFUSION_BARE_IDENT.test(e.name) && !isKeyword(e.name) ? e.name : quoteIdent(e.name);
      return BARE_IDENT.test(e.name) && !isKeyword(e.name) ? e.name : quoteIdent(e.name);
    case 'negate':
      return `-${child(e.operand, 8)}`;
    case 'arith': {
      const p = precedence(e);
      return `${child(e.left, p)} ${e.op} ${child(e.right, p + 1)}`;
    }
    case 'logical':
      return e.operands.map((o) => child(o, precedence(e) + 1)).join(` ${e.op} `);
    case 'compare':
      return `${child(e.left, 5)} ${e.op} ${child(e.right, 5)}`;
    case 'not':
      return `NOT ${child(e.operand, 7)}`;
    case 'isNull':
      return `${child(e.operand, 5)} IS ${e.negated ? 'NOT ' : ''}NULL`;
    case 'isBool':
      return `${child(e.operand, 5)} IS ${e.negated ? 'NOT ' : ''}${e.value ? 'TRUE' : 'FALSE'}`;
    case 'in':
      return `${child(e.operand, 5)} ${e.negated ? 'NOT ' : ''}IN (${e.list.map((l) => renderLiteral(l, true)).join(', ')})`;
    case 'between':
      return `${child(e.operand, 5)} ${e.negated ? 'NOT ' : ''}BETWEEN ${renderLiteral(e.low, true)} AND ${renderLiteral(e.high, true)}`;
    case 'cast':
      if (deltaRs && e.to === 'date') return `arrow_cast(${renderExpression(e.operand, style)}, 'Date32')`;
      return `CAST(${renderExpression(e.operand, style)} AS ${deltaToDuckType(e.to)})`;
    case 'call':
      return `${e.fn}(${e.args.map((a) => renderExpression(a, style)).join(', ')})`;
  }
}
