/**
 * The limits rule on its own, against a schema with a cycle (the API's own schema has none today, so
 * no real query could be too deep there), and the API's schema against its own limits: fragments
 * measured once, introspection counted, the resolvers that do real work called once per request.
 */
import { buildSchema, getIntrospectionQuery, OverlappingFieldsCanBeMergedRule, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { limitsRule, MAX_ALIASES, MAX_COST, MAX_DEPTH, MAX_MERGE_STEPS, measureDocument } from '../src/graphql/limits';
import { schema as apiSchema } from '../src/graphql/schema';
import { aliased, fragmentBomb, SCHEMA_FRAGMENT } from './helpers/attacks';

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
    expect(errors(costly)).toEqual([`query too costly: at least 1010101 fields, at most ${MAX_COST}`]);
    expect(errors('query($n: Int) { nodes(first: $n) { children { children { id } } } }')).toEqual([]);
    expect(errors('query($n: Int) { nodes(first: $n) { children { children { children { id } } } } }')).toEqual([
      `query too costly: at least 842101 fields, at most ${MAX_COST}`,
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

  it('measures each fragment once: a chain of fragments spreading the one before twice is linear work', () => {
    // Measuring every spread again took 2^levels steps: 1.7 s at 20 levels, 10 s at 22 (bench/api-edge.ts).
    const visits = (levels: number) => measureDocument(apiSchema, parse(fragmentBomb(levels))).visits;
    expect(visits(8)).toBeLessThanOrEqual(2 * visits(4));
    expect(visits(16)).toBeLessThanOrEqual(2 * visits(8));
    expect(visits(32)).toBeLessThanOrEqual(2 * visits(16));
    expect(visits(64)).toBeLessThanOrEqual(2 * visits(32));
    // Refused at the first fragment whose count passes the limit: each further level is one step.
    expect(errors(fragmentBomb(22), apiSchema)).toEqual([
      `query too costly: at least 65536 fields, at most ${MAX_COST}`,
    ]);
    expect(visits(400)).toBe(visits(200) + 200);
  });

  it("counts introspection from the schema's own size: GraphiQL's query passes, repeating it does not", () => {
    const full = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true });
    const one = measureDocument(apiSchema, parse(full));
    expect(one.excess).toBeNull();
    expect(one.cost).toBeGreaterThan(MAX_COST / 4);
    // A thousand aliased __schema answered 43.9 MB; ten are over the limit already.
    const schemas = (n: number) => errors(aliased(n, '__schema { ...S }', SCHEMA_FRAGMENT), apiSchema);
    expect(schemas(1)).toEqual([]);
    expect(schemas(10)[0]).toMatch(/^query too costly: at least \d+ fields, at most 60000$/);
    // Walking round the types' graph is walked too: each turn multiplies by the average type's fields.
    const turns = (n: number) => `{ __schema { types { ${'fields { type { '.repeat(n)}name${' } }'.repeat(n)} } } }`;
    const cost = (n: number) => measureDocument(apiSchema, parse(turns(n))).cost;
    expect(cost(2)).toBeGreaterThan(3 * cost(1));
    expect(errors(turns(4), apiSchema)).toEqual([`query too deep: 9 levels, at most ${MAX_DEPTH}`]);
  });

  it('allows one call of each resolver that opens tables or reads every race per request', () => {
    const layout = (alias: string) => `${alias}: tableLayout(location: "lab:flat@0.01") { version }`;
    expect(errors(`{ ${layout('a')} isolationMatrix { runs } }`, apiSchema)).toEqual([]);
    expect(errors(`{ ${layout('a')} ${layout('b')} }`, apiSchema)).toEqual([
      'query calls tableLayout 2 times, at most 1 per request: send them separately',
    ]);
    // Through fragments too, where the document itself names the field once.
    expect(errors('{ ...M ...M } fragment M on Query { m: isolationMatrix { runs } }', apiSchema)).toEqual([
      'query calls isolationMatrix 2 times, at most 1 per request: send them separately',
    ]);
  });

  it(`allows ${MAX_ALIASES} aliases and refuses more; the dashboard's 40 isolation readings pass`, () => {
    const readings = (n: number) =>
      errors(aliased(n, 'isolationLevelInterpretation(value: "x") { engine }'), apiSchema);
    expect(readings(40)).toEqual([]);
    expect(readings(MAX_ALIASES)).toEqual([]);
    expect(readings(MAX_ALIASES + 1)).toEqual([`query has ${MAX_ALIASES + 1} aliases, at most ${MAX_ALIASES}`]);
  });

  it(`graphql's merge check gives up where MAX_MERGE_STEPS says: about two steps per pair of same-named fields`, () => {
    // 707 copies make 249,571 pairs, 708 make 250,278: the budget of ${MAX_MERGE_STEPS} steps lies between.
    const merged = (n: number) =>
      validate(apiSchema, parse(`{ ${'__typename '.repeat(n)}}`), [OverlappingFieldsCanBeMergedRule]).map(
        (e) => e.message,
      );
    expect(merged(707)).toEqual([]);
    expect(merged(708)).toEqual(['Validation aborted.']);
    expect((707 * 706) / 2).toBeLessThan(MAX_MERGE_STEPS / 2);
    expect((708 * 707) / 2).toBeGreaterThan(MAX_MERGE_STEPS / 2);
  });
});
