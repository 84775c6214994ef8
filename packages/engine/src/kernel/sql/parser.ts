/**
 * Recursive-descent parser for the expression subset, and the public entry points. Precedence,
 * loosest first: OR, AND, NOT, comparison / IS / IN / BETWEEN, + -, * / %, unary minus.
 */
import type { StructType } from '../delta/protocol/schema';
import type { ArithOp, CastTarget, CompareOp, Expr, FunctionName, Literal } from './ast';
import * as bind from './bind';
import { fail } from './errors';
import { GRAMMAR_KEYWORDS, type Token, tokenize } from './lexer';

export const MAX_DEPTH = 64;

const COMPARE_OPS: Record<string, CompareOp> = {
  '=': '=',
  '!=': '<>',
  '<>': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};
/** The functions a user may call: the allow-list, exported for the tests that hold DuckDB's parse to it. */
export const ALLOWED_FUNCTIONS: readonly string[] = ['abs', 'coalesce', 'date', 'lower', 'round', 'upper'];
const CAST_TYPES: Record<string, CastTarget> = {
  DATE: 'date',
  TIMESTAMP: 'timestamp_ntz',
  BIGINT: 'long',
  INTEGER: 'integer',
  DOUBLE: 'double',
  VARCHAR: 'string',
};

function shown(t: Token): string {
  return t.kind === 'eof' ? 'the end of the input' : `'${t.text}' at position ${t.pos}`;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly scope: bind.Scope,
  ) {}

  private peek(ahead = 0): Token {
    // The token list always ends with 'eof', which is returned for any look past it.
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.index++;
    return t;
  }

  private isKeyword(t: Token, keyword: string): boolean {
    return t.kind === 'ident' && t.value.toUpperCase() === keyword;
  }

  private isOp(t: Token, op: string): boolean {
    return t.kind === 'op' && t.value === op;
  }

  private expectOp(op: string, context: string): void {
    const t = this.next();
    if (!this.isOp(t, op)) fail(`expected '${op}' ${context}, but found ${shown(t)}`, t.pos);
  }

  private expectKeyword(keyword: string, context: string): void {
    const t = this.next();
    if (!this.isKeyword(t, keyword)) fail(`expected ${keyword} ${context}, but found ${shown(t)}`, t.pos);
  }

  /** Bounds nesting, so hostile input fails with a message instead of exhausting the stack. */
  private enter(at: Token): void {
    if (++this.depth > MAX_DEPTH) {
      fail(`${this.scope.what} nests deeper than ${MAX_DEPTH} levels at '${at.text}' (position ${at.pos})`, at.pos);
    }
  }

  private nested<T>(at: Token, parse: () => T): T {
    this.enter(at);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  parseWhole(): Expr {
    const e = this.parseOr();
    const t = this.peek();
    if (t.kind !== 'eof') fail(`unexpected ${shown(t)} after a complete ${this.scope.what}`, t.pos);
    return e;
  }

  private parseOr(): Expr {
    return this.parseChain('OR', () => this.parseAnd());
  }

  private parseAnd(): Expr {
    return this.parseChain('AND', () => this.parseNot());
  }

  private parseChain(op: 'AND' | 'OR', parseOperand: () => Expr): Expr {
    const first = parseOperand();
    const at = this.peek();
    if (!this.isKeyword(at, op)) return first;
    const operands = [first];
    while (this.isKeyword(this.peek(), op)) {
      this.next();
      operands.push(parseOperand());
    }
    return bind.logical(op, operands, at.pos);
  }

  private parseNot(): Expr {
    const t = this.peek();
    if (!this.isKeyword(t, 'NOT')) return this.parsePredicate();
    this.next();
    return this.nested(t, () => bind.not(this.parseNot(), t.pos));
  }

  private parsePredicate(): Expr {
    const left = this.parseAdditive();
    const t = this.peek();
    const compareOp = t.kind === 'op' ? COMPARE_OPS[t.value] : undefined;
    if (compareOp) {
      this.next();
      return bind.compare(compareOp, left, this.parseAdditive(), t.text, t.pos);
    }
    if (this.isKeyword(t, 'IS')) {
      this.next();
      const negated = this.isKeyword(this.peek(), 'NOT');
      if (negated) this.next();
      const what = this.next();
      const word = what.kind === 'ident' ? what.value.toUpperCase() : '';
      if (word === 'NULL') return bind.isNull(left, negated, t.pos);
      if (word === 'TRUE' || word === 'FALSE') return bind.isBool(left, word === 'TRUE', negated, t.pos);
      fail(`expected NULL, TRUE or FALSE after IS, but found ${shown(what)}`, what.pos);
    }
    const negated =
      this.isKeyword(t, 'NOT') && (this.isKeyword(this.peek(1), 'IN') || this.isKeyword(this.peek(1), 'BETWEEN'));
    if (negated) this.next();
    const op = this.peek();
    if (this.isKeyword(op, 'IN')) {
      this.next();
      return bind.inList(left, this.parseLiteralList(), negated, op.pos);
    }
    if (this.isKeyword(op, 'BETWEEN')) {
      this.next();
      const low = this.parseLiteral('BETWEEN');
      this.expectKeyword('AND', 'between the BETWEEN bounds');
      return bind.between(left, low, this.parseLiteral('BETWEEN'), negated, op.pos);
    }
    return left;
  }

  private parseLiteralList(): Literal[] {
    this.expectOp('(', 'after IN');
    const list = [this.parseLiteral('IN')];
    while (this.isOp(this.peek(), ',')) {
      this.next();
      list.push(this.parseLiteral('IN'));
    }
    this.expectOp(')', 'to close the IN list');
    return list;
  }

  /** IN lists and BETWEEN bounds take constants only, which keeps them prunable. */
  private parseLiteral(context: string): Literal {
    const t = this.peek();
    const e = this.parseUnary();
    if (e.kind !== 'literal') fail(`${context} takes literal values only, but found ${shown(t)}`, t.pos);
    return e;
  }

  private parseAdditive(): Expr {
    return this.parseArithmetic(['+', '-'], () => this.parseMultiplicative());
  }

  private parseMultiplicative(): Expr {
    return this.parseArithmetic(['*', '/', '%'], () => this.parseUnary());
  }

  /**
   * A left-associative chain `a + b - c` nests one level per operator, so each operator counts
   * toward the depth limit: that keeps every tree, and every recursion over it, shallow.
   */
  private parseArithmetic(ops: ArithOp[], parseOperand: () => Expr): Expr {
    const depth = this.depth;
    try {
      let left = parseOperand();
      for (let t = this.peek(); t.kind === 'op' && ops.includes(t.value as ArithOp); t = this.peek()) {
        this.next();
        this.enter(t);
        left = bind.arith(t.value as ArithOp, left, parseOperand(), t.pos);
      }
      return left;
    } finally {
      this.depth = depth;
    }
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (this.isOp(t, '-')) {
      this.next();
      return this.nested(t, () => bind.negate(this.parseUnary(), t.pos));
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'number':
        return bind.numberLiteral(t.value, t.pos);
      case 'string':
        return { kind: 'literal', sqlType: 'string', value: t.value, pos: t.pos };
      case 'quoted':
        return this.parseColumn(t);
      case 'op':
        if (t.value !== '(') fail(`unexpected ${shown(t)} in ${this.scope.what}`, t.pos);
        return this.nested(t, () => {
          const e = this.parseOr();
          this.expectOp(')', `to close the '(' at position ${t.pos}`);
          return e;
        });
      case 'ident':
        return this.parseWord(t);
      case 'eof':
        fail(`${this.scope.what} ends too early: expected a value at the end of the input`, t.pos);
    }
  }

  private parseWord(t: Token): Expr {
    const word = t.value.toUpperCase();
    const following = this.peek();
    if (word === 'TRUE' || word === 'FALSE')
      return { kind: 'literal', sqlType: 'boolean', value: word === 'TRUE', pos: t.pos };
    if (word === 'NULL') return { kind: 'literal', sqlType: 'null', value: null, pos: t.pos };
    if ((word === 'DATE' || word === 'TIMESTAMP') && following.kind === 'string') {
      this.next();
      return word === 'DATE'
        ? bind.dateLiteral(following.value, following.pos)
        : bind.timestampLiteral(following.value, following.pos);
    }
    if (word === 'CAST' && this.isOp(following, '(')) return this.parseCast(t);
    if (this.isOp(following, '(')) return this.parseCall(t);
    if (GRAMMAR_KEYWORDS.has(word)) fail(`unexpected keyword ${shown(t)} in ${this.scope.what}`, t.pos);
    return this.parseColumn(t);
  }

  private parseColumn(t: Token): Expr {
    if (this.isOp(this.peek(), '.')) {
      const rest = this.peek(1);
      fail(
        `qualified column names are not supported: '${t.text}.${rest.text}' at position ${t.pos}; use the bare column name`,
        t.pos,
      );
    }
    return bind.column(t.value, t.pos, this.scope);
  }

  private parseCast(t: Token): Expr {
    const open = this.next();
    return this.nested(open, () => {
      const operand = this.parseOr();
      this.expectKeyword('AS', `in the CAST at position ${t.pos}`);
      const to = this.parseCastType();
      this.expectOp(')', `to close the CAST at position ${t.pos}`);
      return bind.cast(operand, to, t.pos);
    });
  }

  private parseCastType(): CastTarget {
    const t = this.next();
    const word = t.kind === 'ident' ? t.value.toUpperCase() : '';
    const simple = CAST_TYPES[word];
    if (simple) return simple;
    if (word !== 'DECIMAL') {
      fail(
        `unsupported CAST type ${shown(t)}; allowed: DATE, TIMESTAMP, BIGINT, INTEGER, DOUBLE, VARCHAR, DECIMAL(p,s)`,
        t.pos,
      );
    }
    this.expectOp('(', 'after DECIMAL');
    const precision = this.next();
    this.expectOp(',', 'between the DECIMAL precision and scale');
    const scale = this.next();
    this.expectOp(')', 'after the DECIMAL scale');
    const p = Number(precision.value);
    const s = Number(scale.value);
    const valid = precision.kind === 'number' && scale.kind === 'number' && Number.isInteger(p) && Number.isInteger(s);
    if (!valid || p < 1 || p > 38 || s > p) {
      fail(
        `invalid DECIMAL(${precision.text},${scale.text}) at position ${t.pos}; precision is 1 to 38 and scale 0 to precision`,
        t.pos,
      );
    }
    return `decimal(${p},${s})`;
  }

  private parseCall(t: Token): Expr {
    const name = t.value.toLowerCase();
    if (!ALLOWED_FUNCTIONS.includes(name)) {
      fail(
        `function '${t.text}' at position ${t.pos} is not allowed; allowed functions: ${ALLOWED_FUNCTIONS.join(', ')}`,
        t.pos,
      );
    }
    const open = this.next();
    const args = this.nested(open, () => this.parseArguments(t));
    if (name !== 'date') return bind.call(name as FunctionName, args, t.pos);
    // date(x) is DuckDB's CAST(x AS DATE); one node for both keeps pruning to one case.
    if (args.length !== 1 || !args[0])
      fail(`date() at position ${t.pos} takes 1 argument(s), got ${args.length}`, t.pos);
    return bind.cast(args[0], 'date', t.pos);
  }

  private parseArguments(fn: Token): Expr[] {
    const args: Expr[] = [];
    if (this.isOp(this.peek(), ')')) {
      this.next();
      return args;
    }
    args.push(this.parseOr());
    while (this.isOp(this.peek(), ',')) {
      this.next();
      args.push(this.parseOr());
    }
    this.expectOp(')', `to close the arguments of ${fn.text}() at position ${fn.pos}`);
    return args;
  }
}

