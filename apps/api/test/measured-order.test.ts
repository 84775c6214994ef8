/**
 * measuredOutcome counts each run under the order its commits took, over real races run by a real
 * worker: the flat table's updates of VendorID 6 and 7, raced 6 then 7 and 7 then 6 (the second writer
 * starting after the first commits), and once more with a table property, which only a query for that
 * property counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const SERIALIZABLE = [{ key: 'delta.isolationLevel', value: 'Serializable' }];

const update = (vendor: number, name: string) => ({
  name,
  operation: 'update',
  predicate: `VendorID = ${vendor}`,
  set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
});

const MEASURED = `query($a: WriterInput!, $b: WriterInput!, $p: [KeyValueInput!]) {
  measuredOutcome(table: "flat", first: $a, second: $b, tableProperties: $p) {
    races runs neitherCommitted
    inOrder { runs firstCommitted secondCommitted messages }
    otherOrder { runs firstCommitted secondCommitted messages } } }`;

interface OrderView {
  runs: number;
  firstCommitted: number;
  secondCommitted: number;
  messages: string[];
}
interface MeasuredView {
  races: number;
  runs: number;
  neitherCommitted: number;
  inOrder: OrderView;
  otherOrder: OrderView;
}

let stack: Stack;

/** Starts a race of `first` then `second` (it starts after `first` commits) and waits until it ends. */
async function raceInOrder(first: number, second: number, runs: number, tableProperties: typeof SERIALIZABLE = []) {
  const input = {
    table: 'flat',
    scale: 0.01,
    runs,
    tableProperties,
    writers: [update(first, `v${first}`), { ...update(second, `v${second}`), startAfter: `v${first}` }],
  };
  const started = await gql<{ startRace: { id: string } }>(
    stack.apiUrl,
    'mutation($input: StartRaceInput!) { startRace(input: $input) { id } }',
    { input },
    stack.token,
  );
  expect(started.errors).toBeUndefined();
  const id = started.data?.startRace.id as string;
  // The server completes the stream when the race ends.
  for await (const _ of subscribe(stack.apiUrl, 'subscription($id: ID!) { raceProgress(id: $id) { status } }', { id }));
  const race = await gql<{ race: { status: string } }>(stack.apiUrl, 'query($id: ID!) { race(id: $id) { status } }', {
    id,
  });
  expect(race.data?.race.status).toBe('DONE');
}

async function measured(first: number, second: number, tableProperties?: { key: string; value: string }[]) {
  const r = await gql<{ measuredOutcome: MeasuredView }>(stack.apiUrl, MEASURED, {
    a: update(first, 'first'),
    b: update(second, 'second'),
    p: tableProperties,
  });
  expect(r.errors).toBeUndefined();
  return r.data?.measuredOutcome as MeasuredView;
}

beforeAll(async () => {
  stack = await startStack();
  await raceInOrder(6, 7, 2);
  await raceInOrder(7, 6, 2);
  await raceInOrder(6, 7, 1, SERIALIZABLE);
});
afterAll(async () => {
  await stack?.stop();
});

describe('measuredOutcome: each run under its commit order', () => {
  it('6 then 7: both commit in the runs in this order; the runs of 7 then 6 are counted as the other way', async () => {
    expect(await measured(6, 7)).toEqual({
      races: 2,
      runs: 4,
      neitherCommitted: 0,
      inOrder: { runs: 2, firstCommitted: 2, secondCommitted: 2, messages: [] },
      otherOrder: { runs: 2, firstCommitted: 0, secondCommitted: 2, messages: [ADDED] },
    });
  });

  it('7 then 6: the update of VendorID 6 fails in every run in this order, with the exact error', async () => {
    expect(await measured(7, 6)).toEqual({
      races: 2,
      runs: 4,
      neitherCommitted: 0,
      inOrder: { runs: 2, firstCommitted: 2, secondCommitted: 0, messages: [ADDED] },
      otherOrder: { runs: 2, firstCommitted: 2, secondCommitted: 2, messages: [] },
    });
  });

  it('counts the races with exactly the table properties asked for, and none without', async () => {
    const serializable = await measured(6, 7, SERIALIZABLE);
    expect(serializable).toMatchObject({ races: 1, runs: 1, inOrder: { runs: 1 }, otherOrder: { runs: 0 } });
    expect((await measured(6, 7, [])).races).toBe(2);
  });

  it('refuses table properties a race cannot set, or a key given twice', async () => {
    const q = (p: { key: string; value: string }[]) =>
      gql(stack.apiUrl, MEASURED, { a: update(6, 'first'), b: update(7, 'second'), p });
    const unknown = await q([{ key: 'delta.foo', value: '1' }]);
    expect(unknown.errors?.[0]?.extensions?.problems).toEqual([
      "table property 'delta.foo' is not one a race can set (delta.isolationLevel, delta.appendOnly, delta.checkpointInterval, delta.targetFileSize)",
    ]);
    const twice = await q([...SERIALIZABLE, ...SERIALIZABLE]);
    expect(twice.errors?.[0]?.extensions?.problems).toEqual(['tableProperties: delta.isolationLevel is given twice']);
  });
});
