/**
 * Tokenizer for the expression subset. It refuses, rather than skips, everything that could smuggle
 * a second statement or hide text from a reader: `;`, comments, and the keywords of SQL clauses.
 */
import { fail } from './errors';

export const MAX_LENGTH = 10_000;

export type TokenKind = 'number' | 'string' | 'ident' | 'quoted' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The source text of the token. */
  text: string;
  /** Decoded value: string contents, identifier name, number text or the operator. */
  value: string;
  /** 1-based. */
  pos: number;
}

/** Keywords of the grammar itself: never column names unless double-quoted. */
export const GRAMMAR_KEYWORDS = new Set([
  'AND',
  'OR',
  'NOT',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'IN',
  'BETWEEN',
  'CAST',
  'AS',
]);

/**
 * Keywords of other SQL constructs. The grammar could not accept them anyway (they would read as
 * unknown columns), but naming them tells the user why `... UNION SELECT ...` is refused.
 */
const FORBIDDEN_KEYWORDS = new Set(
  (
    'SELECT FROM WHERE UNION INTERSECT EXCEPT ORDER GROUP BY HAVING LIMIT OFFSET JOIN INSERT UPDATE DELETE MERGE ' +
    'DROP CREATE ALTER TRUNCATE TABLE INTO VALUES WITH CASE WHEN THEN ELSE END EXISTS LIKE ILIKE ANY ALL DISTINCT ' +
    'COPY ATTACH DETACH PRAGMA INSTALL'
  ).split(' '),
);

export function isKeyword(word: string): boolean {
  const upper = word.toUpperCase();
  return GRAMMAR_KEYWORDS.has(upper) || FORBIDDEN_KEYWORDS.has(upper);
}

const OPERATORS = ['<>', '!=', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '.'];
const NUMBER_RE = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const IDENT_RE = /[\p{L}_][\p{L}\p{N}_]*/uy;
const IDENT_CHAR_RE = /[\p{L}\p{N}_.]/u;

/** Reads a quoted run starting at `start` (a `'` or `"`), where a doubled quote stands for one. */
function readQuoted(text: string, start: number, what: string): { value: string; end: number } {
  const quote = text[start];
  const kind = quote === "'" ? 'string literal' : 'quoted identifier';
  let value = '';
  let i = start + 1;
  for (;;) {
    const close = text.indexOf(quote ?? '', i);
    if (close < 0)
      fail(`unterminated ${kind} in ${what}: ${text.slice(start, start + 20)} at position ${start + 1}`, start + 1);
    value += text.slice(i, close);
    if (text[close + 1] !== quote) return { value, end: close + 1 };
    value += quote;
    i = close + 2;
  }
}

export function tokenize(text: string, what: string): Token[] {
  if (text.length > MAX_LENGTH) fail(`${what} is too long: ${text.length} characters, the limit is ${MAX_LENGTH}`);
  // DuckDB's parser ends its input at a NUL, even inside a string literal: the SQL it would read is not ours.
  const nul = text.indexOf('\u0000');
  if (nul >= 0) fail(`a NUL character (position ${nul + 1}) is not allowed in a ${what}`, nul + 1);
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    const pos = i + 1;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '--' || two === '/*')
      fail(`SQL comments are not allowed in a ${what}: '${two}' at position ${pos}`, pos);
    if (c === ';') fail(`';' at position ${pos} is not allowed: a ${what} is a single expression`, pos);
    if (c === "'" || c === '"') {
      const { value, end } = readQuoted(text, i, what);
      if (c === '"' && value === '') fail(`empty quoted identifier '""' at position ${pos}`, pos);
      tokens.push({ kind: c === "'" ? 'string' : 'quoted', text: text.slice(i, end), value, pos });
      i = end;
      continue;
    }
    NUMBER_RE.lastIndex = i;
    const number = /[\d.]/.test(c) ? NUMBER_RE.exec(text) : null;
    if (number) {
      const end = i + number[0].length;
      if (IDENT_CHAR_RE.test(text[end] ?? '')) {
        fail(`malformed number '${text.slice(i, end + 1)}' at position ${pos}`, pos);
      }
      tokens.push({ kind: 'number', text: number[0], value: number[0], pos });
      i = end;
      continue;
    }
    IDENT_RE.lastIndex = i;
    const ident = IDENT_RE.exec(text);
    if (ident) {
      const word = ident[0];
      if (FORBIDDEN_KEYWORDS.has(word.toUpperCase())) {
        fail(
          `SQL keyword '${word}' at position ${pos} is not allowed in a ${what} (double-quote it if it is a column name)`,
          pos,
        );
      }
      tokens.push({ kind: 'ident', text: word, value: word, pos });
      i += word.length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) fail(`unexpected character '${c}' at position ${pos} in ${what}`, pos);
    tokens.push({ kind: 'op', text: op, value: op, pos });
    i += op.length;
  }
  tokens.push({ kind: 'eof', text: '', value: '', pos: text.length + 1 });
  return tokens;
}
