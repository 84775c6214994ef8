/**
 * bench/commit-contention: 8 processes × 200 one-row appends to one table, all released at once, beside the same
 * 8 processes doing bare durable appends (bench/durable-append.ts: the file system's limit with the engine's
 * fsyncs). Three interleaved pairs (engine, bare); the figure is the median of the three engine/bare ratios, since
 * the VM's disk varies from minute to minute. Every engine append must land: versions 1..1600 contiguous with one
 * add each, 1,600 distinct rows. Each writer sums the time of each phase of its appends (process start excluded:
 * writers are spawned and ready before the release), so the run also prints where a one-row append's milliseconds go.
 * Writers run with the checkpoint disk cache on (RACELAB_CACHE_DIR), as the lab's writers do.
 *
 *   npm run bench:commit-contention [-- --writers W --commits C --pairs P]
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  commitPrepared,
  DeltaTable,
  field,
  prepareWrite,
  readCommit,
  type StructType,
  writeDeltaTable,
} from '@racelab/engine';
import { durableAppends } from './durable-append';
import { answerHelp, median } from './lib';

await answerHelp({
  usage: ['npm run bench:commit-contention [-- --writers W --commits C --pairs P]'],
  about:
    'W processes appending C one-row commits each to one table, released at once, interleaved with the same processes doing bare durable appends.',
  options: {
    '--writers W': 'writer processes (default 8)',
    '--commits C': 'commits per writer (default 200)',
    '--pairs P': 'interleaved engine/bare pairs (default 3)',
  },
  examples: ['npm run bench:commit-contention -- --writers 4 --commits 50'],
});

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/commit-contention', import.meta.url));
const SCHEMA: StructType = { type: 'struct', fields: [field('writer', 'integer'), field('seq', 'integer')] };

type Phases = Record<string, number>;

/**
 * One-row appends through the engine's public API, split as writeDeltaTable composes them (prepareWrite opens the
 * table when given a location; here it is opened first so that the open is timed on its own).
 */
async function engineWriter(dir: string, w: number, n: number): Promise<Phases> {
  const p: Phases = { attempts: 0, openMs: 0, prepareMs: 0, lostClaimMs: 0, claimMs: 0 };
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const table = await DeltaTable.open(dir);
    const t1 = performance.now();
    const prepared = await prepareWrite(
      table,
      { kind: 'rows', schema: SCHEMA, rows: [{ writer: w, seq: i }] },
      { mode: 'append' },
    );
    const t2 = performance.now();
    let lastLost = t2;
    const r = await commitPrepared(prepared, { onAttemptFailed: () => (lastLost = performance.now()) });
    const t3 = performance.now();
    p.attempts = (p.attempts ?? 0) + (r?.attempts ?? 0);
    p.openMs = (p.openMs ?? 0) + (t1 - t0);
    p.prepareMs = (p.prepareMs ?? 0) + (t2 - t1);
    p.lostClaimMs = (p.lostClaimMs ?? 0) + (lastLost - t2);
    p.claimMs = (p.claimMs ?? 0) + (t3 - lastLost);
  }
  return p;
}

async function child(mode: string, dir: string, w: number, n: number): Promise<void> {
  console.log('ready');
  await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
  const before = process.cpuUsage();
  const phases = mode === 'engine' ? await engineWriter(dir, w, n) : { ...durableAppends(dir, w, n) };
  const cpu = process.cpuUsage(before);
  console.log(JSON.stringify({ ...phases, cpuMs: (cpu.user + cpu.system) / 1000 }));
}

interface Outcome {
  ms: number;
  /** Each phase summed over all writers (attempts and cpuMs among them). */
  sums: Phases;
}

