/**
 * The depth and cost rule on its own, against a schema with a cycle (the API's own schema has none
 * today, so no real query could be too deep there), and the API's schema against its own limits.
 */
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { limitsRule, MAX_COST, MAX_DEPTH } from '../src/graphql/limits';
import { schema as apiSchema } from '../src/graphql/schema';

const cyclic = buildSchema(`
  type Node { id: ID! parent: Node children(first: Int = 20): [Node!]! }
  type Query { node: Node nodes(first: Int = 20): [Node!]! }
`);
const errors = (query: string, schema = cyclic) => validate(schema, parse(query), [limitsRule]).map((e) => e.message);
const nest = (n: number) => `{ node { ${'parent { '.repeat(n)}id${' }'.repeat(n)} } }`;

describe('query limits', () => {
  it(`allows ${MAX_DEPTH} levels and refuses ${MAX_DEPTH + 1}`, () => {
    expect(errors(nest(MAX_DEPTH - 2))).toEqual([]);
    expect(errors(nest(MAX_DEPTH - 1))).toEqual([`query too deep: ${MAX_DEPTH + 1} levels, at most ${MAX_DEPTH}`]);
  });

  it('counts depth through fragments and inline fragments', () => {
    const q = `{ node { ...A } } fragment A on Node { parent { ... on Node { parent { ...B } } } }
      fragment B on Node { parent { parent { parent { parent { parent { id } } } } } }`;
    expect(errors(q)).toEqual([`query too deep: 9 levels, at most ${MAX_DEPTH}`]);
  });

  it('multiplies cost by page sizes: given, defaulted, or the largest page for a variable', () => {
    expect(errors('{ nodes(first: 10) { children(first: 10) { id } } }')).toEqual([]);
    const costly = '{ nodes(first: 100) { children(first: 100) { children(first: 100) { id } } } }';
    expect(errors(costly)).toEqual([`query too costly: about 1010101 fields, at most ${MAX_COST}`]);
    expect(errors('query($n: Int) { nodes(first: $n) { children { children { id } } } }')).toEqual([]);
    expect(errors('query($n: Int) { nodes(first: $n) { children { children { children { id } } } } }')).toEqual([
      `query too costly: about 842101 fields, at most ${MAX_COST}`,
    ]);
  });

  it("lets the playground's layout query through: files with counts, matches and append previews", () => {
    const q = `{ tableLayout(location: "lab:partitioned@1", countBy: "VendorID", predicates: ["VendorID = 1"], appendDays: ["2025-02-01"]) {
      location version schema partitionColumns protocol configuration { key value }
      files { path rows size stats minValues maxValues partitionValues { key value } countsBy { value rows } matches }
      appends { day files { partitionValues { key value } stats } } } }`;
    expect(errors(q, apiSchema)).toEqual([]);
  });

  it("lets the dashboard's heaviest real query through: a race with every run, writer and check", () => {
    const q = `query($id: ID!) { race(id: $id) { id status runs { index commitLog { version writer }
      writers { name committed errorMessage attemptErrors { attempt errorMessage } timings { opened finished } }
      table { rows tripsOnDay { key value } tipDeltaByVendor { key value } } } } }`;
    expect(errors(q, apiSchema)).toEqual([]);
  });
});
