/**
 * The predicate path under a seeded fuzzer (helpers/predicate-fuzz.ts): 3,000 predicates, a few
 * seconds. Every accepted one must be, in DuckDB's own parse, one SELECT over the table with only
 * allowed functions and schema columns, read back unchanged from its human rendering, and pass
 * checkExpressionRuns or be refused by it with an ExpressionError. bench/predicate-fuzz.ts runs
 * the same at any size and seed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/ops/parquet/duck';
import { FUZZ_SCHEMA, fuzzPredicates, parseProblems } from './helpers/predicate-fuzz';

const CASES = 3000;
const SEED = 20_261_213;

let conn: Awaited<ReturnType<typeof connect>>;
beforeAll(async () => {
  conn = await connect();
});
afterAll(() => conn?.disconnectSync());

async function problemsOf(where: string): Promise<string[]> {
  const r = await conn.runAndReadAll(`SELECT json_serialize_sql('SELECT * FROM t WHERE ' || $1)`, [where]);
  return parseProblems(String(r.getRows()[0]?.[0]), FUZZ_SCHEMA);
}

it('the parse check sees what the allow-list forbids', async () => {
  expect(await problemsOf(`("VendorID" = 1) AND (lower("store_and_fwd_flag") = 'n')`)).toEqual([]);
  expect(await problemsOf(`read_csv('/etc/passwd') IS NULL`)).toEqual(['function read_csv']);
  expect(await problemsOf('"VendorID" = (SELECT 1)')).toContain('a SUBQUERY node (SUBQUERY)');
  expect(await problemsOf('TRUE; SELECT 1')).toEqual(['2 statements']);
  expect(await problemsOf('"no_such" = 1')).toEqual(['column ["no_such"]']);
  expect(await problemsOf('TRY_CAST("VendorID" AS INTEGER) = 1')).toEqual(['a TRY_CAST']);
  expect(await problemsOf('TRUE GROUP BY 1')).toEqual(['a group_expressions']);
});

it(`holds every accepted predicate of ${CASES} fuzzed ones to DuckDB's parse and run`, async () => {
  const r = await fuzzPredicates(conn, CASES, SEED);
  expect(r.failures).toEqual([]);
  expect(r.refused + r.accepted).toBe(CASES);
  // Neither half is vacuous: many predicates get through, and hostile calls were tried and refused.
  expect(r.accepted).toBeGreaterThan(CASES / 5);
  expect(r.runs).toBeGreaterThan(r.accepted * 0.9);
  expect(r.hostileRefused).toBeGreaterThan(20);
});
