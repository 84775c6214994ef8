/**
 * Column names in a race's predicates and update targets, through the API as a client sends them: matched
 * exactly, as delta-rs 1.6 matches them (it parses with identifier normalisation off), so `VendorId` on the
 * lab's table, whose column is `VendorID`, is refused before anything is stored, naming the column it
 * differs from and every valid name; the exact name, bare or double-quoted, is not refused.
 */
import { labTableSchema } from '@racelab/lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gql } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id } }`;
const COLUMNS = labTableSchema()
  .fields.map((f) => f.name)
  .join(', ');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

it('startRace refuses a column name that differs from the table column only in case, listing the valid names', async () => {
  const r = await gql(
    stack.apiUrl,
    START,
    {
      input: {
        writers: [
          { name: 'cased', operation: 'update', predicate: 'VendorId = 1', set: [{ key: 'vendorid', value: '2' }] },
          {
            name: 'exact',
            operation: 'update',
            predicate: '"VendorID" = 2 AND VendorID IS NOT NULL',
            set: [{ key: 'VendorID', value: '3' }],
          },
        ],
      },
    },
    stack.token,
  );
  expect(r.data).toBeNull();
  expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  const hint = "(column names are case-sensitive, as in delta-rs: did you mean 'VendorID'?)";
  expect(r.errors?.[0]?.extensions?.problems).toEqual([
    `writer cased: predicate: unknown column 'VendorId' at position 1 in predicate ${hint}; columns are: ${COLUMNS}`,
    `writer cased: set vendorid: unknown column 'vendorid' in schema ${hint}; columns are: ${COLUMNS}`,
  ]);
  const stored = await stack.sql<{ n: string }>('SELECT count(*)::text AS n FROM "Race"');
  expect(stored[0]?.n).toBe('0');
});
