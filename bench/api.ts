/**
 * bench/api: the control plane under load, on a fresh embedded Postgres with the API and one
 * worker as separate processes. 20 races queued at once against that one worker (every job must
 * end DONE with all its runs stored: no job lost), and, while they run, 200 concurrent `races`
 * queries. Beside them, the limits measured in the same run: a raw HTTP round trip to the API
 * process (/health) and the raw SQL the `races` resolver runs, straight through `pg`.
 *
 *   npm run bench:api [-- --races 20 --queries 200 --scale 0.01]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerAndExit, LAB_DATABASE } from '@racelab/lab';
import { findFreePort, startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:api [-- --races N --queries N --scale S]'],
  about:
    'The control plane under load on a fresh embedded Postgres: N races queued at once against one worker, and\n' +
    "concurrent `races` queries while they run; beside them a raw HTTP round trip and the resolver's raw SQL.",
  options: {
    '--races N': 'races queued at once (default 20)',
    '--queries N': 'concurrent `races` queries (default 200)',
    '--scale S': "the races' data scale (default 0.01)",
  },
  examples: ['npm run bench:api -- --races 10 --queries 100'],
});

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const API_DIR = join(REPO, 'apps/api');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RACES = arg('races', 20);
const QUERIES = arg('queries', 200);
const SCALE = arg('scale', 0.01);
const TOKEN = 'rl_bench_token_0123456789abcdef';
const LIST = `{ races(first: 20) { edges { node { id caseId status createdAt runs { index status } } } pageInfo { hasNextPage } } }`;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
}

function startProcess(entry: string, env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: API_DIR, env: { ...process.env, ...env } });
  let out = '';
  const ready = new Promise<void>((res, rej) => {
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      if (/API on http|waiting for races/.test(out)) res();
    });
    child.stderr?.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.once('exit', () => rej(new Error(`${entry} exited:\n${out}`)));
  });
  return { child, ready };
}

async function post(url: string, query: string, variables: Record<string, unknown> = {}) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join('; '));
  return { ms: performance.now() - t0, data: body.data as Record<string, unknown> };
}

/** `n` requests all in flight at once; latencies in ms. */
async function concurrently(n: number, one: () => Promise<number>): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, one));
}

const dir = mkdtempSync(join(tmpdir(), 'racelab-bench-api-'));
chmodSync(dir, 0o755);
const server = await startPostgresServer({ dataDir: join(dir, 'pg') });
// Each database as its own role, as `npm start` hands them out (the lab's for Postgres cases).
const url = await server.ownerUrl('racelab_bench');
const labUrl = await server.ownerUrl(LAB_DATABASE);
const port = await findFreePort();
const env = {
  DATABASE_URL: url,
  LAB_POSTGRES_URL: labUrl,
  API_PORT: String(port),
  LAB_API_TOKEN: TOKEN,
  LAB_WORK_DIR: join(REPO, 'var/lab'),
  NODE_ENV: 'production',
};
const procs: ChildProcess[] = [];
try {
  const api = startProcess('src/main.ts', env);
  procs.push(api.child);
  await api.ready;
  const worker = startProcess('src/worker/main.ts', env);
  procs.push(worker.child);
  await worker.ready;
  const apiUrl = `http://127.0.0.1:${port}/graphql`;

  // Warm both paths once (JIT, connection pools), then enqueue every race at once.
  await post(apiUrl, LIST);
  const t0 = performance.now();
  const ids = await Promise.all(
    Array.from({ length: RACES }, async () => {
      const r = await post(apiUrl, 'mutation($i: StartRaceInput!) { startRace(input: $i) { id } }', {
        i: { caseId: 'A1', runs: 1, scale: SCALE },
      });
      return (r.data.startRace as { id: string }).id;
    }),
  );
  const enqueueMs = performance.now() - t0;

  // 200 concurrent list queries while the worker runs races.
  const gqlLatencies = await concurrently(QUERIES, async () => (await post(apiUrl, LIST)).ms);
  const healthLatencies = await concurrently(QUERIES, async () => {
    const s = performance.now();
    await (await fetch(`http://127.0.0.1:${port}/health`)).text();
    return performance.now() - s;
  });
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const sqlLatencies = await concurrently(QUERIES, async () => {
    const s = performance.now();
    // What the resolver needs: the page, then the page's runs in one query (it batches them too).
    const races = await pool.query<{ id: string }>('SELECT * FROM "Race" ORDER BY "createdAt" DESC, id DESC LIMIT 21');
    await pool.query('SELECT * FROM "Run" WHERE "raceId" = ANY($1) ORDER BY "raceId", index', [
      races.rows.map((r) => r.id),
    ]);
    return performance.now() - s;
  });

  // Wait for the queue to drain: every race must end, DONE, with its one run stored.
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query('LISTEN race_progress');
  const ended = async () =>
    Number(
      (await pool.query(`SELECT count(*)::int AS n FROM "Race" WHERE status IN ('DONE','FAILED','CANCELLED')`)).rows[0]
        ?.n,
    );
  while ((await ended()) < RACES) await new Promise((r) => listener.once('notification', r));
  const drainMs = performance.now() - t0;
  await listener.end();
  const done = (
    await pool.query<{ status: string; runs: number; writers: number }>(
      `SELECT r.status, count(DISTINCT u.id)::int AS runs, count(w.id)::int AS writers
       FROM "Race" r LEFT JOIN "Run" u ON u."raceId" = r.id AND u.status = 'DONE' LEFT JOIN "WriterOutcome" w ON w."runId" = u.id
       WHERE r.id = ANY($1) GROUP BY r.id, r.status`,
      [ids],
    )
  ).rows;
  // A graceful stop lets the worker hand its last job back as completed before we count the jobs.
  worker.child.kill('SIGTERM');
  await new Promise((r) => worker.child.once('exit', r));
  const jobs = (
    await pool.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM pgboss.job GROUP BY state`)
  ).rows;
  await pool.end();

  const complete = done.filter((r) => r.status === 'DONE' && r.runs === 1 && r.writers === 2).length;
  const row = (name: string, xs: number[]) =>
    `| ${name} | ${percentile(xs, 50).toFixed(1)} ms | ${percentile(xs, 99).toFixed(1)} ms | ${Math.max(...xs).toFixed(1)} ms |`;
  console.log(`\n${QUERIES} concurrent requests each, while ${RACES} queued races ran on one worker:\n`);
  console.log('| request | p50 | p99 | max |\n|---|---|---|---|');
  console.log(row('GraphQL `races(first: 20)` with runs', gqlLatencies));
  console.log(row('raw HTTP GET /health (same process)', healthLatencies));
  console.log(row('raw SQL of the resolver (page + its runs) through pg', sqlLatencies));
  console.log(
    `\nratio p50: GraphQL / raw SQL ${(percentile(gqlLatencies, 50) / percentile(sqlLatencies, 50)).toFixed(1)}×, ` +
      `GraphQL / raw HTTP ${(percentile(gqlLatencies, 50) / percentile(healthLatencies, 50)).toFixed(1)}×`,
  );
  console.log(
    `\n${RACES} races enqueued in ${enqueueMs.toFixed(0)} ms; queue drained after ${(drainMs / 1000).toFixed(1)} s`,
  );
  console.log(`races DONE with their run and 2 writer outcomes stored: ${complete}/${RACES}`);
  console.log(`pg-boss jobs by state: ${jobs.map((j) => `${j.state} ${j.n}`).join(', ')}`);
  if (complete !== RACES) process.exitCode = 1;
} finally {
  for (const p of procs) p.kill('SIGTERM');
  await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r(null) : p.once('exit', r)))));
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
