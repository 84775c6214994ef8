/**
 * "Your table" in the playground: the columns a schema offers, the bands of a column's values and which
 * files' stats may hold each, the writers' matches as rows of the same picture, and the API's refusals
 * placed next to the fields they are about, and what the engine read past to load the table.
 */
import { describe, expect, it } from 'vitest';
import { placeProblems } from '../lib/playground/field-problems';
import { type SchemaColumn, schemaColumns } from '../lib/playground/schema-columns';
import { MAX_BANDS, overlaps, valueBands } from '../lib/playground/value-bands';
import {
  layoutPredicates,
  loadWarnings,
  YOUR_LAYOUT_QUERY,
  type YourLayout,
  yourHeatmap,
  yourWriterInput,
} from '../lib/playground/your-table';
import { setPairs } from '../lib/races';

const SCHEMA = JSON.stringify({
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'region', type: 'string', nullable: true, metadata: {} },
    { name: 'tags', type: { type: 'array', elementType: 'string', containsNull: true }, nullable: true, metadata: {} },
    {
      name: 'address',
      type: { type: 'struct', fields: [{ name: 'zip', type: 'integer', nullable: true, metadata: {} }] },
      nullable: true,
      metadata: {},
    },
    { name: 'day', type: 'date', nullable: true, metadata: {} },
  ],
});

type File = YourLayout['files'][number];
const file = (path: string, rows: number, min: object, max: object, extra: Partial<File> = {}): File => ({
  path,
  rows,
  partitionValues: [],
  minValues: JSON.stringify(min),
  maxValues: JSON.stringify(max),
  matches: null,
  ...extra,
});

const col = (name: string, type: string, partition = false): SchemaColumn => ({ name, type, partition });

describe("your table's columns", () => {
  it('offers every primitive column, nested ones by their dotted path, and marks partition columns', () => {
    expect(schemaColumns(SCHEMA, ['region'])).toEqual([
      { name: 'id', type: 'long', partition: false },
      { name: 'region', type: 'string', partition: true },
      { name: 'address.zip', type: 'integer', partition: false },
      { name: 'day', type: 'date', partition: false },
    ]);
    expect(schemaColumns('not json', [])).toEqual([]);
  });
});

