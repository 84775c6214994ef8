/**
 * bench/commit-contention: 8 processes × 200 one-row appends to one table, all released at once.
 * Every append must land: versions 1..1600 contiguous, 1,600 distinct rows. Beside it, the same
 * 8 × 200 version claims as a raw loop of staging file + link() (the physical limit of the claim).
 * Each writer also reports the CPU it used (user + system, its DuckDB threads included): on 2 shared cores the
 * CPU per append is what bounds the throughput, and it moves less with the machine's load than the wall time.
 * Writers run with the checkpoint disk cache on (RACELAB_CACHE_DIR), as the lab's writers do.
 *
 *   npm run bench:commit-contention [-- --writers W --commits C]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DeltaTable, field, readCommit, type StructType, writeDeltaTable } from '@racelab/engine';
import { answerHelp, rawClaims } from './lib';

await answerHelp({
  usage: ['npm run bench:commit-contention [-- --writers W --commits C]'],
  about: 'W processes appending C one-row commits each to one table, released at once, beside the raw version claims.',
  options: {
    '--writers W': 'writer processes (default 8)',
    '--commits C': 'commits per writer (default 200)',
  },
  examples: ['npm run bench:commit-contention -- --writers 4 --commits 50'],
});

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/commit-contention', import.meta.url));
const SCHEMA: StructType = { type: 'struct', fields: [field('writer', 'integer'), field('seq', 'integer')] };

async function engineWriter(dir: string, w: number, n: number): Promise<number> {
  let attempts = 0;
  for (let i = 0; i < n; i++) {
    const r = await writeDeltaTable(
      dir,
      { kind: 'rows', schema: SCHEMA, rows: [{ writer: w, seq: i }] },
      { mode: 'append' },
    );
    attempts += r?.attempts ?? 0;
  }
  return attempts;
}

async function child(mode: string, dir: string, w: number, n: number): Promise<void> {
  console.log('ready');
  await new Promise((r) => createInterface({ input: process.stdin }).once('line', r));
  const before = process.cpuUsage();
  const attempts = mode === 'engine' ? await engineWriter(dir, w, n) : rawClaims(dir, w, n);
  const cpu = process.cpuUsage(before);
  console.log(JSON.stringify({ attempts, cpuMs: (cpu.user + cpu.system) / 1000 }));
}

interface Outcome {
  ms: number;
  attempts: number;
  /** CPU of all writers together, from their release to their last append. */
  cpuMs: number;
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
      new Promise<{ attempts: number; cpuMs: number }>((resolve, reject) => {
        lines[i]?.once('line', (l) => resolve(JSON.parse(l)));
        p.on('exit', (code) => (code ? reject(new Error(`${mode} writer ${i} exited ${code}`)) : undefined));
      }),
  );
  const t0 = performance.now();
  for (const p of procs) p.stdin?.end('go\n');
  const results = await Promise.all(done);
  const ms = performance.now() - t0;
  const sum = (k: 'attempts' | 'cpuMs') => results.reduce((a, r) => a + r[k], 0);
  return { ms, attempts: sum('attempts'), cpuMs: sum('cpuMs') };
}

async function main(): Promise<void> {
  const arg = (name: string, d: number) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
  const writers = arg('--writers', 8);
  const n = arg('--commits', 200);
  const total = writers * n;
  rmSync(OUT, { recursive: true, force: true });
  process.env.RACELAB_CACHE_DIR ||= join(OUT, 'cache');
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const table = join(OUT, 'table');
  await writeDeltaTable(table, { kind: 'rows', schema: SCHEMA, rows: [] });
  const e = await race('engine', table, writers, n);
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
  const raw = join(OUT, 'raw');
  mkdirSync(raw, { recursive: true });
  const r = await race('raw', raw, writers, n);
  const rawVersions = readdirSync(raw).filter((f) => /^\d{20}\.json$/.test(f)).length;
  console.log(`${writers} processes x ${n} appends, released together; load average before: ${load}`);
  console.log(
    `engine: ${total} appends in ${(e.ms / 1000).toFixed(1)} s = ${((total / e.ms) * 1000).toFixed(0)} commits/s, ${e.attempts} attempts; versions 1..${t.version} contiguous with one add each: ${contiguous}; rows ${rows?.n}, distinct ${rows?.distinct}`,
  );
  console.log(
    `engine CPU: ${(e.cpuMs / total).toFixed(2)} ms per append (all writers, user + system; ${(e.cpuMs / e.ms).toFixed(2)} cores busy)`,
  );
  console.log(
    `raw staging file + link(): ${rawVersions} claims in ${(r.ms / 1000).toFixed(2)} s = ${((rawVersions / r.ms) * 1000).toFixed(0)} claims/s, ${r.attempts} attempts`,
  );
  console.log(`ratio raw / engine throughput: ${(rawVersions / r.ms / (total / e.ms)).toFixed(1)}x`);
  if (!contiguous || Number(rows?.n) !== total || Number(rows?.distinct) !== total) process.exitCode = 1;
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child')
  await child(process.argv[3] as string, process.argv[4] as string, Number(process.argv[5]), Number(process.argv[6]));
else await main();
