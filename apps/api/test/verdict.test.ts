/**
 * The runs' verdicts over real HTTP against real Postgres, with the API and a worker as separate processes:
 * preset races carry the oracle's verdict on their runs and in one line on the race; a verdict the worker's
 * store wrote is served with every field typed; a race whose runs have no verdict says null, not "OK".
 */
import type { RunResult, RunVerdict } from '@racelab/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, type Db } from '../src/db/prisma';
import { saveRun, startRun } from '../src/races/store';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const SCALE = 0.01;
const VERDICTS = `query($id: ID!) { race(id: $id) { status verdictSummary verdictStatus runs { index verdict {
  status order summary rowsDuplicated rowsMissing rowsExtra oracleMs
  writers { name notApplied appliedTwice }
  examples { kind row { key value } }
  failedWriters { name rowsTouched untouched summary } } } } }`;

interface KeyValue {
  key: string;
  value: string | null;
}
interface Verdicts {
  race: {
    status: string;
    verdictSummary: string | null;
    verdictStatus: string | null;
    runs: {
      index: number;
      verdict: (Omit<RunVerdict, 'examples'> & { examples: { kind: string; row: KeyValue[] }[] }) | null;
    }[];
  };
}

let stack: Stack;
let db: Db;

beforeAll(async () => {
  stack = await startStack();
  db = createPrisma(stack.url, 2);
});
afterAll(async () => {
  await db?.$disconnect();
  await stack?.stop();
});

const read = async (id: string) => {
  const r = await gql<Verdicts>(stack.apiUrl, VERDICTS, { id });
  expect(r.errors).toBeUndefined();
  return r.data?.race as Verdicts['race'];
};

/** Starts a preset (1 run) and follows its progress stream, which the server completes when the race ends. */
async function raceToEnd(caseId: string): Promise<Verdicts['race']> {
  const started = await gql<{ startRace: { id: string } }>(
    stack.apiUrl,
    `mutation($input: StartRaceInput!) { startRace(input: $input) { id } }`,
    { input: { caseId, runs: 1, scale: SCALE } },
    stack.token,
  );
  const id = started.data?.startRace.id as string;
  const events: unknown[] = [];
  for await (const e of subscribe(stack.apiUrl, 'subscription($id: ID!) { raceProgress(id: $id) { status } }', { id }))
    events.push(e);
  expect(events.at(-1)).toEqual({ raceProgress: { status: 'DONE' } });
  return read(id);
}

describe('preset races', () => {
  it("A1's run is serializable and the race says data OK", async () => {
    const race = await raceToEnd('A1');
    expect(race.runs.map((r) => r.verdict?.status)).toEqual(['serializable']);
    expect(race.runs[0]?.verdict).toMatchObject({ summary: 'data OK', failedWriters: [], writers: [], examples: [] });
    expect(race.runs[0]?.verdict?.oracleMs).toBeGreaterThan(0);
    expect(race).toMatchObject({ verdictSummary: 'data OK in 1 of 1', verdictStatus: 'serializable' });
  });

  it("E1's run is not serializable: its day's trips written twice, with example rows in the table's column order", async () => {
    const race = await raceToEnd('E1');
    const twice = Math.round(158_575 * SCALE);
    const verdict = race.runs[0]?.verdict;
    expect(verdict).toMatchObject({ status: 'not-serializable', rowsDuplicated: twice, rowsMissing: 0, rowsExtra: 0 });
    expect(verdict?.writers?.filter((w) => w.appliedTwice)).toHaveLength(1);
    expect(verdict?.examples.length).toBeGreaterThan(0);
    const first = verdict?.examples[0];
    expect(first?.kind).toBe('duplicated');
    expect(first?.row.slice(0, 2).map((c) => c.key)).toEqual(['VendorID', 'tpep_pickup_datetime']);
    expect(race).toMatchObject({
      verdictSummary: `${twice.toLocaleString('en-US')} rows written twice in 1 of 1`,
      verdictStatus: 'not-serializable',
    });
  });
});

describe('verdicts the store wrote', () => {
  const doubled: RunVerdict = {
    status: 'not-serializable',
    order: ['first-job', 'second-job'],
    summary: '12 rows written twice',
    rowsDuplicated: 12,
    rowsMissing: 0,
    rowsExtra: 0,
    writers: [
      { name: 'first-job', notApplied: false, appliedTwice: false },
      { name: 'second-job', notApplied: false, appliedTwice: true },
    ],
    examples: [
      { kind: 'duplicated', row: { trip_id: 4711, VendorID: 2, tpep_pickup_datetime: '2025-02-01T08:00:00' } },
    ],
    failedWriters: [
      {
        name: 'late-delete',
        rowsTouched: 30,
        untouched: true,
        summary: "late-delete's delete failed: its 30 rows are still there",
      },
    ],
    oracleMs: 42.5,
  };
  const run = (index: number, verdict?: RunVerdict): RunResult => ({
    index,
    writers: [],
    table: {
      version: 2,
      rows: 100,
      distinctTripIds: 88,
      tripsOnDay: {},
      tipDeltaByVendor: {},
      dataFilesOnDisk: 3,
      dataFilesInLog: 3,
    },
    ...(verdict && { verdict }),
  });
  let id: string;

  beforeAll(async () => {
    const [race] = await stack.sql<{ id: string }>(
      `INSERT INTO "Race" (id, title, status, spec, "runsRequested", scale)
       VALUES (gen_random_uuid()::text, 'stored verdicts', 'DONE', '{}', 3, $1) RETURNING id`,
      [SCALE],
    );
    id = race?.id as string;
  });

  it('a race whose runs have no verdict says null, not OK', async () => {
    await startRun(db, id, 1);
    await saveRun(db, id, run(1));
    const race = await read(id);
    expect(race.runs).toEqual([{ index: 1, verdict: null }]);
    expect(race).toMatchObject({ verdictSummary: null, verdictStatus: null });
  });

  it('serves every field of a not-serializable verdict, and the race line lists each outcome', async () => {
    await startRun(db, id, 2);
    await saveRun(db, id, run(2, doubled));
    await startRun(db, id, 3);
    await saveRun(
      db,
      id,
      run(3, { status: 'serializable', order: ['a'], summary: 'data OK', failedWriters: [], oracleMs: 1 }),
    );
    const race = await read(id);
    const { examples, ...rest } = race.runs[1]?.verdict ?? { examples: [] };
    const { examples: _, ...stored } = doubled;
    expect(rest).toEqual(stored);
    // Columns as key/value text pairs, in the row's own order (which a JSONB object would not keep).
    expect(examples).toEqual([
      {
        kind: 'duplicated',
        row: [
          { key: 'trip_id', value: '4711' },
          { key: 'VendorID', value: '2' },
          { key: 'tpep_pickup_datetime', value: '2025-02-01T08:00:00' },
        ],
      },
    ]);
    expect(race).toMatchObject({
      verdictSummary:
        "data OK in 1 of 3; 12 rows written twice in 1 of 3; late-delete's delete failed: its 30 rows are still there (1 of 3)",
      verdictStatus: 'not-serializable',
    });
  });
});