describe('bands of a column', () => {
  it('has one band per value of an integer column spanning few values', () => {
    const bands = valueBands(
      [
        { min: 1, max: 3 },
        { min: 5, max: 7 },
      ],
      col('id', 'long'),
    );
    expect(bands.map((b) => b.label)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('cuts a wide whole-number column into bands of whole numbers', () => {
    const bands = valueBands([{ min: 0, max: 9 }], col('id', 'long'));
    expect(bands.map((b) => b.label)).toEqual(['0..1', '2..3', '4..5', '6..7', '8..9']);
    expect(overlaps({ min: 3, max: 3 }, bands[1] as never)).toBe(true);
    expect(overlaps({ min: 4, max: 9 }, bands[1] as never)).toBe(false);
  });

  it('cuts a wide numeric column into equal bands, the last one closed', () => {
    const bands = valueBands(
      [
        { min: 0, max: 400 },
        { min: 400, max: 800 },
      ],
      col('amount', 'double'),
    );
    expect(bands).toHaveLength(MAX_BANDS);
    expect(bands[0]).toMatchObject({ lo: 0, hi: 100, closed: false, label: '0..100' });
    expect(bands[MAX_BANDS - 1]).toMatchObject({ lo: 700, hi: 800, closed: true });
    // A file ending at 400 does not reach into 400..500; one starting there does.
    expect(overlaps({ min: 0, max: 400 }, bands[4] as never)).toBe(true);
    expect(overlaps({ min: 0, max: 399 }, bands[4] as never)).toBe(false);
    expect(overlaps({ min: 800, max: 800 }, bands[7] as never)).toBe(true);
    // No stats: it may hold anything.
    expect(overlaps(null, bands[0] as never)).toBe(true);
  });

  it('cuts text at the files own ends, and shows dates as dates', () => {
    const text = valueBands(
      [
        { min: 'apple', max: 'kiwi' },
        { min: 'lemon', max: 'plum' },
      ],
      col('region', 'string'),
    );
    expect(text.map((b) => b.label)).toEqual(['apple..kiwi', 'kiwi..lemon', 'lemon..plum']);
    const days = valueBands(
      [
        { min: Date.parse('2025-01-01'), max: Date.parse('2025-01-09') },
        { min: Date.parse('2025-01-09'), max: Date.parse('2025-01-17') },
      ],
      col('day', 'date'),
    );
    expect(days[0]?.label).toBe('2025-01-01..2025-01-03');
    expect(days[MAX_BANDS - 1]?.label).toBe('2025-01-15..2025-01-17');
  });
});

describe("your table's heatmap", () => {
  const layout = {
    files: [
      file('a.parquet', 10, { id: 0, address: { zip: 1000 } }, { id: 4, address: { zip: 1999 } }, { matches: [3, 0] }),
      file('b.parquet', 20, { id: 5 }, { id: 9 }, { matches: [0, 20] }),
      file('c.parquet', 5, {}, {}, { matches: [1, 1] }),
    ],
  };
  const counted = layoutPredicates({
    first: { operation: 'update', predicate: 'id < 2', set: 'id = id + 1' },
    second: { operation: 'delete', predicate: 'id > 4', set: '' },
  });

  it('colours a band by the rows of each file whose stats may hold it, then each predicate by its matches', () => {
    const map = yourHeatmap(layout, col('id', 'long'), counted);
    expect(map.columns.map((c) => c.number)).toEqual([1, 2, 3]);
    expect(map.bands.map((b) => b.label)).toEqual(['0..1', '2..3', '4..5', '6..7', '8..9']);
    expect(map.rows.slice(0, 5).map((r) => r.cells)).toEqual([
      [10, 0, 5],
      [10, 0, 5],
      [10, 20, 5],
      [0, 20, 5],
      [0, 20, 5],
    ]);
    expect(map.rows[0]).toMatchObject({ label: 'id in 0..1', tone: 'count' });
    expect(map.rows.slice(5)).toMatchObject([
      { label: 'FIRST: id < 2', tone: 'match', cells: [3, 0, 1] },
      { label: 'SECOND: id > 4', tone: 'match', cells: [0, 20, 1] },
    ]);
    expect(map.max).toBe(20);
    expect(map.unstated).toEqual([3]);
    expect(map.rows[0]?.titles[1]).toBe('file 2 (id 5..9, 20 rows) holds none of 0..1');
    expect(map.rows.at(-1)?.titles[1]).toBe("file 2: 20 of 20 rows match SECOND's predicate");
    expect(map.summary).toMatch(
      /^3 files, by id: id in 0\.\.1 in files 1, 3; id in 2\.\.3 in files 1, 3; id in 4\.\.5 in files 1–3; /,
    );
    expect(map.summary).toContain(
      "FIRST's predicate matches rows in files 1, 3; SECOND's predicate matches rows in files 2–3",
    );
    expect(map.summary).toMatch(/no stats of id in file 3\.$/);
  });

  it('reads a nested column from nested stats', () => {
    const map = yourHeatmap(layout, col('address.zip', 'integer'));
    expect(map.unstated).toEqual([2, 3]);
    expect(map.rows[0]).toMatchObject({ label: 'address.zip in 1,000..1,124', cells: [10, 20, 5] });
    expect(map.rows.every((r) => r.cells[0] === 10 && r.cells[1] === 20)).toBe(true);
  });

  it('maps a partition column by its partition values, grouped', () => {
    const parted = {
      files: ['eu', 'eu', 'us'].map((region, i) =>
        file(`region=${region}/${i}.parquet`, 4 + i, {}, {}, { partitionValues: [{ key: 'region', value: region }] }),
      ),
    };
    const map = yourHeatmap(parted, col('region', 'string', true));
    expect(map.groups.map((g) => [g.partition, g.count])).toEqual([
      ['region=eu', 2],
      ['region=us', 1],
    ]);
    expect(map.rows.map((r) => [r.label, r.cells])).toEqual([
      ['region = eu', [4, 5, 0]],
      ['region = us', [0, 0, 6]],
    ]);
    expect(map.summary).toBe('3 files in 2 partitions, by region: region = eu in files 1–2; region = us in file 3.');
  });
});

describe("your table's writers and the API's refusals", () => {
  it('sends each writer as the API takes it; optimize has no predicate to count', () => {
    const first = { operation: 'update' as const, predicate: 'id = 1', set: 'id = id + 1\n region = upper(region)' };
    expect(yourWriterInput('first', first)).toEqual({
      name: 'first',
      operation: 'update',
      predicate: 'id = 1',
      set: setPairs(first.set),
    });
    expect(setPairs(first.set)).toEqual([
      { key: 'id', value: 'id + 1' },
      { key: 'region', value: 'upper(region)' },
    ]);
    const second = { operation: 'optimize' as const, predicate: 'ignored', set: '' };
    expect(yourWriterInput('second', second)).toEqual({ name: 'second', operation: 'optimize' });
    expect(layoutPredicates({ first, second })).toEqual([{ who: 'first', predicate: 'id = 1' }]);
  });

  it('puts each message next to its field, once', () => {
    const counted = [{ who: 'second' as const }];
    const placed = placeProblems(
      [
        { message: 'predicates[0]: unknown column nope', problems: [] },
        {
          message: 'several',
          problems: ['writer second: predicate: unknown column nope', 'writer first: set id: expected an expression'],
        },
        { message: 'the table has no rows' },
      ],
      counted,
    );
    expect(placed.predicate).toEqual({ first: [], second: ['unknown column nope'] });
    expect(placed.set).toEqual({ first: ['set id: expected an expression'], second: [] });
    expect(placed.other).toEqual(['the table has no rows']);
    expect(placeProblems([{ message: 'predicates[3]: x' }], counted).other).toEqual(['predicates[3]: x']);
  });
});

describe("your table's load warnings", () => {
  it('asks for them, and says them above the map only when there are some', () => {
    expect(JSON.stringify(YOUR_LAYOUT_QUERY)).toContain('"value":"warnings"');
    expect(loadWarnings({ version: 15, warnings: [] })).toBeNull();
    const warning =
      '_delta_log/00000000000000000010.checkpoint.parquet: unreadable checkpoint skipped, version 15 loaded from the JSON commits from version 0 instead (truncated)';
    expect(loadWarnings({ version: 15, warnings: [warning] })).toEqual({
      title: 'Version 15 was read, but not the usual way (1 warning):',
      items: [warning],
    });
    expect(loadWarnings({ version: 3, warnings: ['a', 'b'] })?.title).toBe(
      'Version 3 was read, but not the usual way (2 warnings):',
    );
  });
});
