/**
 * The race input's stage 1, as the dashboard's form runs it (no table schema) and as the API runs it (the base
 * tables' schema): every problem at once, each naming its writer and field, and the same words in both places.
 */
import type { StructType } from '@racelab/engine/conflict';
import { describe, expect, it } from 'vitest';
import {
  checkCustomRace,
  checkStartRace,
  customRaceOf,
  fieldsOf,
  startRaceInputSchema,
  writerInputSchema,
} from '../src/index';

const TABLE: StructType = {
  type: 'struct',
  fields: [
    { name: 'VendorID', type: 'integer', nullable: true, metadata: {} },
    { name: 'tip_amount', type: 'double', nullable: true, metadata: {} },
  ],
};

/** Wrong in every part: writers' fields and rules, the race's fields, its properties and its rules. */
const BAD = {
  runs: 0,
  scale: 0.3,
  table: 'round',
  acrossWorkers: true,
  tableProperties: [
    { key: 'delta.appendOnly', value: 'maybe' },
    { key: 'delta.appendOnly', value: 'true' },
  ],
  writers: [
    {
      name: 'a',
      operation: 'update',
      predicate: 'VendorID = = 1',
      set: [
        { key: 'tip_amount', value: '1' },
        { key: 'tip_amount', value: '2' },
      ],
      maxCommitRetries: 101,
    },
    { name: 'b', operation: 'upsert' },
    { name: 'c', operation: 'append', day: '2025-02-01', blindAppend: true, startAfter: 'zz' },
  ],
};

const problemsOf = (checked: { ok: boolean; problems?: string[] }) => checked.problems;

describe('startRace input, stage 1', () => {
  it('names every problem at once, each with its writer and field', () => {
    expect(problemsOf(checkStartRace(BAD))).toEqual([
      'writer a: set: tip_amount is given twice',
      'writer a: maxCommitRetries must be a whole number from 0 to 100',
      "writer b: unknown operation 'upsert' (one of append, update, delete, optimize, overwrite, check-then-append)",
      "writer c: startAfter names no other writer ('zz')",
      "table must be flat or partitioned, got 'round'",
      'runs must be a whole number from 1 to 50, got 0',
      'scale must be one of 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, got 0.3',
      'tableProperties: delta.appendOnly is given twice',
      'acrossWorkers needs tableRoot: a table every worker reaches (s3://…)',
    ]);
  });

  it("parses expressions given the table's schema, and says everything else in the same words", () => {
    const withoutTable = problemsOf(checkStartRace(BAD)) ?? [];
    const withTable = problemsOf(checkStartRace(BAD, { tableSchema: TABLE })) ?? [];
    expect(withTable.filter((p) => !withoutTable.includes(p))).toEqual([
      "writer a: predicate: unexpected '=' at position 12 in predicate",
    ]);
    expect(withTable.filter((p) => withoutTable.includes(p))).toEqual(withoutTable);
    const unknownColumn = checkStartRace(
      {
        writers: [
          { name: 'a', operation: 'delete', predicate: 'fare > 1' },
          { name: 'b', operation: 'update', predicate: 'VendorID = 2', set: [{ key: 'nope', value: '1' }] },
        ],
      },
      { tableSchema: TABLE },
    );
    expect(problemsOf(unknownColumn)).toEqual([
      "writer a: predicate: unknown column 'fare' at position 1 in predicate; columns are: VendorID, tip_amount",
      "writer b: set nope: unknown column 'nope' in schema; columns are: VendorID, tip_amount",
    ]);
  });

  it('refuses what is not an object, and a race that is both or neither a preset and custom writers', () => {
    expect(problemsOf(checkStartRace([1]))).toEqual(['must be an object, got a list']);
    expect(problemsOf(checkStartRace({ writers: 'x' }))).toEqual(["writers must be a list, got 'x'"]);
    expect(problemsOf(checkStartRace({}))).toEqual([
      'give either caseId (a preset) or writers (a custom race), not both',
    ]);
    expect(problemsOf(checkStartRace({ caseId: 'B1', table: 'flat' }))).toEqual([
      'table applies to custom writers only; a preset names its own',
    ]);
  });

  it("fills runs and scale, and gives custom writers in the lab's form", () => {
    const checked = checkStartRace({
      writers: [
        { name: 'a', operation: 'update', predicate: 'VendorID = 1', set: [{ key: 'tip_amount', value: '1' }] },
        { name: 'b', operation: 'optimize', startAfter: 'a' },
      ],
      tableProperties: [{ key: 'delta.isolationLevel', value: 'Serializable' }],
    });
    if (!checked.ok) throw new Error(checked.problems.join('; '));
    expect(checked.value).toMatchObject({ runs: 5, scale: 1 });
    expect(customRaceOf(checked.value)).toEqual({
      table: 'flat',
      properties: { 'delta.isolationLevel': 'Serializable' },
      writers: [
        { name: 'a', operation: 'update', predicate: 'VendorID = 1', set: { tip_amount: '1' } },
        { name: 'b', operation: 'optimize', startAfter: 'a' },
      ],
    });
  });
});