async function race(mode: string, dir: string, writers: number, n: number): Promise<Outcome> {
  const procs = Array.from({ length: writers }, (_, w) =>
    spawn(process.execPath, ['--import', 'tsx', SELF, '--child', mode, dir, String(w), String(n)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = procs.map((p) => createInterface({ input: p.stdout as NodeJS.ReadableStream }));
  await Promise.all(lines.map((l) => new Promise((r) => l.once('line', r))));
  const done = procs.map(
    (p, i) =>
      new Promise<Phases>((resolve, reject) => {
        lines[i]?.once('line', (l) => resolve(JSON.parse(l)));
        p.on('exit', (code) => (code ? reject(new Error(`${mode} writer ${i} exited ${code}`)) : undefined));
      }),
  );
  const t0 = performance.now();
  for (const p of procs) p.stdin?.end('go\n');
  const results = await Promise.all(done);
  const ms = performance.now() - t0;
  const sums: Phases = {};
  for (const r of results) for (const [k, v] of Object.entries(r)) sums[k] = (sums[k] ?? 0) + v;
  return { ms, sums };
}

/** Versions 1..total contiguous with one add each, and total distinct rows. */
async function everyAppendOnce(table: string, total: number): Promise<{ ok: boolean; line: string }> {
  const t = await DeltaTable.open(table);
  const [rows] = await t.query<{ n: bigint; distinct: bigint }>(
    (rel) => `SELECT count(*) AS n, count(DISTINCT (writer, seq)) AS distinct FROM (${rel})`,
  );
  const versions = readdirSync(join(table, '_delta_log')).filter((f) => /^\d{20}\.json$/.test(f)).length;
  let contiguous = versions === total + 1 && t.version === total;
  for (let v = 1; v <= t.version && contiguous; v++) {
    const adds = (await readCommit(t.store, v)).filter((a) => 'add' in a);
    contiguous = adds.length === 1;
  }
  const ok = contiguous && Number(rows?.n) === total && Number(rows?.distinct) === total;
  return {
    ok,
    line: `versions 1..${t.version} contiguous, one add each: ${contiguous}; rows ${rows?.n}, distinct ${rows?.distinct}`,
  };
}

const perAppend = (o: Outcome, k: string, total: number) => ((o.sums[k] ?? 0) / total).toFixed(2);

function breakdown(e: Outcome, b: Outcome, total: number): string[] {
  const row = (name: string, eng: string, bare: string) =>
    `  ${name.padEnd(44)} ${eng.padStart(8)} ${bare.padStart(8)}`;
  return [
    row('ms per append, summed over writers / appends', 'engine', 'bare'),
    row('process start', 'excluded', 'excluded'),
    row('open: list + read the log (engine only)', perAppend(e, 'openMs', total), '-'),
    row(
      'prepare: Parquet encode + data file + fsync',
      perAppend(e, 'prepareMs', total),
      perAppend(b, 'dataFileMs', total),
    ),
    row('commit file written + fsynced', 'in claim', perAppend(b, 'commitFileMs', total)),
    row('lost claims + re-lists', perAppend(e, 'lostClaimMs', total), perAppend(b, 'lostClaimMs', total)),
    row(
      'winning claim (engine: + commit file, fsyncs)',
      perAppend(e, 'claimMs', total),
      perAppend(b, 'claimMs', total),
    ),
    row('folder fsync after the claim', 'in claim', perAppend(b, 'folderFsyncMs', total)),
    row('CPU (user + system)', perAppend(e, 'cpuMs', total), perAppend(b, 'cpuMs', total)),
    row('attempts per append', perAppend(e, 'attempts', total), perAppend(b, 'attempts', total)),
  ];
}

async function main(): Promise<void> {
  const arg = (name: string, d: number) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
  const writers = arg('--writers', 8);
  const n = arg('--commits', 200);
  const pairs = arg('--pairs', 3);
  const total = writers * n;
  rmSync(OUT, { recursive: true, force: true });
  process.env.RACELAB_CACHE_DIR ||= join(OUT, 'cache');
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${writers} processes x ${n} one-row appends, released together; ${pairs} interleaved pairs`);
  console.log(`load average before: ${load()}`);
  const ratios: number[] = [];
  let failed = false;
  for (let i = 0; i < pairs; i++) {
    const table = join(OUT, `engine-${i}`);
    await writeDeltaTable(table, { kind: 'rows', schema: SCHEMA, rows: [] });
    const e = await race('engine', table, writers, n);
    const check = await everyAppendOnce(table, total);
    const bare = join(OUT, `bare-${i}`);
    const b = await race('bare', bare, writers, n);
    const bareVersions = readdirSync(join(bare, '_delta_log')).filter((f) => /^\d{20}\.json$/.test(f)).length;
    const eRate = (total / e.ms) * 1000;
    const bRate = (bareVersions / b.ms) * 1000;
    ratios.push(eRate / bRate);
    failed ||= !check.ok || bareVersions !== total;
    console.log(
      `pair ${i + 1}: engine ${eRate.toFixed(0)} commits/s, bare durable ${bRate.toFixed(0)} appends/s, ratio ${(eRate / bRate).toFixed(2)}; ${check.line}`,
    );
    console.log(breakdown(e, b, total).join('\n'));
    rmSync(table, { recursive: true, force: true });
    rmSync(bare, { recursive: true, force: true });
  }
  console.log(`median ratio engine / bare durable append: ${median(ratios).toFixed(2)} (target 0.70)`);
  console.log(`load average after: ${load()}`);
  if (failed) process.exitCode = 1;
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child')
  await child(process.argv[3] as string, process.argv[4] as string, Number(process.argv[5]), Number(process.argv[6]));
else await main();
