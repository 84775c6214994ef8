/**
 * bench/s3-commit: what a commit costs on S3 (radosgw on loopback) beside a local disk. One writer's
 * sequential log-only appends (latency per commit) next to the round trips a commit is made of,
 * measured bare on the same store in the same run: the LIST that finds the latest version and the
 * put-if-absent that claims the next one (their sum is the physical limit of a commit); then 8
 * processes appending at once (throughput, every version claimed exactly once). Needs the S3
 * server of `npm run test:s3`:
 *
 *   npm run bench:s3-commit [-- --commits 100 --writers 8 --each 25]
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  buildCommitInfo,
  commit,
  commitKey,
  field,
  LEAN_ENV,
  LOG_DIR,
  latestVersion,
  loadState,
  newTableMetadata,
  protocolForSchema,
  storeFor,
} from '@racelab/engine';
import { answerHelp } from './lib';

await answerHelp({
  usage: ['npm run bench:s3-commit [-- --commits N --writers W --each K]'],
  about:
    'What a commit costs on S3 beside a local disk, and W processes appending at once (needs the S3 server of npm run test:s3).',
  options: {
    '--commits N': "one writer's sequential commits (default 100)",
    '--writers W': 'processes appending at once (default 8)',
    '--each K': 'commits per process (default 25)',
  },
  examples: ['npm run bench:s3-commit -- --commits 20 --writers 4 --each 5'],
});

const SELF = fileURLToPath(import.meta.url);
const LOCAL = fileURLToPath(new URL('./out/s3-commit', import.meta.url));
const SCHEMA = { type: 'struct' as const, fields: [field('id', 'long')] };

const arg = (name: string, d: number) =>
  process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) : d;

const appendActions = (writer: string, i: number) => [
  {
    commitInfo: buildCommitInfo({
      operation: 'WRITE',
      operationParameters: { mode: 'Append' },
      customMetadata: { writer },
    }),
  },
  { add: { path: `${writer}-${i}.parquet`, partitionValues: {}, size: 1, modificationTime: 1, dataChange: true } },
];

async function createTable(location: string): Promise<void> {
  await commit({
    store: storeFor(location),
    readVersion: -1,
    actions: [
      { commitInfo: buildCommitInfo({ operation: 'CREATE TABLE', operationParameters: {} }) },
      { protocol: protocolForSchema(SCHEMA) },
      { metaData: newTableMetadata(SCHEMA) },
    ],
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1] ?? 0;

async function timed(into: number[], f: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await f();
  into.push(performance.now() - t0);
}

/**
 * `n` commits by one writer, each starting from the version the last one made, and between them
 * the round trips a commit is made of, bare, so that both meet the same server state and load:
 * - LIST: the log after the latest version, as the next commit's latestVersion asks it;
 * - PUT: a put-if-absent of a new key of its own (the claim);
 * - pair: LIST then put-if-absent of the next version on a log of its own, back to back: a commit
 *   without the engine, which also pays whatever the server charges a LIST right after a PUT;
 * - GET: a log entry, what a loser sends per winner it checks.
 */
async function latency(label: string, location: string, n: number) {
  await createTable(location);
  const store = storeFor(location);
  const pairs = storeFor(`${location}-pairs`);
  const bytes = (s: string) => new TextEncoder().encode(s);
  const t = {
    commit: [] as number[],
    list: [] as number[],
    put: [] as number[],
    pair: [] as number[],
    get: [] as number[],
  };
  let read = (await loadState(store)).version;
  let pairVersion = -1;
  for (let i = 0; i < n; i++) {
    await timed(t.commit, async () => {
      read = (await commit({ store, readVersion: read, actions: appendActions('solo', i) })).version;
    });
    await timed(t.list, () => store.list(LOG_DIR, { startAfter: commitKey(read) }));
    await timed(t.put, () => store.putIfAbsent(`claims/${String(i).padStart(20, '0')}.json`, bytes('{}')));
    await timed(t.pair, async () => {
      await pairs.list(LOG_DIR, pairVersion < 0 ? {} : { startAfter: commitKey(pairVersion) });
      await pairs.putIfAbsent(commitKey(++pairVersion), bytes('{}'));
    });
    await timed(t.get, () => store.get(commitKey(read)));
  }
  const [c, list, put, pair, get] = [
    pct(t.commit, 50),
    pct(t.list, 50),
    pct(t.put, 50),
    pct(t.pair, 50),
    pct(t.get, 50),
  ];
  const f = (x: number) => `${x.toFixed(1)} ms`;
  const x = (r: number) => `${r.toFixed(2)}x`;
  console.log(
    `| ${label} | ${f(c)} | ${f(pct(t.commit, 99))} | ${f(list)} | ${f(put)} | ${f(list + put)} | ${x(c / (list + put))} | ${f(pair)} | ${x(c / pair)} | ${f(get)} |`,
  );
}

