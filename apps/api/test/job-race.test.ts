/**
 * A race of a team's own job through the API, end to end: startRace with two command writers running
 * examples/jobs/check_then_append.py on copies of the lab's flat base table (copied under the stack's LAB_ROOTS),
 * on a server whose LAB_JOB_ROOTS names the examples' folder and the Python side's interpreter folder (a venv's
 * python3 is a link to it). The worker runs both jobs; both count no trips of the day, both append, and the verdict
 * says no serial order leaves the table so (the day's rows twice). The writers' outcomes are stored, and nothing a
 * client reads about the race (its spec, title, writers, verdict, log) names a server path. This needs the Python
 * side (`npm run setup:python`): without it the test fails with the message that says what is missing.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { prepareLabData, pythonEnv } from '@racelab/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const EXAMPLES = resolve(import.meta.dirname, '../../../examples/jobs');
const DAY = '2025-02-14';
const SCALE = 0.01;

const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id status title } }`;
const PROGRESS = `subscription($id: ID!) { raceProgress(id: $id) { status message } }`;
const RACE = `query($id: ID!) { race(id: $id) { status reason title spec tableLocation warnings verdictSummary
  runs { status reason commitOrder
    writers { name operation outcome committed version readVersion errorClass errorMessage warnings run }
    commitLog { writer operation version }
    table { version rows }
    verdict { status summary rowsDuplicated rowsMissing order } } } }`;

interface WriterView {
  name: string;
  operation: string;
  outcome: string;
  committed: boolean;
  version: number | null;
  readVersion: number | null;
  errorClass: string | null;
}
interface RaceView {
  status: string;
  reason: string | null;
  spec: string;
  runs: {
    status: string;
    commitOrder: string[];
    writers: WriterView[];
    table: { version: number | null; rows: number } | null;
    verdict: { status: string; summary: string; rowsDuplicated: number | null; rowsMissing: number | null } | null;
  }[];
}

// On the tables' filesystem (the repository's var/), as the stack's own folder is.
const varTmp = resolve(import.meta.dirname, '../../../var/tmp');
mkdirSync(varTmp, { recursive: true });
const labWork = mkdtempSync(join(varTmp, 'racelab-api-job-race-'));
let stack: Stack;
let figures = { januaryTrips: 0, feb14: 0 };
let dayRows = '';

beforeAll(async () => {
  // Fails here, with what is missing and the command that adds it, when the Python side is not installed.
  const { python } = await pythonEnv('delta-rs');
  const noTlc = join(labWork, 'no-tlc');
  mkdirSync(noTlc, { recursive: true });
  const { dataset, tables } = await prepareLabData({ scale: SCALE, workDir: join(labWork, 'lab'), dataDir: noTlc });
  stack = await startStack({
    LAB_WORK_DIR: join(labWork, 'races'),
    LAB_JOB_ROOTS: [EXAMPLES, dirname(realpathSync(python))].join(':'),
    // python3 is the venv's, with deltalake: the job's program is looked up on the worker's PATH.
    PATH: `${dirname(python)}:${process.env.PATH ?? ''}`,
  });
  cpSync(tables.flat, join(stack.dir, 'tables', 'own', 'flat'), { recursive: true });
  // The day's batch beside the table, named relative to the job's folder as a team's writers file would.
  const batch = join(stack.dir, 'feb-14.parquet');
  cpSync(dataset.february(DAY), batch);
  dayRows = relative(EXAMPLES, batch);
  figures = dataset.figures;
}, 600_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(labWork, { recursive: true, force: true });
});

/** Follows a race to its end; its stored state then. */
async function raceToEnd(id: string): Promise<{ race: RaceView; text: string }> {
  for await (const _ of subscribe(stack.apiUrl, PROGRESS, { id })) {
    // The subscription completes when the race ends.
  }
  const r = await gql<{ race: RaceView }>(stack.apiUrl, RACE, { id }, stack.token);
  expect(r.errors).toBeUndefined();
  return { race: r.data?.race as RaceView, text: JSON.stringify(r) };
}

describe('startRace with command writers (E1 with your own code)', () => {
  it('runs both jobs through the worker: both commit, the day twice, no serial order; no server path shown', async () => {
    const command = ['python3', 'check_then_append.py', '--day', DAY, '--rows', dayRows];
    const started = await gql<{ startRace: { id: string; status: string; title: string } }>(
      stack.apiUrl,
      START,
      {
        input: {
          tableLocation: 'own/flat',
          runs: 1,
          writers: [
            { name: 'job1', command, cwd: EXAMPLES },
            { name: 'job2', command, cwd: EXAMPLES },
          ],
        },
      },
      stack.token,
    );
    expect(started.errors).toBeUndefined();
    expect(started.data?.startRace.title).toBe('custom race on own/flat: job1 (command) ‖ job2 (command)');
    const { race, text } = await raceToEnd(started.data?.startRace.id as string);
    expect([race.status, race.reason]).toEqual(['DONE', null]);
    const [run] = race.runs;
    expect(run?.status).toBe('DONE');
    for (const w of run?.writers ?? []) {
      expect(w).toMatchObject({ operation: 'command', outcome: 'COMMITTED', committed: true, errorClass: null });
      expect(w.readVersion).toBe(0);
    }
    expect(run?.writers.map((w) => w.version).sort()).toEqual([1, 2]);
    expect([...(run?.commitOrder ?? [])].sort()).toEqual(['job1', 'job2']);
    expect(run?.verdict?.status).toBe('not-serializable');
    // The day's batch is there twice: once more than any serial order leaves.
    expect(figures.feb14).toBeGreaterThan(0);
    expect(run?.verdict).toMatchObject({ rowsDuplicated: figures.feb14, rowsMissing: 0 });
    expect(run?.table?.rows).toBe(figures.januaryTrips + 2 * figures.feb14);
    // Stored: one outcome per job, each a committed command.
    const stored = await stack.sql<{ name: string; operation: string; committed: boolean }>(
      'SELECT o."name", o."operation", o."committed" FROM "WriterOutcome" o ORDER BY o."name"',
    );
    expect(stored).toEqual([
      { name: 'job1', operation: 'command', committed: true },
      { name: 'job2', operation: 'command', committed: true },
    ]);
    // The spec shows the checked command by the names the race page says it with: the script in its job root.
    const [job1] = JSON.parse(race.spec).case.writers;
    expect(job1.operation.command.slice(1, 3)).toEqual(['…/check_then_append.py', '--day']);
    expect(job1.operation.command[0]).toMatch(/^…\/python3/);
    // Nothing a client reads names a server folder: not the stack's, the examples', the venv's or the repository's.
    for (const path of [stack.dir, EXAMPLES, labWork, resolve(import.meta.dirname, '../../..')]) {
      expect(text).not.toContain(path);
    }
    expect(text).not.toMatch(/"\/(root|home|tmp|usr|opt|work)\//);
  }, 600_000);
});
