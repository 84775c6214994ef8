/**
 * Races on S3 through the API, and races whose writers run on another worker: worker A takes
 * races only, worker B runs writers only, with its own lab folder, so the two share nothing but
 * Postgres and the S3 server (radosgw). The barrier is in Postgres; the outcomes are the lesson's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { field, writeDeltaTable } from '@racelab/engine';
import { scaledFigures } from '@racelab/lab';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gql, subscribe } from '../test/helpers/client';
import { type Proc, printed, type Stack, spawnTs, startStack } from '../test/helpers/stack';

const F = scaledFigures(0.01);
const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const bucket = process.env.LAB_S3_BUCKET;
if (!bucket) throw new Error('no S3 server: run these tests with `npm run test:s3`');
const tableRoot = `s3://${bucket}/api-${process.pid}-${Date.now()}`;
const writerWorkDir = mkdtempSync(join(tmpdir(), 'racelab-writer-host-'));

let stack: Stack;
let writerHost: Proc;
beforeAll(async () => {
  stack = await startStack({ LAB_WORKER_ROLE: 'races', LAB_S3_BUCKETS: bucket });
  writerHost = spawnTs('src/worker/main.ts', { ...stack.env, LAB_WORKER_ROLE: 'writers', LAB_WORK_DIR: writerWorkDir });
  stack.workers.push(writerHost);
  await printed(writerHost, /role: writers/);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(writerWorkDir, { recursive: true, force: true });
});

interface Writer {
  name: string;
  committed: boolean;
  version: number | null;
  errorMessage: string | null;
  host: string | null;
}
const RACE = `query($id: ID!) { race(id: $id) { status reason tableRoot worker
  runs { writers { name committed version errorMessage host } table { rows dataFilesOnDisk dataFilesInLog } } } }`;

async function race(input: Record<string, unknown>) {
  const started = await gql<{ startRace: { id: string } }>(
    stack.apiUrl,
    'mutation($i: StartRaceInput!) { startRace(input: $i) { id } }',
    { i: { runs: 1, scale: 0.01, tableRoot, ...input } },
    stack.token,
  );
  expect(started.errors).toBeUndefined();
  const id = started.data?.startRace.id as string;
  for await (const _ of subscribe(stack.apiUrl, 'subscription($id: ID!) { raceProgress(id: $id) { status } }', { id }));
  const r = await gql<{
    race: {
      status: string;
      reason: string;
      tableRoot: string;
      worker: string;
      runs: { writers: Writer[]; table: Record<string, number> }[];
    };
  }>(stack.apiUrl, RACE, { id });
  expect(r.data?.race).toMatchObject({ status: 'DONE', tableRoot });
  return r.data?.race.runs[0] as { writers: Writer[]; table: Record<string, number> };
}

it('B1 on S3 through the API: one update commits, the other gets "added new data"', async () => {
  const run = await race({ caseId: 'B1' });
  expect(run.writers.filter((w) => w.committed)).toHaveLength(1);
  expect(run.writers.find((w) => !w.committed)?.errorMessage).toBe(ADDED);
  expect(run.table).toMatchObject({ rows: F.januaryTrips, dataFilesOnDisk: 11, dataFilesInLog: 1 });
  expect(run.writers.every((w) => w.host === null)).toBe(true);
});

it('B1 and A1 with their writers on the other worker: the same outcomes, every writer run by worker B', async () => {
  const b1 = await race({ caseId: 'B1', acrossWorkers: true });
  expect(b1.writers.filter((w) => w.committed)).toHaveLength(1);
  expect(b1.writers.find((w) => !w.committed)?.errorMessage).toBe(ADDED);
  const a1 = await race({ caseId: 'A1', acrossWorkers: true });
  expect(a1.writers.map((w) => w.committed)).toEqual([true, true]);
  expect(a1.writers.map((w) => w.version).sort()).toEqual([1, 2]);
  expect(a1.table.rows).toBe(F.januaryTrips + F.feb01 + F.feb02);
  const hostB = `${hostname()}:${writerHost.child.pid}`;
  expect([...b1.writers, ...a1.writers].map((w) => w.host)).toEqual(Array(4).fill(hostB));
});

it('cancelling a race across workers stops its writers at the barrier, on the other worker too', async () => {
  const started = await gql<{ startRace: { id: string } }>(
    stack.apiUrl,
    'mutation($i: StartRaceInput!) { startRace(input: $i) { id } }',
    { i: { caseId: 'B1', runs: 5, scale: 0.01, tableRoot, acrossWorkers: true } },
    stack.token,
  );
  const id = started.data?.startRace.id as string;
  const events = subscribe<{ raceProgress: { status: string; message: string } }>(
    stack.apiUrl,
    'subscription($id: ID!) { raceProgress(id: $id) { status message } }',
    { id },
  );
  let cancelled = false;
  let last = '';
  for await (const e of events) {
    last = e.raceProgress.status;
    // Both writers hold the table on worker B and wait for each other's row: cancel there.
    if (!cancelled && / ready$/.test(e.raceProgress.message)) {
      cancelled = true;
      await gql(stack.apiUrl, 'mutation($id: ID!) { cancelRace(id: $id) { id } }', { id }, stack.token);
    }
  }
  expect(last).toBe('CANCELLED');
  const left = await stack.sql<{ n: string }>('SELECT count(*)::text AS n FROM lab_barrier');
  expect(left[0]?.n).toBe('0');
});

it('audits and lays out a table on S3 like a local one', async () => {
  const location = `${tableRoot}/jobs/nightly`;
  await writeDeltaTable(
    location,
    {
      kind: 'rows',
      schema: { type: 'struct', fields: [field('VendorID', 'integer')] },
      rows: [{ VendorID: 1 }, { VendorID: 2 }],
    },
    {
      configuration: { 'delta.isolationLevel': 'WriteSerializable' },
    },
  );
  const audit = await gql<{ auditTables: { location: string; flagged: boolean; flaggedBy: string[] }[] }>(
    stack.apiUrl,
    'mutation($l: [String!]!) { auditTables(locations: $l) { location flagged flaggedBy } }',
    { l: [location] },
    stack.token,
  );
  // Capital-W: delta-rs reads Serializable (flagged); Delta Spark reads WriteSerializable at commit, and that its
  // DDL cannot set the value is a note, not a flag (one spelling recommendation).
  expect(audit.data?.auditTables).toEqual([{ location, flagged: true, flaggedBy: ['delta-rs 1.2-1.6.x'] }]);
  const layout = await gql<{ tableLayout: { files: { rows: number; countsBy: { value: string; rows: number }[] }[] } }>(
    stack.apiUrl,
    'query($l: String!) { tableLayout(location: $l, countBy: "VendorID") { files { rows countsBy { value rows } } } }',
    { l: location },
  );
  expect(layout.data?.tableLayout.files).toEqual([
    {
      rows: 2,
      countsBy: [
        { value: '1', rows: 1 },
        { value: '2', rows: 1 },
      ],
    },
  ]);
});

it('refuses a table root outside the configured buckets, and acrossWorkers without one', async () => {
  const bad = await gql(
    stack.apiUrl,
    'mutation($i: StartRaceInput!) { startRace(input: $i) { id } }',
    { i: { caseId: 'B1', tableRoot: 's3://elsewhere/x' } },
    stack.token,
  );
  expect(bad.errors?.[0]?.message).toBe(
    `tableRoot: bucket 'elsewhere' is not configured; the configured buckets are ${bucket}`,
  );
  const none = await gql(
    stack.apiUrl,
    'mutation($i: StartRaceInput!) { startRace(input: $i) { id } }',
    { i: { caseId: 'B1', acrossWorkers: true } },
    stack.token,
  );
  expect(none.errors?.[0]?.message).toBe('acrossWorkers needs tableRoot: a table every worker reaches (s3://…)');
});
