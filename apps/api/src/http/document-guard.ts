/**
 * The checks yoga runs on a GraphQL request before any resolver: text with a NUL byte is refused
 * before parsing (Postgres cannot store one, and without this it would come back as "Unexpected error."
 * with the failing SQL), so is a document of more than MAX_TOKENS tokens, and the document is validated
 * against the limits of graphql/limits.ts, its string literals checked for NUL bytes too. graphql's own
 * refusal past its merge budget says only "Validation aborted."; it is answered as the limit it is.
 */
import { type ASTVisitor, GraphQLError, Lexer, Source, TokenKind, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { limitsRule, MAX_MERGE_STEPS, MAX_TOKENS } from '../graphql/limits';

const NUL = '\u0000';
export const TOO_LONG = `query too long: more than ${MAX_TOKENS} tokens (names, values and punctuation)`;
export const TOO_REPETITIVE = `query repeats fields too often: checking that same-named fields merge took more than ${MAX_MERGE_STEPS} steps, at most ${MAX_MERGE_STEPS}`;
export const NUL_REFUSED = 'a NUL byte (\\u0000) is not allowed in the query, its variables or operationName';

// A 400 whatever the response's media type (`spec: false`: in application/json yoga would answer a
// validation error with a 200).
const badRequest = (message: string) =>
  new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400, spec: false } } });

/** What graphql answers past its merge budget (MAX_MERGE_STEPS), naming no limit. */
const ABORTED = 'Validation aborted.';
const tooRepetitive = () => new GraphQLError(TOO_REPETITIVE);

/** Whether any string or key in `value` holds a NUL; iterative, as variables may nest deeply. */
function hasNul(value: unknown): boolean {
  const pending = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes(NUL)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const [key, inner] of Object.entries(v)) {
        if (key.includes(NUL)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * Whether `query` has more than MAX_TOKENS tokens, lexing at most that many: graphql's validation
 * rules are not all linear, so the document is bounded before it is parsed.
 */
function tooLong(query: string): boolean {
  const lexer = new Lexer(new Source(query));
  try {
    for (let n = 0; n <= MAX_TOKENS; n++) if (lexer.advance().kind === TokenKind.EOF) return false;
    return true;
  } catch {
    return false; // not GraphQL: parsing says where
  }
}

/** A string literal can spell a NUL as an escape (`"a\u0000b"`), which only parsing reveals. */
function nulLiteralsRule(ctx: ValidationContext): ASTVisitor {
  return {
    StringValue(node) {
      if (node.value.includes(NUL)) ctx.reportError(badRequest(NUL_REFUSED));
    },
  };
}

export const documentGuard: Plugin = {
  onParams({ params, setResult }) {
    if (hasNul([params.query, params.operationName, params.variables, params.extensions]))
      setResult({ errors: [badRequest(NUL_REFUSED)] });
    else if (typeof params.query === 'string' && tooLong(params.query)) setResult({ errors: [badRequest(TOO_LONG)] });
  },
  onValidate({ addValidationRule, validateFn, setValidationFn }) {
    addValidationRule(limitsRule);
    addValidationRule(nulLiteralsRule);
    setValidationFn((...args) =>
      validateFn(...args).map((e: GraphQLError) => (e.message === ABORTED ? tooRepetitive() : e)),
    );
  },
};
