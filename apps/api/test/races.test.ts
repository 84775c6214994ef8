/**
 * The control plane end to end, over real HTTP against real Postgres, with the API and a worker as
 * separate processes: a preset race runs and its stored outcomes are the lesson's; progress
 * streams in order; a race survives an API restart; cancelling kills the writers; a killed
 * worker leaves a FAILED race with the reason; a race that fails inside its worker shows a reason
 * without the server's folders, and so does text an earlier version stored raw.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scaledFigures } from '@racelab/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { printed, type Stack, spawnTs, startStack, stopProc } from './helpers/stack';

const SCALE = 0.01;
const F = scaledFigures(SCALE);
const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";

const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id status caseId } }`;
const PROGRESS = `subscription($id: ID!) { raceProgress(id: $id) { raceId runIndex message status sequence } }`;
const RACE = `query($id: ID!) { race(id: $id) { id status reason worker runs { index status reason commitOrder
  commitLog { position writer version operation }
  writers { name operation committed version attempts errorClass errorMessage readVersion bytesWritten timings { released finished } }
  table { version rows distinctTripIds dataFilesOnDisk dataFilesInLog tipDeltaByVendor { key value } } } } }`;

interface Event {
  raceId: string;
  runIndex: number | null;
  message: string;
  status: string;
  sequence: number;
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function startRace(input: Record<string, unknown>): Promise<string> {
  const r = await gql<{ startRace: { id: string; status: string } }>(stack.apiUrl, START, { input }, stack.token);
  expect(r.errors).toBeUndefined();
  expect(r.data?.startRace.status).toBe('QUEUED');
  return r.data?.startRace.id as string;
}

/** Follows a race's progress until `until` holds for an event (returned with all before it) or the race ends. */
async function follow(id: string, until: (e: Event) => boolean = () => false): Promise<Event[]> {
  const seen: Event[] = [];
  for await (const d of subscribe<{ raceProgress: Event }>(stack.apiUrl, PROGRESS, { id })) {
    seen.push(d.raceProgress);
    if (until(d.raceProgress)) break;
  }
  return seen;
}

/**
 * Writer processes of this file's stack: those whose environment names its LAB_ROOTS (inherited from the worker,
 * kept after a dead worker's writers are reparented). Other suites' writers, which turbo may run at the same
 * time, are not counted.
 */
const writerProcesses = () => {
  let pids: string[];
  try {
    pids = execFileSync('pgrep', ['-f', 'writer-process.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
  const ours = `LAB_ROOTS=${stack.env.LAB_ROOTS}\0`;
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(ours);
    } catch {
      return false; // gone since pgrep listed it
    }
  });
};

