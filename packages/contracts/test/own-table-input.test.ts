/**
 * Races on a table of one's own, stage 1: `tableLocation` (the lab's custom race: `location`) instead
 * of a lab table, and writers that add rows from `sourceLocation` or `sample` instead of a February day. Every
 * problem at once, each naming its writer and field; the lab's races keep their rules and words.
 */
import type { StructType } from '@racelab/engine/conflict';
import { describe, expect, it } from 'vitest';
import { checkCustomRace, checkStartRace, customRaceOf, fieldsOf, writerInputSchema } from '../src/index';

const TABLE: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'value', type: 'string', nullable: true, metadata: {} },
  ],
};

const problemsOf = (checked: { ok: boolean; problems?: string[] }) => checked.problems;
const update = (name: string, predicate: string) => ({
  name,
  operation: 'update',
  predicate,
  set: [{ key: 'value', value: "'x'" }],
});

describe('startRace on a table of your own', () => {
  it('takes writers whose rows come from a file or a sample, with the predicates their operations need', () => {
    const checked = checkStartRace(
      {
        tableLocation: 'teams/orders',
        writers: [
          update('a', 'id < 10'),
          { name: 'b', operation: 'append', sourceLocation: 'feeds/new.parquet', blindAppend: true },
          { name: 'c', operation: 'overwrite', predicate: 'id = 3', sample: 5 },
          { name: 'd', operation: 'check-then-append', predicate: 'id = 4', sourceLocation: 'feeds/new.parquet' },
          { name: 'e', operation: 'optimize' },
        ],
        runs: 2,
      },
      { tableSchema: TABLE },
    );
    if (!checked.ok) throw new Error(checked.problems.join('; '));
    expect(customRaceOf(checked.value)).toMatchObject({
      location: 'teams/orders',
      writers: [
        { name: 'a', set: { value: "'x'" } },
        { name: 'b', sourceLocation: 'feeds/new.parquet' },
        { name: 'c', sample: 5 },
        { name: 'd', sourceLocation: 'feeds/new.parquet' },
        { name: 'e' },
      ],
    });
    expect(customRaceOf(checked.value)).not.toHaveProperty('table');
  });

  it('names every problem at once: days, missing and doubled sources, predicates, samples, the table twice', () => {
    const problems = problemsOf(
      checkStartRace(
        {
          tableLocation: 'teams/orders',
          table: 'flat',
          writers: [
            { name: 'a', operation: 'append', day: '2025-02-01' },
            { name: 'b', operation: 'append' },
            { name: 'c', operation: 'overwrite', sourceLocation: 'f.parquet', sample: 3, predicate: 'id = 1' },
            { name: 'd', operation: 'overwrite', sample: 3 },
            { name: 'e', operation: 'append', sample: 3, predicate: 'id = 1' },
            { name: 'f', operation: 'append', sample: 0 },
            { name: 'g', operation: 'update', predicate: 'nope = 1', set: [{ key: 'value', value: "'x'" }], sample: 1 },
            { name: 'h', operation: 'delete', predicate: 'nope = 1' },
          ],
        },
        { tableSchema: TABLE },
      ),
    );
    expect(problems).toEqual([
      "writer a: day is one of the lab's February days; a table of your own takes sourceLocation or sample",
      'writer b: append needs sourceLocation (a Parquet file under LAB_ROOTS) or sample (rows of the table itself)',
      'writer c: give sourceLocation or sample, not both',
      'writer d: overwrite needs a predicate',
      'writer e: append takes no predicate',
      'writer f: sample must be a whole number from 1 to 1000000, got 0',
      'writer g: update takes no sample',
      "writer h: predicate: unknown column 'nope' at position 1 in predicate; columns are: id, value",
      "give table (one of the lab's) or tableLocation (a table of your own), not both",
    ]);
  });

  it("refuses sources on the lab's tables and a tableLocation on a preset, and keeps the lab's words", () => {
    expect(
      problemsOf(
        checkStartRace({
          writers: [
            { name: 'a', operation: 'append', sourceLocation: 'f.parquet' },
            { name: 'b', operation: 'check-then-append', day: '2025-02-14', sample: 10 },
            { name: 'c', operation: 'overwrite' },
            { name: 'd', operation: 'overwrite', day: '2025-02-14', predicate: 'VendorID = 1' },
          ],
        }),
      ),
    ).toEqual([
      "writer a: sourceLocation is for a table of your own (tableLocation); the lab's tables take a day",
      "writer b: sample is for a table of your own (tableLocation); the lab's tables take a day",
      'writer c: overwrite needs a day (2025-02-01, 2025-02-02, 2025-02-14)',
      'writer d: overwrite takes no predicate',
    ]);
    expect(problemsOf(checkStartRace({ caseId: 'B1', tableLocation: 't' }))).toEqual([
      'tableLocation applies to custom writers only; a preset names its own',
    ]);
    const writers = [update('a', 'VendorID = 1'), update('b', 'VendorID = 2')];
    expect(problemsOf(checkStartRace({ tableLocation: ' LAB:flat@1', writers }))).toEqual([
      "tableLocation names a table of your own; the lab's tables are raced with table (flat or partitioned)",
    ]);
  });

  it('gives the new writer fields to the API with their descriptions', () => {
    const fields = fieldsOf(writerInputSchema).filter((f) => ['sourceLocation', 'sample'].includes(f.key));
    expect(fields.map(({ key, kind, required }) => ({ key, kind, required }))).toEqual([
      { key: 'sourceLocation', kind: 'text', required: false },
      { key: 'sample', kind: 'integer', required: false },
    ]);
    expect(fields.every((f) => /table of your own/.test(f.description ?? ''))).toBe(true);
  });
});

describe("the lab's custom race on a table of your own", () => {
  it('takes location instead of table, never both, with the same writer rules', () => {
    const writers = [
      { name: 'a', operation: 'update', predicate: 'id = 1', set: { value: "'y'" } },
      { name: 'b', operation: 'append', sample: 100 },
    ];
    const checked = checkCustomRace({ location: 'teams/orders', writers }, { tableSchema: TABLE });
    expect(checked).toMatchObject({ ok: true, value: { location: 'teams/orders' } });
    expect(problemsOf(checkCustomRace({ location: 'teams/orders', table: 'flat', writers }))).toEqual([
      "give table (one of the lab's) or location (a table of your own), not both",
    ]);
    expect(problemsOf(checkCustomRace({ writers }))).toEqual([
      "writer b: sample is for a table of your own (location); the lab's tables take a day",
    ]);
  });
});
