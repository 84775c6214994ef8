/**
 * Predicates that parse but could not run: the binder refuses what fails on the table's data (casts
 * that do not hold every value of their operand, round() digits DuckDB has no signature for, NUL),
 * and checkExpressionRuns refuses what DuckDB cannot bind or evaluate, in the engine's words, with
 * DuckDB's own text kept as the cause. Each refused predicate is first shown to fail in DuckDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaToDuckType, type StructType } from '../src/kernel/delta/protocol/schema';
import type { Expr } from '../src/kernel/sql/ast';
import {
  ExpressionError,
  parsePredicate,
  parseUpdateExpression,
  renderExpression,
  renderSql,
} from '../src/kernel/sql/index';
import { connect, sqlIdent } from '../src/ops/parquet/duck';
import { checkExpressionRuns } from '../src/ops/parquet/expression-check';
import { FUZZ_SCHEMA } from './helpers/predicate-fuzz';

const schema: StructType = FUZZ_SCHEMA;
let conn: Awaited<ReturnType<typeof connect>>;
beforeAll(async () => {
  conn = await connect();
  // One row as the lab's taxi data has it: what a predicate that "parses but cannot run" meets.
  const row: Record<string, string> = {
    VendorID: '1',
    store_and_fwd_flag: "'N'",
    fare_amount: '150.5',
    trip_id: '3000000000',
    price: '12345678.9',
  };
  const columns = schema.fields.map(
    (f) => `CAST(${row[f.name] ?? 'NULL'} AS ${deltaToDuckType(f.type)}) AS ${sqlIdent(f.name)}`,
  );
  await conn.run(`CREATE TEMP TABLE trips AS SELECT ${columns.join(', ')}`);
});
afterAll(() => conn?.disconnectSync());

/** DuckDB's error for the predicate's SQL on the table above, or null when it runs. */
async function duckError(sql: string): Promise<string | null> {
  try {
    await conn.run(`SELECT count(*) FROM trips WHERE ${sql}`);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

function refused(run: () => unknown): ExpressionError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ExpressionError);
    return e as ExpressionError;
  }
  throw new Error('expected an ExpressionError');
}

async function refusedByCheck(expr: Expr, options = {}): Promise<ExpressionError> {
  const e = await checkExpressionRuns(conn, schema, expr, options).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ExpressionError);
  return e as ExpressionError;
}

describe('the binder refuses what would fail on the data', () => {
  const cases: [string, string, RegExp][] = [
    [
      'CAST(store_and_fwd_flag AS BIGINT) = 1',
      `(CAST("store_and_fwd_flag" AS BIGINT) = 1)`,
      /^CAST of 'store_and_fwd_flag' \(string\) to BIGINT at position 1 can fail on the table's data: text that is not a BIGINT fails it/,
    ],
    [
      "date(store_and_fwd_flag) = '2025-02-14'",
      `(CAST("store_and_fwd_flag" AS DATE) = DATE '2025-02-14')`,
      /text that is not a DATE fails it/,
    ],
    [
      'CAST(fare_amount AS DECIMAL(4,2)) > 1',
      `(CAST("fare_amount" AS DECIMAL(4,2)) > 1)`,
      /not every value of type double fits DECIMAL\(4,2\)/,
    ],
    // (times 2: DuckDB rewrites a bare `CAST(int) > 1` to compare the uncast column)
    [
      'CAST(trip_id AS INTEGER) * 2 > 1',
      `((CAST("trip_id" AS INTEGER) * 2) > 1)`,
      /not every value of type long fits INTEGER/,
    ],
    [
      'CAST(price AS DECIMAL(8,2)) * 2 > 1',
      `((CAST("price" AS DECIMAL(8,2)) * 2) > 1)`,
      /type decimal\(10,2\) fits DECIMAL/,
    ],
    [
      'round(fare_amount, 99999999999) > 1',
      `(round("fare_amount", 99999999999) > 1)`,
      /^round\(\) at position 1: its second argument 99999999999 is out of range \(-2147483648 to 2147483647\)$/,
    ],
  ];
  it.each(cases)('%s', async (text, sql, message) => {
    expect(await duckError(sql)).toMatch(/^(Conversion|Binder) Error/);
    expect(refused(() => parsePredicate(text, schema)).message).toMatch(message);
  });

  it('accepts casts that hold every value of their operand, and constants for DuckDB to judge', async () => {
    for (const text of [
      'CAST(VendorID AS BIGINT) = 1',
      'CAST(small AS DECIMAL(5,0)) = 1',
      'CAST(price AS INTEGER) > 1',
      'CAST(price AS DECIMAL(12,1)) > 1',
      "CAST(fare_amount AS VARCHAR) = '150.5'",
      "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'",
      "CAST('7' AS INTEGER) = VendorID",
      'round(fare_amount, 2) > 1',
    ]) {
      const expr = parsePredicate(text, schema);
      expect(await duckError(renderSql(expr)), text).toBeNull();
      await checkExpressionRuns(conn, schema, expr);
    }
  });

  it("refuses a NUL character, which ends DuckDB's reading of the SQL", async () => {
    expect(await duckError(`("store_and_fwd_flag" = 'N\u0000')`)).toMatch(/unterminated quoted string/);
    expect(refused(() => parsePredicate("store_and_fwd_flag = 'N\u0000'", schema)).message).toBe(
      'a NUL character (position 24) is not allowed in a predicate',
    );
  });
});