describe('startRace: a preset, end to end', () => {
  let id: string;
  let events: Event[];

  beforeAll(async () => {
    id = await startRace({ caseId: 'B1', runs: 2, scale: SCALE });
    events = await follow(id);
  });

  it('streams the race progress in order, from QUEUED to DONE', () => {
    const sequences = events.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(events[0]?.status).toBe('QUEUED');
    expect(events.at(-1)?.status).toBe('DONE');
    const runMessages = events
      .filter((e) => /^run \d\/2 (started|done)/.test(e.message))
      .map((e) => e.message.slice(0, 14));
    expect(runMessages).toEqual(['run 1/2 starte', 'run 1/2 done: ', 'run 2/2 starte', 'run 2/2 done: ']);
    // Writer steps of a run come between its start and its end.
    const at = (m: string) => events.findIndex((e) => e.message.startsWith(m));
    const committed = events.findIndex((e) => e.runIndex === 1 && / committed$/.test(e.message));
    expect(committed).toBeGreaterThan(at('run 1/2 started'));
    expect(committed).toBeLessThan(at('run 1/2 done'));
  });

  it('stores outcomes that match docs/lab-cases.md: one update commits, the other gets "added new data"', async () => {
    const r = await gql<{ race: { status: string; worker: string; runs: RunView[] } }>(stack.apiUrl, RACE, { id });
    expect(r.errors).toBeUndefined();
    const race = r.data?.race as { status: string; worker: string; runs: RunView[] };
    expect(race.status).toBe('DONE');
    expect(race.worker).toMatch(/:\d+$/);
    expect(race.runs.map((x) => x.index)).toEqual([1, 2]);
    for (const run of race.runs) {
      expect(run.status).toBe('DONE');
      const winners = run.writers.filter((w) => w.committed);
      const losers = run.writers.filter((w) => !w.committed);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      const [winner, loser] = [winners[0] as WriterView, losers[0] as WriterView];
      expect(winner).toMatchObject({ version: 1, errorClass: null, attempts: 1 });
      expect(loser).toMatchObject({
        errorClass: 'CommitFailedError',
        errorMessage: ADDED,
        version: null,
        readVersion: 0,
      });
      expect(winner.bytesWritten).toBeGreaterThan(0);
      expect(winner.timings.finished).toBeGreaterThanOrEqual(winner.timings.released);
      expect(run.commitOrder).toEqual([winner.name]);
      expect(run.commitLog).toEqual([{ position: 1, writer: winner.name, version: 1, operation: 'update' }]);
      const vendor = winner.name.replace('vendor', '') as '1' | '2';
      const tip = run.table.tipDeltaByVendor.find((kv) => kv.key === vendor);
      expect(Number(tip?.value)).toBeCloseTo(F.vendors[vendor === '1' ? 1 : 2], 6);
      expect(run.table).toMatchObject({ version: 1, rows: F.januaryTrips, distinctTripIds: F.januaryTrips });
      expect(run.table).toMatchObject({ dataFilesOnDisk: 11, dataFilesInLog: 1 });
    }
  });

  it('answers what the lab measured for that pair of writers, in either order, each run under its order', async () => {
    const update = (v: number) => ({
      name: `v${v}`,
      operation: 'update',
      predicate: `VendorID = ${v}`,
      set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
    });
    const q = `query($t: String!, $a: WriterInput!, $b: WriterInput!) { measuredOutcome(table: $t, first: $a, second: $b) {
      races runs firstCommitted secondCommitted messages caseIds neitherCommitted
      inOrder { runs firstCommitted secondCommitted messages } otherOrder { runs firstCommitted secondCommitted } } }`;
    const m = await gql<{ measuredOutcome: Record<string, unknown> }>(stack.apiUrl, q, {
      t: 'flat',
      a: update(2),
      b: update(1),
    });
    expect(m.errors).toBeUndefined();
    expect(m.data?.measuredOutcome).toMatchObject({ races: 1, runs: 2, messages: [ADDED], caseIds: ['B1'] });
    const counts = m.data?.measuredOutcome as { firstCommitted: number; secondCommitted: number } | undefined;
    expect((counts?.firstCommitted ?? 0) + (counts?.secondCommitted ?? 0)).toBe(2);
    // Released together, the two updates commit in either order: a run is in this order when vendor2 won it.
    const stored = await gql<{ race: { runs: RunView[] } }>(stack.apiUrl, RACE, { id });
    const won2 = (stored.data?.race.runs ?? []).filter((r) => r.commitOrder[0] === 'vendor2').length;
    expect(m.data?.measuredOutcome).toMatchObject({
      neitherCommitted: 0,
      inOrder: { runs: won2, firstCommitted: won2, secondCommitted: 0, messages: won2 > 0 ? [ADDED] : [] },
      otherOrder: { runs: 2 - won2, firstCommitted: 0, secondCommitted: 2 - won2 },
    });
    const otherSet = { ...update(1), set: [{ key: 'tip_amount', value: 'tip_amount + 2' }] };
    const different = await gql<{ measuredOutcome: { races: number } }>(stack.apiUrl, q, {
      t: 'flat',
      a: update(2),
      b: otherSet,
    });
    expect(different.data?.measuredOutcome.races).toBe(0);
    const none = await gql<{ measuredOutcome: { races: number } }>(stack.apiUrl, q, {
      t: 'partitioned',
      a: update(2),
      b: update(1),
    });
    expect(none.data?.measuredOutcome.races).toBe(0);
  });

  it('lists it among the races, newest first, with cursor pagination and filters', async () => {
    const page = `query($after: String, $caseId: String, $status: RaceStatus) {
      races(first: 1, after: $after, caseId: $caseId, status: $status) {
        edges { cursor node { id caseId status } } pageInfo { hasNextPage endCursor } } }`;
    type Page = {
      races: {
        edges: { cursor: string; node: { id: string } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string };
      };
    };
    const second = await startRace({ caseId: 'A1', runs: 1, scale: SCALE });
    await follow(second);
    const p1 = await gql<Page>(stack.apiUrl, page, {});
    expect(p1.data?.races.edges.map((e) => e.node.id)).toEqual([second]);
    expect(p1.data?.races.pageInfo.hasNextPage).toBe(true);
    const p2 = await gql<Page>(stack.apiUrl, page, { after: p1.data?.races.pageInfo.endCursor });
    expect(p2.data?.races.edges.map((e) => e.node.id)).toEqual([id]);
    const b1 = await gql<Page>(stack.apiUrl, page, { caseId: 'b1', status: 'DONE' });
    expect(b1.data?.races.edges.map((e) => e.node.id)).toEqual([id]);
    const bad = await gql(stack.apiUrl, page, { after: 'not-a-cursor' });
    expect(bad.errors?.[0]?.message).toBe('after: not a cursor this API gave out');
  });
});