describe("the lab's custom race", () => {
  it('checks maps as objects, keeping every key as data', () => {
    const race = {
      writers: [
        { name: 'a', operation: 'update', predicate: 'VendorID = 1', set: { tip_amount: 3 } },
        { name: '9', operation: 'optimize' },
      ],
      properties: JSON.parse('{"__proto__": "x"}'),
    };
    expect(problemsOf(checkCustomRace(race))).toEqual([
      "writer a: set['tip_amount'] must be a string, got 3",
      "writer name '9' must be a letter then up to 31 letters, digits, _ or -",
      "table property '__proto__' is not one a race can set (delta.isolationLevel, delta.appendOnly, delta.checkpointInterval, delta.targetFileSize)",
    ]);
  });
});

describe('fieldsOf (what the API builds its GraphQL input types from)', () => {
  it('gives each field its kind, required-ness, default and description', () => {
    expect(fieldsOf(startRaceInputSchema).filter((f) => ['writers', 'runs', 'scale', 'table'].includes(f.key))).toEqual(
      [
        { key: 'writers', kind: 'list', required: false },
        {
          key: 'table',
          kind: 'text',
          required: false,
          description: 'custom writers only: flat (default) or partitioned',
        },
        { key: 'runs', kind: 'integer', required: false, defaultValue: 5 },
        { key: 'scale', kind: 'number', required: false, defaultValue: 1 },
      ],
    );
  });
});

describe('a command writer (a job of your own)', () => {
  const job = (extra: object = {}) => ({ name: 'job1', command: ['python3', 'job.py'], ...extra });
  it('takes a command, a cwd and startAfter, and no operation', () => {
    const checked = checkCustomRace({ writers: [job({ cwd: '/jobs' }), job({ name: 'job2', startAfter: 'job1' })] });
    expect(checked.ok).toBe(true);
  });
  it("is refused with an operation's fields, an empty command, or a cwd without a command; others need an operation", () => {
    const checked = checkCustomRace({
      writers: [
        job({ operation: 'append', day: '2025-02-01' }),
        { name: 'job2', command: [] },
        { name: 'w3', cwd: '/jobs', operation: 'optimize' },
        { name: 'w4' },
      ],
    });
    expect(checked.ok ? [] : checked.problems).toEqual([
      'writer job1: a command writer takes no operation (only name, command, cwd, startAfter)',
      'writer job1: a command writer takes no day (only name, command, cwd, startAfter)',
      'writer job2: command must name a program',
      'writer w3: cwd is for a command writer (command)',
      'writer w4: operation is required (or command, for a job of your own)',
    ]);
  });
  it('gives the API command as a list of text', () => {
    expect(fieldsOf(writerInputSchema).filter((f) => ['command', 'cwd', 'operation'].includes(f.key))).toMatchObject([
      { key: 'operation', kind: 'text', required: false },
      { key: 'command', kind: 'texts', required: false },
      { key: 'cwd', kind: 'text', required: false },
    ]);
  });
});
