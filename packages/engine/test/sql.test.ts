import { describe, expect, it } from 'vitest';
import { field, type StructType } from '../src/kernel/delta/protocol/schema';
import {
  columnsOf,
  ExpressionError,
  parsePredicate,
  parseUpdateExpression,
  renderExpression,
  renderSql,
  resolveColumn,
} from '../src/kernel/sql';
import { TLC_SCHEMA as taxi } from './helpers/taxi';

/** Columns beyond the taxi set, for types and names the taxi schema lacks. */
const wide: StructType = {
  type: 'struct',
  fields: [
    ...taxi.fields,
    field('event_time', 'timestamp'),
    field('day', 'date'),
    field('flag', 'boolean'),
    field('price', 'decimal(10,2)'),
    field('we"ird name', 'string'),
    field('Dup', 'long'),
    field('dup', 'long'),
  ],
};

function refusal(run: () => unknown): ExpressionError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ExpressionError);
    expect((e as Error).name).toBe('ExpressionError');
    return e as ExpressionError;
  }
  throw new Error('expected an ExpressionError');
}

describe('parsePredicate: accepted predicates render to DuckDB SQL', () => {
  const cases: [string, string][] = [
    ['VendorID = 1', '("VendorID" = 1)'],
    ['VendorID = -1', '("VendorID" = -1)'],
    ['"VendorID" <> 2', '("VendorID" <> 2)'],
    ['VendorID != 2', '("VendorID" <> 2)'],
    ["store_and_fwd_flag = 'a''b'", `("store_and_fwd_flag" = 'a''b')`],
    ['fare_amount < 0 AND trip_distance = 0', '(("fare_amount" < 0) AND ("trip_distance" = 0))'],
    ['VendorID IN (1, 2) AND NOT (trip_distance > 10)', '(("VendorID" IN (1, 2)) AND (NOT ("trip_distance" > 10)))'],
    ['VendorID NOT IN (1, -2, NULL)', '("VendorID" NOT IN (1, -2, NULL))'],
    ['trip_distance BETWEEN 1 AND 2.5', '("trip_distance" BETWEEN 1 AND 2.5)'],
    ['trip_distance NOT BETWEEN 1e3 AND 002', '("trip_distance" NOT BETWEEN 1000 AND 2)'],
    [
      "tpep_pickup_datetime >= TIMESTAMP '2025-01-10 00:00:00'",
      `("tpep_pickup_datetime" >= TIMESTAMP '2025-01-10 00:00:00')`,
    ],
    [
      "tpep_pickup_datetime < TIMESTAMP '2025-01-10 12:30:00.5'",
      `("tpep_pickup_datetime" < TIMESTAMP '2025-01-10 12:30:00.500000')`,
    ],
    [
      "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'",
      `(CAST("tpep_pickup_datetime" AS DATE) = DATE '2025-02-14')`,
    ],
    ["date(tpep_pickup_datetime) = '2025-02-14'", `(CAST("tpep_pickup_datetime" AS DATE) = DATE '2025-02-14')`],
    ["tpep_pickup_datetime >= '2025-01-10'", `("tpep_pickup_datetime" >= TIMESTAMP '2025-01-10 00:00:00')`],
    ["tpep_pickup_datetime >= DATE '2025-01-10'", `("tpep_pickup_datetime" >= TIMESTAMP '2025-01-10 00:00:00')`],
    [
      'passenger_count IS NULL OR payment_type IS NOT NULL',
      '(("passenger_count" IS NULL) OR ("payment_type" IS NOT NULL))',
    ],
    ['(tip_amount > 1) IS NOT TRUE', '(("tip_amount" > 1) IS NOT TRUE)'],
    ['tip_amount * 2 + -extra >= total_amount % 3', '((("tip_amount" * 2) + (-"extra")) >= ("total_amount" % 3))'],
    ['round(tip_amount / total_amount, 2) > 0.2', '(round(("tip_amount" / "total_amount"), 2) > 0.2)'],
    ['abs(coalesce(tip_amount, 0)) = 0', '(abs(coalesce("tip_amount", 0)) = 0)'],
    ["lower(store_and_fwd_flag) = upper('n')", `(lower("store_and_fwd_flag") = upper('n'))`],
    ["CAST(VendorID AS VARCHAR) = '1'", `(CAST("VendorID" AS VARCHAR) = '1')`],
    ['CAST(VendorID AS DECIMAL(12, 2)) > 1', '(CAST("VendorID" AS DECIMAL(12,2)) > 1)'],
    ['trip_id = 12345678901234567890', '("trip_id" = 12345678901234567890)'],
    ['NOT NOT VendorID = 1', '(NOT (NOT ("VendorID" = 1)))'],
    ['VendorID = 1 AND extra = 2 AND tip_amount = 3', '(("VendorID" = 1) AND ("extra" = 2) AND ("tip_amount" = 3))'],
    [
      '(VendorID = 1 AND extra = 2) AND tip_amount = 3',
      '((("VendorID" = 1) AND ("extra" = 2)) AND ("tip_amount" = 3))',
    ],
    ['VendorID = 1 or VendorID = 2 and VendorID = 3', '(("VendorID" = 1) OR (("VendorID" = 2) AND ("VendorID" = 3)))'],
  ];
  it.each(cases)('%s', (text, sql) => {
    expect(renderSql(parsePredicate(text, taxi))).toBe(sql);
  });

  it('binds Delta timestamp (instant) columns to UTC literals', () => {
    expect(renderSql(parsePredicate("event_time < TIMESTAMP '2025-01-10 00:00:00'", wide))).toBe(
      `("event_time" < TIMESTAMPTZ '2025-01-10 00:00:00+00')`,
    );
    expect(renderSql(parsePredicate("event_time < '2025-01-10T01:00:00+01:00'", wide))).toBe(
      `("event_time" < TIMESTAMPTZ '2025-01-10 00:00:00+00')`,
    );
  });

  it('quotes and escapes identifiers that need it', () => {
    const e = parsePredicate('"we""ird name" IS NULL AND flag', wide);
    expect(renderSql(e)).toBe('(("we""ird name" IS NULL) AND "flag")');
    expect(renderExpression(e)).toBe('"we""ird name" IS NULL AND flag');
  });

  it('matches names exactly, quoted or not, as delta-rs (identifier normalisation off) does', () => {
    expect(renderSql(parsePredicate('dup = 1 AND Dup = 2', wide))).toBe('(("dup" = 1) AND ("Dup" = 2))');
    expect(renderSql(parsePredicate('"VendorID" = 1 AND VendorID = 2', taxi))).toBe(
      '(("VendorID" = 1) AND ("VendorID" = 2))',
    );
    expect(refusal(() => parsePredicate('DUP = 1', wide)).message).toMatch(
      /^unknown column 'DUP' at position 1 in predicate \(column names are case-sensitive, as in delta-rs: did you mean 'Dup' or 'dup'\?\); columns are: VendorID, .*, Dup, dup$/,
    );
  });

  it('refuses a name that differs from a column only in case, naming the column and every valid name', () => {
    const columns = taxi.fields.map((f) => f.name).join(', ');
    for (const [text, name, pos] of [
      ['VendorId = 1', 'VendorId', 1],
      ['vendorid = 1', 'vendorid', 1],
      ['"VendorId" = 1', 'VendorId', 1],
      ['VendorID = 1 OR TIP_AMOUNT > 0', 'TIP_AMOUNT', 17],
    ] as const) {
      const e = refusal(() => parsePredicate(text, taxi));
      const right = name.toLowerCase() === 'vendorid' ? 'VendorID' : 'tip_amount';
      expect(e.message).toBe(
        `unknown column '${name}' at position ${pos} in predicate (column names are case-sensitive, as in delta-rs: did you mean '${right}'?); columns are: ${columns}`,
      );
      expect(e.position).toBe(pos);
    }
  });

  it('carries canonical names and Delta types on column references', () => {
    const e = parsePredicate('VendorID = 1', taxi);
    expect(e).toMatchObject({
      kind: 'compare',
      left: { kind: 'column', name: 'VendorID', type: 'integer', sqlType: 'number' },
    });
    expect(columnsOf(parsePredicate('VendorID = 1 OR tip_amount > fare_amount AND VendorID IS NULL', taxi))).toEqual([
      'VendorID',
      'tip_amount',
      'fare_amount',
    ]);
  });

  it('renders a readable form that parses back to the same SQL', () => {
    const texts = [
      'VendorID = 1',
      'VendorID IN (1, 2) AND NOT (trip_distance > 10)',
      '(VendorID = 1 OR VendorID = 2) AND tip_amount - -1 > 0',
      'tip_amount - (extra - 1) = -(-fare_amount)',
      "CAST(tpep_pickup_datetime AS DATE) = DATE '2025-02-14'",
      "store_and_fwd_flag = 'it''s'",
      '(tip_amount > 1) = TRUE',
    ];
    for (const text of texts) {
      const e = parsePredicate(text, taxi);
      expect(renderSql(parsePredicate(renderExpression(e), taxi))).toBe(renderSql(e));
    }
    expect(renderExpression(parsePredicate('"VendorID" = 1', taxi))).toBe('VendorID = 1');
    expect(
      renderExpression(parsePredicate('(VendorID = 1 OR VendorID = 2) AND tip_amount * (1 + extra) > 0', taxi)),
    ).toBe('(VendorID = 1 OR VendorID = 2) AND tip_amount * (1 + extra) > 0');
  });
});

