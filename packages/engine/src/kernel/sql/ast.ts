/**
 * The bound expression tree. Every node is already checked against the table schema: column names
 * are canonical, and `sqlType` is the node's static type, so renderers and pruning never have to
 * guess.
 */
import type { DeltaType } from '../delta/protocol/schema';

/**
 * Static types, coarser than Delta's: all numeric Delta types combine and compare freely (as in
 * DuckDB), and `timestamp` covers both Delta `timestamp` and `timestamp_ntz`.
 */
export type SqlType = 'number' | 'string' | 'boolean' | 'date' | 'timestamp' | 'binary' | 'complex' | 'null';

interface Node {
  /** 1-based position of the token that introduced the node (an operator's own position). */
  pos: number;
}

/** `text` is the canonical JS rendering of `value`, or the digits themselves beyond 2^53. */
export interface NumberLiteral extends Node {
  kind: 'literal';
  sqlType: 'number';
  value: number;
  text: string;
}
export interface StringLiteral extends Node {
  kind: 'literal';
  sqlType: 'string';
  value: string;
}
export interface BooleanLiteral extends Node {
  kind: 'literal';
  sqlType: 'boolean';
  value: boolean;
}
export interface NullLiteral extends Node {
  kind: 'literal';
  sqlType: 'null';
  value: null;
}
/** `value` is the canonical 'YYYY-MM-DD'. */
export interface DateLiteral extends Node {
  kind: 'literal';
  sqlType: 'date';
  value: string;
}
/**
 * `value` is microseconds since 1970-01-01 00:00:00. `utc` marks a literal compared with a Delta
 * `timestamp` (instant) column: it means that UTC instant and renders as TIMESTAMPTZ.
 */
export interface TimestampLiteral extends Node {
  kind: 'literal';
  sqlType: 'timestamp';
  value: bigint;
  utc: boolean;
}
export type Literal = NumberLiteral | StringLiteral | BooleanLiteral | NullLiteral | DateLiteral | TimestampLiteral;

/** A top-level field of the table; `type` is its Delta type. */
export interface Column extends Node {
  kind: 'column';
  name: string;
  type: DeltaType;
  sqlType: SqlType;
}
export interface Negate extends Node {
  kind: 'negate';
  operand: Expr;
  sqlType: 'number';
}
export type ArithOp = '+' | '-' | '*' | '/' | '%';
export interface Arith extends Node {
  kind: 'arith';
  op: ArithOp;
  left: Expr;
  right: Expr;
  sqlType: 'number';
}
export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';
export interface Compare extends Node {
  kind: 'compare';
  op: CompareOp;
  left: Expr;
  right: Expr;
  sqlType: 'boolean';
}
/** A chain `a AND b AND c` is one node, so long chains do not make deep trees. */
export interface Logical extends Node {
  kind: 'logical';
  op: 'AND' | 'OR';
  operands: Expr[];
  sqlType: 'boolean';
}
export interface Not extends Node {
  kind: 'not';
  operand: Expr;
  sqlType: 'boolean';
}
export interface IsNull extends Node {
  kind: 'isNull';
  operand: Expr;
  negated: boolean;
  sqlType: 'boolean';
}
/** `x IS [NOT] TRUE|FALSE`: never NULL, unlike `x = TRUE`. */
export interface IsBool extends Node {
  kind: 'isBool';
  operand: Expr;
  value: boolean;
  negated: boolean;
  sqlType: 'boolean';
}
export interface InList extends Node {
  kind: 'in';
  operand: Expr;
  list: Literal[];
  negated: boolean;
  sqlType: 'boolean';
}
export interface Between extends Node {
  kind: 'between';
  operand: Expr;
  low: Literal;
  high: Literal;
  negated: boolean;
  sqlType: 'boolean';
}
/** The CAST targets on the allow-list, as Delta types (DATE, TIMESTAMP, BIGINT, INTEGER, DOUBLE, VARCHAR, DECIMAL). */
export type CastTarget =
  | 'date'
  | 'timestamp_ntz'
  | 'long'
  | 'integer'
  | 'double'
  | 'string'
  | `decimal(${number},${number})`;
export interface Cast extends Node {
  kind: 'cast';
  operand: Expr;
  to: CastTarget;
  sqlType: SqlType;
}
export type FunctionName = 'coalesce' | 'abs' | 'round' | 'lower' | 'upper';
export interface Call extends Node {
  kind: 'call';
  fn: FunctionName;
  args: Expr[];
  sqlType: SqlType;
}

export type Expr =
  | Literal
  | Column
  | Negate
  | Arith
  | Compare
  | Logical
  | Not
  | IsNull
  | IsBool
  | InList
  | Between
  | Cast
  | Call;

export function childrenOf(e: Expr): Expr[] {
  switch (e.kind) {
    case 'literal':
    case 'column':
      return [];
    case 'negate':
    case 'not':
    case 'isNull':
    case 'isBool':
    case 'cast':
      return [e.operand];
    case 'arith':
    case 'compare':
      return [e.left, e.right];
    case 'logical':
      return e.operands;
    case 'in':
      return [e.operand, ...e.list];
    case 'between':
      return [e.operand, e.low, e.high];
    case 'call':
      return e.args;
  }
}

/** Canonical names of the columns an expression reads, in order of first use. */
export function columnsOf(e: Expr): string[] {
  const names = new Set<string>();
  const visit = (x: Expr): void => {
    if (x.kind === 'column') names.add(x.name);
    for (const c of childrenOf(x)) visit(c);
  };
  visit(e);
  return [...names];
}