function parse(text: string, scope: bind.Scope): Expr {
  const tokens = tokenize(text, scope.what);
  if (tokens.length === 1) fail(`empty ${scope.what}: expected an expression`, 1);
  return new Parser(tokens, scope).parseWhole();
}

/**
 * A WHERE condition over the table's top-level columns, bound and type-checked; it must be
 * boolean. Throws ExpressionError for anything outside the subset.
 */
export function parsePredicate(text: string, schema: StructType): Expr {
  const scope: bind.Scope = { fields: schema.fields, what: 'predicate' };
  return bind.requirePredicate(parse(text, scope), scope);
}

/**
 * What can be checked of a predicate before its table's schema is known (a jobs manifest, whose
 * tables are opened later): the grammar, the functions, the literals, and types where no column
 * decides them (`VendorID == 2`, `x = 1 AND 2` are refused; `Vendor = 2` is not: the schema decides).
 * Throws ExpressionError, in parsePredicate's words.
 */
export function checkPredicateSyntax(text: string): void {
  const scope: bind.Scope = { fields: [], what: 'predicate', untyped: true };
  bind.requirePredicate(parse(text, scope), scope);
}

/**
 * The value side of `SET column = <expression>`. With `targetColumn`, the column must exist and the
 * value must fit its type; literals are retyped to it (a string literal into a date column).
 */
export function parseUpdateExpression(text: string, schema: StructType, targetColumn?: string): Expr {
  const target = targetColumn === undefined ? undefined : bind.resolveColumn(schema, targetColumn);
  const expr = parse(text, { fields: schema.fields, what: 'update expression' });
  return target ? bind.requireAssignable(expr, target) : expr;
}