describe('parsePredicate: refusals name the problem', () => {
  const cases: [string, RegExp][] = [
    ['VendorID = 1; DROP TABLE x', /';' at position 13/],
    ['VendorID = 1 -- x', /comments.*'--' at position 14/],
    ['/* */ VendorID = 1', /comments.*'\/\*' at position 1/],
    ['VendorID = 1 UNION SELECT 1', /keyword 'UNION' at position 14/],
    ['VendorID = (SELECT 1)', /keyword 'SELECT' at position 13/],
    ["read_csv('/etc/passwd') IS NOT NULL", /function 'read_csv' at position 1 is not allowed/],
    [
      'foo = 1',
      /unknown column 'foo' at position 1 in predicate; columns are: VendorID, tpep_pickup_datetime, .*trip_id$/,
    ],
    ['t.VendorID = 1', /qualified column names .*'t\.VendorID' at position 1/],
    ['VendorID = 1) OR (1 = 1', /unexpected '\)' at position 13/],
    ["'abc", /unterminated string literal .*'abc at position 1/],
    ['', /empty predicate/],
    ['   ', /empty predicate/],
    ['tip_amount + 1', /boolean condition.*'tip_amount \+ 1' \(number\)/],
    [
      'store_and_fwd_flag = 1',
      /cannot compare 'store_and_fwd_flag' \(string\) with '1' \(number\) at '=' \(position 20\)/,
    ],
    ['VendorID = 1 ORDER BY 1', /keyword 'ORDER'/],
    ['VendorID = 1 LIMIT 1', /keyword 'LIMIT'/],
    ['VendorID = 1 FROM x', /keyword 'FROM'/],
    ['(VendorID = 1', /expected '\)'.*end of the input/],
    ['VendorID =', /ends too early/],
    ['VendorID IN (SELECT 1)', /keyword 'SELECT'/],
    ['VendorID IN (trip_id)', /IN takes literal values only.*'trip_id' at position 14/],
    ['VendorID = 1 AND', /ends too early/],
    ['VendorID :: INTEGER = 1', /unexpected character ':' at position 10/],
    ['CAST(VendorID AS BLOB) = 1', /unsupported CAST type 'BLOB' at position 18/],
    ["DATE '2025-02-30' = DATE '2025-02-28'", /invalid date '2025-02-30' at position 6/],
    ['VendorID = 1 AND tip_amount', /'AND' at position 14 needs boolean operands.*'tip_amount'/],
    ['1abc = 1', /malformed number '1a' at position 1/],
    ['upper(VendorID) = 1', /'upper' at position 1 needs string operands/],
    ['round(tip_amount, extra) > 1', /round\(\) at position 1 needs an integer literal/],
    ['VendorID IS 1', /expected NULL, TRUE or FALSE after IS, but found '1' at position 13/],
    ['"VendorID = 1', /unterminated quoted identifier/],
    ['VendorID = 1e999', /number out of range: '1e999'/],
    ['VendorID = `x`', /unexpected character '`'/],
  ];
  it.each(cases)('%s', (text, message) => {
    expect(refusal(() => parsePredicate(text, taxi)).message).toMatch(message);
  });

  it('gives the 1-based position of the offending token', () => {
    expect(refusal(() => parsePredicate('VendorID = 1; DROP TABLE x', taxi)).position).toBe(13);
    expect(refusal(() => parsePredicate('VendorID = 1 AND foo = 2', taxi)).position).toBe(18);
  });

  it('refuses over-long input and deep nesting', () => {
    const long = `VendorID IN (${Array.from({ length: 4000 }, () => '1').join(', ')})`;
    expect(refusal(() => parsePredicate(long, taxi)).message).toMatch(/too long: \d+ characters, the limit is 10000/);
    const deep = `${'('.repeat(65)}VendorID = 1${')'.repeat(65)}`;
    expect(refusal(() => parsePredicate(deep, taxi)).message).toMatch(/nests deeper than 64 levels at '\('/);
    const notDeep = `${'NOT '.repeat(70)}VendorID = 1`;
    expect(refusal(() => parsePredicate(notDeep, taxi)).message).toMatch(/nests deeper than 64/);
    const ok = `${'('.repeat(60)}VendorID = 1${')'.repeat(60)}`;
    expect(renderSql(parsePredicate(ok, taxi))).toBe('("VendorID" = 1)');
    // A chain of arithmetic nests one level per operator; a chain of ORs is one flat node.
    const sum = `${Array.from({ length: 70 }, () => 'tip_amount').join(' + ')} > 0`;
    expect(refusal(() => parsePredicate(sum, taxi)).message).toMatch(/nests deeper than 64 levels at '\+'/);
    const ors = Array.from({ length: 500 }, (_, i) => `VendorID = ${i}`).join(' OR ');
    expect(renderSql(parsePredicate(ors, taxi))).toMatch(/^\(\("VendorID" = 0\) OR .* OR \("VendorID" = 499\)\)$/);
  });

  it('refuses comparisons across types and zones', () => {
    expect(refusal(() => parsePredicate("tpep_pickup_datetime = 'soon'", taxi)).message).toMatch(
      /invalid timestamp 'soon'/,
    );
    expect(refusal(() => parsePredicate('flag = 1', wide)).message).toMatch(/cannot compare 'flag' \(boolean\)/);
    expect(refusal(() => parsePredicate('event_time < tpep_pickup_datetime', wide)).message).toMatch(/time zone/);
  });
});

describe('parseUpdateExpression', () => {
  it('accepts scalar values and renders them', () => {
    expect(renderSql(parseUpdateExpression('tip_amount + 1', taxi, 'tip_amount'))).toBe('("tip_amount" + 1)');
    expect(renderSql(parseUpdateExpression('tip_amount + 1', taxi))).toBe('("tip_amount" + 1)');
    expect(renderSql(parseUpdateExpression("'Y'", taxi, 'store_and_fwd_flag'))).toBe(`'Y'`);
    expect(renderSql(parseUpdateExpression('NULL', taxi, 'tip_amount'))).toBe('NULL');
    expect(renderSql(parseUpdateExpression("'2025-02-14'", wide, 'day'))).toBe(`DATE '2025-02-14'`);
    expect(renderSql(parseUpdateExpression("'2025-02-14 10:00:00'", wide, 'event_time'))).toBe(
      `TIMESTAMPTZ '2025-02-14 10:00:00+00'`,
    );
    expect(renderSql(parseUpdateExpression('round(fare_amount * 1.1, 2)', wide, 'price'))).toBe(
      'round(("fare_amount" * 1.1), 2)',
    );
  });

  it('refuses values that do not fit the target column', () => {
    expect(refusal(() => parseUpdateExpression('1', taxi, 'store_and_fwd_flag')).message).toMatch(
      /cannot assign '1' \(number\) at position 1 to column 'store_and_fwd_flag' of type string/,
    );
    expect(refusal(() => parseUpdateExpression("'x'", taxi, 'VendorID')).message).toMatch(/cannot assign/);
    expect(refusal(() => parseUpdateExpression('NULL', taxi, 'trip_id')).message).toMatch(/not nullable/);
    expect(refusal(() => parseUpdateExpression('1', taxi, 'nope')).message).toMatch(/unknown column 'nope'/);
    expect(refusal(() => parseUpdateExpression('1; SELECT 1', taxi, 'VendorID')).message).toMatch(/';'/);
    expect(refusal(() => parseUpdateExpression('', taxi)).message).toMatch(/empty update expression/);
  });

  it('resolves target names like column references: exactly, bare or double-quoted', () => {
    expect(resolveColumn(taxi, 'VendorID').name).toBe('VendorID');
    expect(resolveColumn(taxi, '"VendorID"').name).toBe('VendorID');
    expect(resolveColumn(wide, '"we""ird name"').name).toBe('we"ird name');
    expect(refusal(() => resolveColumn(taxi, 'vendorid')).message).toMatch(
      /^unknown column 'vendorid' in schema \(column names are case-sensitive, as in delta-rs: did you mean 'VendorID'\?\); columns are: VendorID, tpep_pickup_datetime, /,
    );
    expect(refusal(() => parseUpdateExpression('1', taxi, 'VendorId')).message).toMatch(
      /unknown column 'VendorId'.*'VendorID'/,
    );
  });
});