async function contention(label: string, location: string, writers: number, each: number, env = process.env) {
  await createTable(location);
  const procs = Array.from({ length: writers }, (_, w) =>
    spawn(process.execPath, ['--import', 'tsx', SELF, '--child', location, `w${w}`, String(each)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env,
    }),
  );
  const lines = procs.map((p) => createInterface({ input: p.stdout as NodeJS.ReadableStream }));
  await Promise.all(lines.map((l) => new Promise((r) => l.once('line', r))));
  const done = lines.map((l) => new Promise<number>((r) => l.once('line', (s) => r(JSON.parse(s).attempts))));
  const t0 = performance.now();
  for (const p of procs) p.stdin?.end('go\n');
  const attempts = (await Promise.all(done)).reduce((a, b) => a + b, 0);
  const ms = performance.now() - t0;
  const state = await loadState(storeFor(location));
  const total = writers * each;
  const exact = state.version === total && state.files.size === total;
  console.log(
    `| ${label} | ${total} | ${(ms / 1000).toFixed(1)} s | ${((total / ms) * 1000).toFixed(0)} commits/s | ${attempts} | ${exact ? 'yes' : 'NO'} |`,
  );
  if (!exact) process.exitCode = 1;
}

async function main() {
  const bucket = process.env.LAB_S3_BUCKET;
  if (!bucket || !process.env.AWS_ENDPOINT_URL) throw new Error('no S3 server: run with `npm run bench:s3-commit`');
  const s3 = `s3://${bucket}/bench-${process.pid}-${Date.now()}`;
  const n = arg('commits', 100);
  rmSync(LOCAL, { recursive: true, force: true });
  console.log(`\n${n} sequential commits by one writer\n`);
  console.log(
    '| store | commit p50 | commit p99 | bare LIST p50 | bare PUT p50 | LIST + PUT | commit / (LIST + PUT) | bare pair p50 | commit / pair | bare GET p50 |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  await latency('local disk (link())', `${LOCAL}/latency`, n);
  await latency(`radosgw ${process.env.AWS_ENDPOINT_URL}`, `${s3}/latency`, n);
  const writers = arg('writers', 8);
  const each = arg('each', 25);
  console.log(`\n${writers} processes x ${each} appends, released together\n`);
  console.log('| store | commits | wall | throughput | attempts | versions exact |\n|---|---|---|---|---|---|');
  await contention('local disk', `${LOCAL}/contention`, writers, each);
  // The same race with every request sent by the AWS SDK, as before the lean sender (src/storage/s3-lean.ts).
  await contention('radosgw, SDK only', `${s3}/contention-sdk`, writers, each, { ...process.env, [LEAN_ENV]: '0' });
  await contention('radosgw', `${s3}/contention`, writers, each);
  rmSync(LOCAL, { recursive: true, force: true });
}

if (process.argv[2] === '--child') {
  const [location, writer, each] = process.argv.slice(3) as [string, string, string];
  console.log('ready');
  await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
  // Like a job: read the latest version, commit, and let the commit loop move past writers that won.
  const store = storeFor(location);
  let attempts = 0;
  let read = 0;
  for (let i = 0; i < Number(each); i++) {
    read = await latestVersion(store, read);
    const r = await commit({ store, readVersion: read, actions: appendActions(writer, i), maxRetries: 10_000 });
    attempts += r.attempts;
    read = r.version;
  }
  console.log(JSON.stringify({ attempts }));
} else await main();