interface WriterView {
  name: string;
  committed: boolean;
  version: number | null;
  attempts: number;
  errorClass: string | null;
  errorMessage: string | null;
  readVersion: number | null;
  bytesWritten: number;
  timings: { released: number; finished: number };
}
interface RunView {
  index: number;
  status: string;
  commitOrder: string[];
  commitLog: unknown[];
  writers: WriterView[];
  table: {
    version: number;
    rows: number;
    tipDeltaByVendor: { key: string; value: string }[];
    dataFilesOnDisk: number;
    dataFilesInLog: number;
  };
}

describe('every engine of the lesson through the API', () => {
  it('F2 (Iceberg, SQL catalog) and P3 (Postgres row locks, on the product database server) run and store', async () => {
    const f2 = await startRace({ caseId: 'F2', runs: 1, scale: SCALE });
    const p3 = await startRace({ caseId: 'P3', runs: 1, scale: SCALE });
    expect((await follow(f2)).at(-1)?.status).toBe('DONE');
    expect((await follow(p3)).at(-1)?.status).toBe('DONE');
    const iceberg = await gql<{ race: { runs: RunView[] } }>(stack.apiUrl, RACE, { id: f2 });
    const [feb01, feb02] = iceberg.data?.race.runs[0]?.writers ?? [];
    expect(feb01?.committed).toBe(true);
    expect(feb02).toMatchObject({ committed: false, errorClass: 'CommitFailedException' });
    expect(feb02?.errorMessage).toMatch(/^Requirement failed: branch main has changed: expected id \d+, found \d+$/);
    const postgres = await gql<{ race: { runs: RunView[] } }>(stack.apiUrl, RACE, { id: p3 });
    const loser = postgres.data?.race.runs[0]?.writers.find((w) => !w.committed);
    expect(loser?.errorMessage).toContain('could not serialize access due to concurrent update');
  });
});

