/**
 * The engine's column names against delta-rs's own answers (fixtures/delta-rs-identifiers.json, recorded from
 * deltalake 1.6.6): a predicate is refused exactly when delta-rs refuses it, and a refusal names what delta-rs
 * names: the unknown name, the column it differs from only in case (delta-rs's "Column names are case
 * sensitive" line), and the same valid names in the same order.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { field, type StructType } from '../src/kernel/delta/protocol/schema';
import { ExpressionError, parsePredicate } from '../src/kernel/sql';

interface Recorded {
  deltalake: string;
  columns: string[];
  deletes: { predicate: string; refused: string | null }[];
}

const recorded: Recorded = JSON.parse(
  readFileSync(new URL('./fixtures/delta-rs-identifiers.json', import.meta.url), 'utf8'),
);
const schema: StructType = {
  type: 'struct',
  fields: [
    field('VendorID', 'long'),
    field('tpep_pickup_datetime', 'long'),
    field('fare_amount', 'double'),
    field('PULocationID', 'integer'),
  ],
};

/** A name as DataFusion prints it (double-quoted unless lower case), unquoted. */
const unquote = (name: string) => (name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name);

/** What a delta-rs refusal names: the unknown column, the column of the case hint, the valid names. */
function deltaRsNames(message: string) {
  const unknown = /No field named ("(?:[^"]|"")*"|[a-z_][a-z0-9_]*)\./.exec(message)?.[1];
  const cased = /refer to the ("(?:[^"]|"")*"|[a-z_][a-z0-9_]*) column/.exec(message)?.[1];
  const valid = /Valid fields are (.*)\.$/.exec(message)?.[1];
  return {
    unknown: unknown === undefined ? undefined : unquote(unknown),
    cased: cased === undefined ? undefined : unquote(cased),
    valid: valid?.split(', ').map(unquote),
  };
}

/** The same from the engine's refusal. */
function engineNames(message: string) {
  const m =
    /^unknown column '(.*?)' at position \d+ in predicate(?: \(.*did you mean '(.*)'\?\))?; columns are: (.*)$/.exec(
      message,
    );
  return { unknown: m?.[1], cased: m?.[2], valid: m?.[3]?.split(', ') };
}

function engineRefusal(predicate: string): string | null {
  try {
    parsePredicate(predicate, schema);
    return null;
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    return e.message;
  }
}

describe(`column names in predicates, as delta-rs ${recorded.deltalake} answers`, () => {
  it('the recorded table is the schema used here', () => {
    expect(schema.fields.map((f) => f.name)).toEqual(recorded.columns);
    expect(recorded.deletes.filter((d) => d.refused === null).length).toBeGreaterThan(0);
    expect(recorded.deletes.filter((d) => d.refused !== null).length).toBeGreaterThan(0);
  });

  for (const { predicate, refused } of recorded.deletes) {
    it(`${predicate}: ${refused === null ? 'accepted' : 'refused'}`, () => {
      const mine = engineRefusal(predicate);
      if (refused === null) {
        expect(mine).toBeNull();
        return;
      }
      expect(mine).not.toBeNull();
      const theirs = deltaRsNames(refused);
      expect(theirs.unknown).toBeDefined();
      expect(engineNames(mine as string)).toEqual(theirs);
    });
  }
});