describe('checkExpressionRuns', () => {
  it('refuses constants DuckDB cannot evaluate, naming the part, without SQL', async () => {
    const cases: [string, string][] = [
      [
        "fare_amount > CAST('abc' AS DOUBLE)",
        "predicate cannot run on this table: 'CAST('abc' AS DOUBLE)' at position 15: a value cannot be converted, on every row (it reads no column)",
      ],
      [
        '99 * 999999999 <> DOLocationID',
        "predicate cannot run on this table: '99 * 999999999' at position 4: a value is out of range, on every row (it reads no column)",
      ],
      [
        'abs(-9223372036854775808) > VendorID',
        "predicate cannot run on this table: 'abs(-9223372036854775808)' at position 1: a value is out of range, on every row (it reads no column)",
      ],
      [
        'price >= 123456789012345678901234567890123456789',
        "predicate cannot run on this table: 'price >= 123456789012345678901234567890123456789' at position 7: a value cannot be converted (found on a row where price is NULL)",
      ],
    ];
    for (const [text, message] of cases) {
      const expr = parsePredicate(text, schema);
      expect(await duckError(renderSql(expr)), text).toMatch(/^(Conversion|Out of Range) Error/);
      const e = await refusedByCheck(expr);
      expect(e.message).toBe(message);
      expect(e.message).not.toMatch(/SELECT|"fare_amount"|CAST\(NULL/);
      // DuckDB's own text, which quotes the SQL, stays in the cause for a server's log.
      expect((e.cause as Error).message).toMatch(/^(Conversion|Out of Range) Error: /);
    }
  });

  it('refuses an update value that does not fit its column', async () => {
    const target = schema.fields.find((f) => f.name === 'VendorID');
    const value = parseUpdateExpression('1e300', schema, 'VendorID');
    const e = await refusedByCheck(value, { assignTo: target });
    expect(e.message).toBe(
      "update expression cannot run on this table: its value does not fit column 'VendorID' (INTEGER): a value cannot be converted, on every row (it reads no column)",
    );
    await checkExpressionRuns(conn, schema, parseUpdateExpression('VendorID + 1', schema, 'VendorID'), {
      assignTo: target,
    });
  });

  it('is the backstop for what the binder misses: DuckDB binds the rendered SQL', async () => {
    // A tree the parser no longer builds (round()'s digits out of INTEGER range), as a binder gap would leave it.
    const fare = parsePredicate('fare_amount > 1', schema) as Extract<Expr, { kind: 'compare' }>;
    const digits: Expr = { kind: 'literal', sqlType: 'number', value: 99999999999, text: '99999999999', pos: 20 };
    const call: Expr = { kind: 'call', fn: 'round', args: [fare.left, digits], sqlType: 'number', pos: 1 };
    const expr: Expr = { ...fare, left: call };
    expect(await duckError(renderSql(expr))).toMatch(/^Binder Error: No function matches/);
    const e = await refusedByCheck(expr);
    expect(e.message).toBe(
      "predicate cannot run on this table: 'round(fare_amount, 99999999999)' at position 1: DuckDB has no round() for these argument types",
    );
    expect(e.position).toBe(1);
  });

  it('lets every predicate the lab itself runs through', async () => {
    for (const text of [
      'VendorID = 1',
      "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'",
      'fare_amount < 0 OR passenger_count = 0',
      "store_and_fwd_flag IN ('Y', 'N') AND trip_id BETWEEN 1 AND 10",
    ]) {
      await checkExpressionRuns(conn, schema, parsePredicate(text, schema));
    }
  });
});

it('renders a UTC instant so that it reads back as the same predicate', () => {
  const expr = parsePredicate("event_time < TIMESTAMP '2025-01-10 01:00:00+01:00'", schema);
  expect(renderExpression(expr)).toBe("event_time < TIMESTAMP '2025-01-10 00:00:00+00'");
  expect(renderSql(parsePredicate(renderExpression(expr), schema))).toBe(renderSql(expr));
});