describe('races outlive processes', () => {
  it('a race queued before an API restart completes, and the new API streams all of it', async () => {
    const id = await startRace({ caseId: 'A1', runs: 2, scale: SCALE });
    await stopProc(stack.api);
    await stack.startApi();
    const events = await follow(id);
    expect(events[0]?.status).toBe('QUEUED');
    expect(events.at(-1)?.status).toBe('DONE');
    const r = await gql<{ race: { runs: RunView[] } }>(stack.apiUrl, RACE, { id });
    expect(r.data?.race.runs.map((x) => x.writers.every((w) => w.committed))).toEqual([true, true]);
  });

  it('cancelRace stops the writer processes and ends the race CANCELLED', async () => {
    const id = await startRace({ caseId: 'B1', runs: 20, scale: SCALE });
    // Cancel while the first run's writers are alive: both hold the table at the barrier.
    await follow(id, (e) => e.runIndex === 1 && / ready$/.test(e.message));
    const c = await gql<{ cancelRace: { status: string } }>(
      stack.apiUrl,
      'mutation($id: ID!) { cancelRace(id: $id) { status } }',
      { id },
      stack.token,
    );
    expect(c.errors).toBeUndefined();
    const events = await follow(id);
    expect(events.at(-1)).toMatchObject({ status: 'CANCELLED' });
    expect(events.at(-1)?.message).toBe("cancelled on request; the race's writer processes were killed");
    const [race] = await stack.sql<{ status: string; runs: string }>(
      `SELECT r.status, (SELECT count(*) FROM "Run" WHERE "raceId" = r.id AND status = 'DONE')::text AS runs
       FROM "Race" r WHERE r.id = $1`,
      [id],
    );
    expect(race?.status).toBe('CANCELLED');
    expect(Number(race?.runs)).toBeLessThan(20);
    expect(writerProcesses()).toEqual([]);
    const again = await gql(stack.apiUrl, 'mutation($id: ID!) { cancelRace(id: $id) { status } }', { id }, stack.token);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('a worker asked to stop fails its race with that reason before it exits', async () => {
    const worker = stack.workers[0];
    if (!worker) throw new Error('no worker');
    const id = await startRace({ caseId: 'B1', runs: 20, scale: SCALE });
    await follow(id, (e) => e.runIndex === 1 && / ready$/.test(e.message));
    await stopProc(worker, 'SIGTERM');
    expect(worker.child.exitCode).toBe(0);
    const [race] = await stack.sql<{ status: string; reason: string }>(
      'SELECT status, reason FROM "Race" WHERE id = $1',
      [id],
    );
    expect(race?.status).toBe('FAILED');
    expect(race?.reason).toMatch(/^worker .+:\d+ was stopped; the race's writer processes were killed$/);
    expect(writerProcesses()).toEqual([]);
    stack.workers.shift();
    await printed(stack.startWorker(), /waiting for races/);
  });

  it('a worker stopped the moment it says it is ready exits (its signal handler is in place by then)', async () => {
    // A SIGTERM that arrived while the worker swapped its signal listeners used to be dropped, and the
    // worker then never stopped: 3 of 16 tries hung. Each try here stops a fresh worker at its ready line.
    for (let i = 0; i < 12; i++) {
      const w = stack.startWorker();
      await printed(w, /waiting for races/);
      await stopProc(w, 'SIGTERM');
      expect(w.child.exitCode).toBe(0);
      expect(w.output.join('')).toMatch(/: SIGTERM, stopping/);
      stack.workers.pop();
    }
  });

  it('a killed worker leaves its race FAILED with the reason, and no writer behind', async () => {
    const worker = stack.workers[0];
    if (!worker) throw new Error('no worker');
    const id = await startRace({ caseId: 'B1', runs: 20, scale: SCALE });
    await follow(id, (e) => e.runIndex === 1 && / ready$/.test(e.message));
    const pid = worker.child.pid;
    await stopProc(worker, 'SIGKILL');
    const events = await follow(id);
    expect(events.at(-1)?.status).toBe('FAILED');
    const r = await gql<{
      race: { status: string; reason: string; runs: { index: number; status: string; reason: string }[] };
    }>(stack.apiUrl, RACE, { id });
    expect(r.data?.race.status).toBe('FAILED');
    expect(r.data?.race.reason).toMatch(
      new RegExp(`^worker .+:${pid} stopped during run 1: its database session ended before the race finished$`),
    );
    expect(r.data?.race.runs.find((x) => x.index === 1)).toMatchObject({ status: 'FAILED' });
    // A fresh worker takes the next race; by its end the killed worker's orphaned writers, which
    // stop when the channel to their worker closes, are gone too.
    const next = stack.startWorker();
    await printed(next, /waiting for races/);
    const after = await startRace({ caseId: 'A1', runs: 1, scale: SCALE });
    expect((await follow(after)).at(-1)?.status).toBe('DONE');
    expect(writerProcesses()).toEqual([]);
  });
});

describe('internals stay on the server (issue 13, item 6)', () => {
  const RACE_TEXTS = `query($id: ID!) { race(id: $id) { status reason runs { reason writers { errorMessage
    attemptErrors { errorMessage } } } } }`;
  type Texts = {
    race: {
      status: string;
      reason: string;
      runs: { reason: string; writers: { errorMessage: string; attemptErrors: { errorMessage: string }[] }[] }[];
    };
  };
  let id: string;
  let events: Event[];

  beforeAll(async () => {
    // A worker whose work folder cannot be made (a file stands where its parent should be): the lab fails
    // at once, inside the worker, with Node's message naming the absolute path.
    for (const w of stack.workers.splice(0)) await stopProc(w);
    const blocker = join(stack.dir, 'blocker');
    writeFileSync(blocker, '');
    const broken = spawnTs('src/worker/main.ts', { ...stack.env, LAB_WORK_DIR: join(blocker, 'lab') });
    try {
      await printed(broken, /waiting for races/);
      id = await startRace({ caseId: 'A1', runs: 1, scale: SCALE });
      events = await follow(id);
      expect(broken.output.join('')).toContain(`race ${id} failed: Error: ENOTDIR: not a directory, mkdir '${blocker}`);
    } finally {
      await stopProc(broken, 'SIGKILL');
    }
    await printed(stack.startWorker(), /waiting for races/);
  });

  it('a race that fails inside the worker stores and shows a reason without the server folder', async () => {
    const r = await gql<Texts>(stack.apiUrl, RACE_TEXTS, { id });
    expect(r.data?.race).toMatchObject({ status: 'FAILED', reason: "ENOTDIR: not a directory, mkdir '$LAB_WORK_DIR'" });
    const [row] = await stack.sql<{ reason: string }>('SELECT reason FROM "Race" WHERE id = $1', [id]);
    expect(events.at(-1)).toMatchObject({ status: 'FAILED', message: row?.reason });
    for (const text of [r.data?.race.reason, row?.reason, events.at(-1)?.message]) {
      expect(text).not.toContain(stack.dir);
      expect(text).not.toContain('/work');
      expect(text).not.toContain('/tmp');
    }
  });

  it('text stored raw by an earlier version is made safe when read; the engine messages stay exact', async () => {
    const work = stack.env.LAB_WORK_DIR as string;
    const duckdb = `Invalid Input Error: No magic bytes found at end of file '${work}/data/feb-2025-02-01.parquet'\n\nLINE 1: DESCRIBE SELECT * FROM read_parquet(['${work}/data/feb...\n               ^`;
    const enoent = `ENOENT: no such file or directory, open '${stack.dir}/pg/postmaster.pid'\n    at async open (node:internal/fs/promises:639:25)`;
    await stack.sql('UPDATE "Race" SET reason = $2 WHERE id = $1', [id, enoent]);
    await stack.sql(`UPDATE "RaceEvent" SET message = $2 WHERE "raceId" = $1 AND status = 'FAILED'`, [id, enoent]);
    const [run] = await stack.sql<{ id: string }>(
      `INSERT INTO "Run" (id, "raceId", index, status, reason, "commitOrder")
       VALUES (gen_random_uuid()::text, $1, 1, 'FAILED', $2, '{}') RETURNING id`,
      [id, enoent],
    );
    await stack.sql(
      `INSERT INTO "WriterOutcome" ("runId", position, name, operation, committed, attempts, "errorClass", "errorMessage",
         "attemptErrors", warnings)
       VALUES ($1, 0, 'A', 'append', false, 2, 'Error', $2, $3::jsonb, '{}')`,
      [run?.id, duckdb, JSON.stringify([{ attempt: 1, errorClass: 'CommitFailedError', errorMessage: ADDED }])],
    );
    const r = await gql<Texts>(stack.apiUrl, RACE_TEXTS, { id });
    const safeEnoent = "ENOENT: no such file or directory, open '…/postmaster.pid'";
    expect(r.data?.race).toEqual({
      status: 'FAILED',
      reason: safeEnoent,
      runs: [
        {
          reason: safeEnoent,
          writers: [
            {
              errorMessage:
                "DuckDB could not run a query: Invalid Input Error: No magic bytes found at end of file '$LAB_WORK_DIR/data/feb-2025-02-01.parquet'",
              attemptErrors: [{ errorMessage: ADDED }],
            },
          ],
        },
      ],
    });
    expect((await follow(id)).at(-1)?.message).toBe(safeEnoent);
  });
});
