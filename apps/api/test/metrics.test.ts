/**
 * /metrics over real HTTP, against the real API, a real worker process and Postgres: a race is counted RUNNING,
 * with its worker live and holding it and its job active in the queue, while the test holds it there (a lock on
 * the runs' table keeps the worker from storing its first run); once it is done it is counted DONE with its
 * writers' commits and failures by error class, its durations observed, and the queue is empty again. A scrape
 * needs a token from anywhere but this host, and no label carries free text.
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_NOT_RECOGNISED } from '../src/errors/client-errors';
import { METRICS_NEED_TOKEN } from '../src/http/metrics-route';
import { OTHER_ERROR_CLASS, WRITER_ERROR_CLASSES } from '../src/metrics/error-classes';
import { JOB_KINDS, QUEUE_STATES, QUEUES, STATUSES, WRITER_OUTCOMES } from '../src/metrics/figures';
import { gql, subscribe } from './helpers/client';
import { rawHttp } from './helpers/raw-http';
import { printed, type Stack, startStack, stopProc } from './helpers/stack';

/** A name the API answers besides its loopback names: a request sent to it is not "from this host". */
const OTHER_NAME = 'metrics.example';
const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id } }`;
const PROGRESS = `subscription($id: ID!) { raceProgress(id: $id) { status } }`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, as prom-client writes it: `name{a="x",b="y"} value` lines, comments skipped. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
        labels[l[1] as string] = l[2] as string;
      const value = m[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[3]);
      return { name: m[1] as string, labels, value };
    });
}

/** The value of the one sample of `name` with exactly `labels`; undefined when there is none. */
function sampled(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const keys = Object.keys(labels);
  const found = samples.filter(
    (s) =>
      s.name === name && Object.keys(s.labels).length === keys.length && keys.every((k) => s.labels[k] === labels[k]),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

let stack: Stack;
let metricsUrl: string;

beforeAll(async () => {
  stack = await startStack({ API_ALLOWED_HOSTS: OTHER_NAME });
  metricsUrl = stack.apiUrl.replace(/\/graphql$/, '/metrics');
});
afterAll(async () => {
  await stack?.stop();
});

/** A scrape from this host, with no token; the text and its samples. */
async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const r = await rawHttp(metricsUrl);
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { text: r.body, samples: parse(r.body) };
}

async function follow(id: string, until: (status: string) => boolean): Promise<string> {
  let last = '';
  for await (const d of subscribe<{ raceProgress: { status: string } }>(stack.apiUrl, PROGRESS, { id })) {
    last = d.raceProgress.status;
    if (until(last)) break;
  }
  return last;
}

const workerOf = (pid: number | undefined) => `${hostname()}:${pid}`;

describe('a race, counted while it runs and once it is done', () => {
  let id: string;
  let worker: string;
  let during: Sample[];
  let after: Sample[];
  let afterText: string;

  beforeAll(async () => {
    const first = stack.workers[0];
    worker = workerOf(first?.child.pid);
    // Holds the race RUNNING: the worker cannot store its first run while this lock is held.
    const blocker = new pg.Client({ connectionString: stack.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "Run" IN EXCLUSIVE MODE');
      const r = await gql<{ startRace: { id: string } }>(
        stack.apiUrl,
        START,
        { input: { caseId: 'B1', runs: 1, scale: 0.01 } },
        stack.token,
      );
      expect(r.errors).toBeUndefined();
      id = r.data?.startRace.id as string;
      expect(await follow(id, (s) => s === 'RUNNING')).toBe('RUNNING');
      during = (await scrape()).samples;
      await blocker.query('COMMIT');
    } finally {
      await blocker.end();
    }
    expect(await follow(id, () => false)).toBe('DONE');
    // A graceful stop completes the race's job in the queue before the worker exits.
    await stopProc(first as NonNullable<typeof first>, 'SIGTERM');
    stack.workers.shift();
    ({ text: afterText, samples: after } = await scrape());
  });

  it('while it runs: RUNNING, its worker live and holding it, its job active, its wait observed', () => {
    expect(sampled(during, 'racelab_races', { status: 'RUNNING' })).toBe(1);
    expect(sampled(during, 'racelab_races', { status: 'QUEUED' })).toBe(0);
    expect(sampled(during, 'racelab_races', { status: 'DONE' })).toBe(0);
    expect(sampled(during, 'racelab_queue_jobs', { queue: 'race', state: 'active' })).toBe(1);
    expect(sampled(during, 'racelab_queue_jobs', { queue: 'race', state: 'created' })).toBe(0);
    expect(sampled(during, 'racelab_workers_live')).toBe(1);
    expect(sampled(during, 'racelab_worker_up', { worker })).toBe(1);
    expect(sampled(during, 'racelab_worker_running', { worker, kind: 'race' })).toBe(1);
    expect(sampled(during, 'racelab_worker_running', { worker, kind: 'sweep' })).toBe(0);
    expect(sampled(during, 'racelab_race_queue_wait_seconds_count')).toBe(1);
    expect(sampled(during, 'racelab_race_run_seconds_count')).toBe(0);
  });

  it('once done: DONE, one writer committed and one failed with CommitFailedError, the queue empty', async () => {
    expect(sampled(after, 'racelab_races', { status: 'DONE' })).toBe(1);
    expect(sampled(after, 'racelab_races', { status: 'RUNNING' })).toBe(0);
    expect(sampled(after, 'racelab_race_writers', { outcome: 'committed' })).toBe(1);
    expect(sampled(after, 'racelab_race_writers', { outcome: 'failed' })).toBe(1);
    expect(sampled(after, 'racelab_race_writers', { outcome: 'nothing_to_commit' })).toBe(0);
    expect(sampled(after, 'racelab_race_writer_failures', { error_class: 'CommitFailedError' })).toBe(1);
    expect(sampled(after, 'racelab_race_writer_failures', { error_class: OTHER_ERROR_CLASS })).toBe(0);
    for (const queue of QUEUES)
      for (const state of QUEUE_STATES) expect(sampled(after, 'racelab_queue_jobs', { queue, state })).toBe(0);
    const [times] = await stack.sql<{ queued: number; ran: number }>(
      `SELECT extract(epoch FROM "startedAt" - "createdAt")::float8 AS queued,
              extract(epoch FROM "finishedAt" - "startedAt")::float8 AS ran FROM "Race" WHERE id = $1`,
      [id],
    );
    expect(sampled(after, 'racelab_race_run_seconds_count')).toBe(1);
    expect(sampled(after, 'racelab_race_run_seconds_sum')).toBeCloseTo(times?.ran as number, 3);
    expect(sampled(after, 'racelab_race_queue_wait_seconds_sum')).toBeCloseTo(times?.queued as number, 3);
    const le = (v: number) => sampled(after, 'racelab_race_run_seconds_bucket', { le: String(v) });
    expect(le(7200)).toBe(1);
    expect(sampled(after, 'racelab_race_run_seconds_bucket', { le: '+Inf' })).toBe(1);
    // The writers' messages stay out: only their class is counted.
    expect(afterText).not.toContain('concurrent');
  });

  it('a new worker is live and the stopped one is not; an unknown error class is counted as other', async () => {
    const next = stack.startWorker();
    await printed(next, /waiting for races/);
    const [run] = await stack.sql<{ id: string }>('SELECT id FROM "Run" WHERE "raceId" = $1', [id]);
    await stack.sql(
      `INSERT INTO "WriterOutcome" ("runId", position, name, operation, committed, attempts, "errorClass",
         "errorMessage", warnings)
       VALUES ($1, 2, 'odd', 'append', false, 1, 'Boom: a class "with" text {x="1"}', 'free text', '{}'),
              ($1, 3, 'idle', 'delete', false, 1, NULL, NULL, '{nothing to commit}')`,
      [run?.id],
    );
    const { text, samples } = await scrape();
    expect(sampled(samples, 'racelab_workers_live')).toBe(1);
    expect(sampled(samples, 'racelab_worker_up', { worker: workerOf(next.child.pid) })).toBe(1);
    expect(sampled(samples, 'racelab_worker_running', { worker: workerOf(next.child.pid), kind: 'race' })).toBe(0);
    expect(sampled(samples, 'racelab_worker_up', { worker })).toBeUndefined();
    expect(sampled(samples, 'racelab_race_writer_failures', { error_class: OTHER_ERROR_CLASS })).toBe(1);
    expect(sampled(samples, 'racelab_race_writers', { outcome: 'failed' })).toBe(2);
    expect(sampled(samples, 'racelab_race_writers', { outcome: 'nothing_to_commit' })).toBe(1);
    expect(text).not.toContain('Boom');
    expect(text).not.toContain('free text');
  });

  it('every label takes values from a fixed list (a worker is host:pid); every metric is the product’s', () => {
    const allowed: Record<string, (v: string) => boolean> = {
      status: (v) => (STATUSES as string[]).includes(v),
      queue: (v) => (QUEUES as readonly string[]).includes(v),
      state: (v) => (QUEUE_STATES as readonly string[]).includes(v),
      outcome: (v) => (WRITER_OUTCOMES as readonly string[]).includes(v),
      error_class: (v) => v === OTHER_ERROR_CLASS || (WRITER_ERROR_CLASSES as readonly string[]).includes(v),
      kind: (v) => (JOB_KINDS as readonly string[]).includes(v),
      worker: (v) => /^[A-Za-z0-9._-]+:\d+$/.test(v),
      le: (v) => v === '+Inf' || Number.isFinite(Number(v)),
    };
    for (const s of [...during, ...after]) {
      expect(s.name).toMatch(/^racelab_/);
      for (const [k, v] of Object.entries(s.labels)) {
        expect(Object.keys(allowed)).toContain(k);
        expect(allowed[k]?.(v), `${s.name} ${k}="${v}"`).toBe(true);
      }
    }
  });
});

describe('who may scrape', () => {
  const get = (headers: Record<string, string>, method = 'GET') => rawHttp(metricsUrl, { method, headers });
  const other = { host: OTHER_NAME };

  it('from this host with no token; sent to another name, only with a known token', async () => {
    expect((await get({})).status).toBe(200);
    const none = await get(other);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toEqual({
      errors: [{ message: METRICS_NEED_TOKEN, extensions: { code: 'UNAUTHENTICATED' } }],
    });
    const wrong = await get({ ...other, authorization: 'Bearer rl_not_a_token_of_this_api_000000' });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).errors[0].message).toBe(TOKEN_NOT_RECOGNISED);
    // A wrong token is refused from this host too: sent, it is checked.
    expect((await get({ authorization: 'Bearer rl_not_a_token_of_this_api_000000' })).status).toBe(401);
    const known = await get({ ...other, authorization: `Bearer ${stack.token}` });
    expect(known.status).toBe(200);
    expect(parse(known.body).some((s) => s.name === 'racelab_races')).toBe(true);
  });

  it("the edge's checks hold: other names, other sites' pages, and other methods are refused", async () => {
    expect((await get({ host: 'evil.example' })).status).toBe(421);
    const page = await get({ origin: 'http://evil.example', authorization: `Bearer ${stack.token}` });
    expect(page.status).toBe(403);
    expect(page.body).not.toContain('racelab_');
    const put = await get({ authorization: `Bearer ${stack.token}` }, 'PUT');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
  });

  it('an API that listens on a network serves its metrics to tokens only, from this host too', async () => {
    stack.env.API_HOST = '0.0.0.0';
    await stopProc(stack.api);
    await stack.startApi();
    const local = await get({});
    expect(local.status).toBe(401);
    expect(JSON.parse(local.body).errors[0].message).toBe(METRICS_NEED_TOKEN);
    expect((await get({ authorization: `Bearer ${stack.token}` })).status).toBe(200);
  });
});
