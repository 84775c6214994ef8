/**
 * No request costs days, against real Postgres with the API and workers as separate processes. The API (its limit
 * set to 2 minutes here) refuses with TOO_LONG, before anything is stored, a sweep of 1000 app tries behind
 * 10-minute pauses, a compaction paced at 4.7e-7 appends per second and a race of 50 full-scale runs, each message
 * naming the estimate, the limit and the field that drives it. A worker whose limit is 0.02 minutes stops an
 * accepted sweep and an accepted race that run past it: CANCELLED, the reason saying why, the work cut short.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { printed, type Stack, startStack, stopProc } from './helpers/stack';

const START_SWEEP = `mutation($input: StartSweepInput!) { startSweep(input: $input) { id status } }`;
const START_RACE = `mutation($input: StartRaceInput!) { startRace(input: $input) { id status } }`;
const SWEEP_PROGRESS = `subscription($id: ID!) { sweepProgress(id: $id) { status done total reason } }`;
const RACE_PROGRESS = `subscription($id: ID!) { raceProgress(id: $id) { message status } }`;
const TERMINAL = ['DONE', 'FAILED', 'CANCELLED'];

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ LAB_MAX_WORK_MINUTES: '2' });
});
afterAll(async () => {
  await stack?.stop();
});

const stored = async () => {
  const [rows] = await stack.sql<{ sweeps: number; races: number; jobs: number }>(
    `SELECT (SELECT count(*)::int FROM "Sweep") AS sweeps, (SELECT count(*)::int FROM "Race") AS races,
       (SELECT count(*)::int FROM pgboss.job WHERE name IN ('sweep', 'race')) AS jobs`,
  );
  return rows;
};

describe('the API refuses work estimated past LAB_MAX_WORK_MINUTES', () => {
  it('refuses the sweeps and the race that would cost days or hours, naming estimate, limit and field', async () => {
    const before = await stored();
    const backoff = await gql(
      stack.apiUrl,
      START_SWEEP,
      {
        input: {
          writers: [2],
          operation: 'update-overlap',
          policy: {
            name: 'custom',
            maxCommitRetries: 0,
            appTries: 1000,
            backoff: { baseMs: 600_000, capMs: 600_000, jitter: 'full' },
          },
        },
      },
      stack.token,
    );
    const refusal = backoff.errors?.[0];
    expect(refusal?.extensions?.code).toBe('TOO_LONG');
    expect(refusal?.message).toMatch(
      /^the sweep would take about [\d.]+ (min|h|days), over the 2-minute limit \(LAB_MAX_WORK_MINUTES\); policy\.backoff\.capMs drives it: /,
    );
    expect(refusal?.extensions).toMatchObject({ limitMinutes: 2, field: 'policy.backoff.capMs' });
    expect((refusal?.extensions as { estimateMinutes?: number } | undefined)?.estimateMinutes).toBeGreaterThan(30);

    // One commit each, pauses doubling from 100 ms: the forecast's commits need few tries, but one that met more
    // conflicts could pause for days.
    const oneCommit = await gql(
      stack.apiUrl,
      START_SWEEP,
      {
        input: {
          writers: [2],
          commitsPerWriter: 1,
          operation: 'update-overlap',
          policy: {
            name: 'custom',
            maxCommitRetries: 0,
            appTries: 1000,
            backoff: { baseMs: 100, capMs: 600_000, jitter: 'full' },
          },
        },
      },
      stack.token,
    );
    expect(oneCommit.errors?.[0]?.extensions).toMatchObject({ code: 'TOO_LONG', field: 'policy.backoff.capMs' });
    expect(oneCommit.errors?.[0]?.message).toMatch(
      /^one commit of the sweep could pause about \d+ days, over the 2-minute limit/,
    );

    const rate = await gql(
      stack.apiUrl,
      START_SWEEP,
      { input: { operation: 'compaction', appendRatePerSec: 4.7e-7 } },
      stack.token,
    );
    expect(rate.errors?.[0]?.extensions).toMatchObject({ code: 'TOO_LONG', field: 'appendRatePerSec' });
    expect(rate.errors?.[0]?.message).toMatch(/^the sweep would take about \d+ days, over the 2-minute limit/);

    const race = await gql(stack.apiUrl, START_RACE, { input: { caseId: 'A1', runs: 50, scale: 1 } }, stack.token);
    expect(race.errors?.[0]?.extensions).toMatchObject({ code: 'TOO_LONG', field: 'runs', limitMinutes: 2 });
    expect(race.errors?.[0]?.message).toMatch(/^the race would take about \d+ min, over the 2-minute limit/);
    expect(await stored()).toEqual(before);
  });
});

describe('a worker stops what runs past the limit', () => {
  beforeAll(async () => {
    // The stack's worker has the API's 2 minutes; this one stops a job 1.2 s after claiming it.
    for (const w of stack.workers) await stopProc(w);
    await printed(stack.startWorker({ LAB_MAX_WORK_MINUTES: '0.02' }), /waiting for races/);
  });

  it('cancels a sweep at the limit, its reason saying so, before its commits are done', async () => {
    // Accepted (about 12 s against 2 minutes): each writer's 10 appends are paced 1 s apart.
    const r = await gql<{ startSweep: { id: string } }>(
      stack.apiUrl,
      START_SWEEP,
      { input: { writers: [2], commitsPerWriter: 10, operation: 'compaction', appendRatePerSec: 1 } },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    const id = r.data?.startSweep.id as string;
    let last: { status: string; done: number; total: number; reason: string | null } | undefined;
    for await (const d of subscribe<{ sweepProgress: NonNullable<typeof last> }>(stack.apiUrl, SWEEP_PROGRESS, {
      id,
    })) {
      last = d.sweepProgress;
      if (TERMINAL.includes(last.status)) break;
    }
    expect(last).toMatchObject({
      status: 'CANCELLED',
      reason: "stopped at the 0.02-minute limit (LAB_MAX_WORK_MINUTES); the sweep's writer processes were killed",
    });
    expect(last?.done).toBeLessThan(last?.total as number);
  });

  it('cancels a race at the limit, its reason saying so, before its runs are done', async () => {
    const r = await gql<{ startRace: { id: string } }>(
      stack.apiUrl,
      START_RACE,
      { input: { caseId: 'B1', runs: 20, scale: 0.01 } },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    const id = r.data?.startRace.id as string;
    let last: { message: string; status: string } | undefined;
    for await (const d of subscribe<{ raceProgress: { message: string; status: string } }>(
      stack.apiUrl,
      RACE_PROGRESS,
      { id },
    )) {
      last = d.raceProgress;
      if (TERMINAL.includes(last.status)) break;
    }
    expect(last).toEqual({
      status: 'CANCELLED',
      message: "stopped at the 0.02-minute limit (LAB_MAX_WORK_MINUTES); the race's writer processes were killed",
    });
    const [race] = await stack.sql<{ reason: string; done: number }>(
      `SELECT reason, (SELECT count(*)::int FROM "Run" WHERE "raceId" = $1 AND status = 'DONE') AS done
       FROM "Race" WHERE id = $1`,
      [id],
    );
    expect(race?.reason).toBe(last?.message);
    expect(race?.done).toBeLessThan(20);
  });
});
