/**
 * checkPredicateSyntax, the check of a predicate before its table's schema is known (a jobs
 * manifest's stage 1): it refuses what is wrong whatever the columns are, and never what a schema
 * could make right. The fuzzer's predicates hold it to parsePredicate on a real schema.
 */
import { describe, expect, it } from 'vitest';
import { checkPredicateSyntax, ExpressionError, parsePredicate } from '../src/kernel/sql/index';
import { FUZZ_SCHEMA, fuzzedPredicates } from './helpers/predicate-fuzz';

const refusal = (text: string) => {
  try {
    checkPredicateSyntax(text);
    return null;
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    return e.message;
  }
};

describe('checkPredicateSyntax', () => {
  it("refuses, in parsePredicate's words, what no schema makes right", () => {
    expect(refusal('VendorID == 2')).toBe("unexpected '=' at position 11 in predicate");
    expect(refusal('VendorID = 2 AND')).toBe('predicate ends too early: expected a value at the end of the input');
    expect(refusal("x = 'a")).toBe("unterminated string literal in predicate: 'a at position 5");
    expect(refusal('VendorID = 2 AND foo(1)')).toMatch(/^function 'foo' at position 18 is not allowed/);
    expect(refusal('VendorID + 1 AND x = 2')).toMatch(/^'AND' at position 14 needs boolean operands/);
    expect(refusal("d > DATE '2025-13-01'")).toMatch(/^invalid date '2025-13-01'/);
    expect(refusal('1')).toMatch(/^a predicate must be a boolean condition/);
  });

  it('accepts what only the schema can judge: unknown columns, column types', () => {
    for (const text of [
      'Vendor = 2',
      'VendorID',
      "lower(a) = 'x' AND b BETWEEN 1 AND 2",
      "CAST(d AS DATE) > '2025-01-01'",
    ]) {
      expect(refusal(text), text).toBeNull();
    }
    expect(() => parsePredicate('Vendor = 2', FUZZ_SCHEMA)).toThrow(/unknown column 'Vendor'/);
  });

  it('accepts every fuzzed predicate the schema accepts, and refuses many of the others', () => {
    let refusedBoth = 0;
    let refusedBySchemaOnly = 0;
    for (const text of fuzzedPredicates(3000, 17)) {
      let bound = true;
      try {
        parsePredicate(text, FUZZ_SCHEMA);
      } catch (e) {
        if (!(e instanceof ExpressionError)) throw e;
        bound = false;
      }
      const syntax = refusal(text);
      if (bound) expect(syntax, text).toBeNull();
      else if (syntax === null) refusedBySchemaOnly++;
      else refusedBoth++;
    }
    // Most refusals are the text's own (hostile tokens, dropped characters), not the schema's.
    expect(refusedBoth).toBeGreaterThan(refusedBySchemaOnly);
  });
});
