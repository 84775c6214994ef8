/**
 * bench/sweep: the sweep of issue 22 on this machine, one policy after another (retries off, delta-rs's, a
 * backoff policy), N up to 64 writer processes × K one-row appends each. Beside each point, the physical limit
 * measured in the same run: one process claiming versions with put-if-absent (a staging file linked into place,
 * the local store's claim) as fast as it can, with nobody to lose to. Also each point's wall time, the writer
 * processes' start included (the issue asks that a 64 × 10 local point finish in under 2 minutes).
 *
 *   npm run bench:sweep [-- --writers 1,2,4,8,16,32,64 --commits 10 --op append-row
 *                          --policies none,delta-rs,pyiceberg-like --table-root s3://… --table-format iceberg
 *                          --load 2]
 *
 * `--load L` starts L processes that spin on the cores for each sweep's length (the stated load the forecast's
 * bounds are checked under: docs/sweeps.md, "Does the forecast hold?"), and stops them when it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { answerAndExit, runSweep, sweepTable } from '@racelab/lab';
import { rawClaims } from './lib';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:sweep [-- --writers 1,2,… --commits K --op OPERATION --policies P,… --table-root s3://…]'],
  about:
    'The sweep on this machine, one policy after another, each point beside the physical limit measured in the same run.',
  options: {
    '--writers N,…': 'writer counts (default 1,2,4,8,16,32,64)',
    '--commits K': 'commits per writer (default 10)',
    '--op OPERATION': 'the sweep operation (default append-row)',
    '--policies P,…': 'retry policies (default none,delta-rs,pyiceberg-like)',
    '--table-root s3://…': 'tables on S3',
    '--table-format delta|iceberg': 'the table format (default delta; iceberg: append-row through its SQLite catalog)',
    '--load L': 'L processes spinning on the cores for each sweep (default 0)',
  },
  examples: ['npm run bench:sweep -- --writers 1,2,4 --commits 5 --policies delta-rs'],
});

const OUT = fileURLToPath(new URL('./out/sweep', import.meta.url));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Versions claimed per second by one process with no contention: write a staging file, link() it to the version. */
function rawClaimsPerSec(claims: number): number {
  const dir = join(OUT, 'raw');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  rawClaims(dir, 0, claims);
  const ms = performance.now() - t0;
  rmSync(dir, { recursive: true, force: true });
  return claims / (ms / 1000);
}

const { values } = parseArgs({
  options: {
    writers: { type: 'string', default: '1,2,4,8,16,32,64' },
    commits: { type: 'string', default: '10' },
    op: { type: 'string', default: 'append-row' },
    policies: { type: 'string', default: 'none,delta-rs,pyiceberg-like' },
    'table-root': { type: 'string' },
    'table-format': { type: 'string', default: 'delta' },
    load: { type: 'string', default: '0' },
  },
});

/** `count` processes that spin until stopped: the stated load a sweep runs under. */
const spinners = (count: number): ChildProcess[] =>
  Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const spinning = Number(values.load);
const format = values['table-format'] as 'delta' | 'iceberg';
const writers = values.writers.split(',').map(Number);
const commits = Number(values.commits);
mkdirSync(OUT, { recursive: true });
const raw = rawClaimsPerSec(2000);
console.log(`raw claims/s (one process, link(), no contention): ${raw.toFixed(0)}; load ${load()}`);
for (const policy of values.policies.split(',')) {
  const started = new Map<number, number>();
  const walls = new Map<number, number>();
  const before = load();
  const busy = spinners(spinning);
  const results = await runSweep(
    {
      writers,
      commitsPerWriter: commits,
      operation: values.op as 'append-row',
      policy: policy as 'none',
      tableFormat: format,
    },
    {
      workDir: join(OUT, 'work'),
      ...(values['table-root'] && { tableRoot: values['table-root'] }),
      onProgress: (p) => {
        if (p.kind === 'point-start') started.set(p.writers, performance.now());
        if (p.kind === 'point-done') walls.set(p.writers, performance.now() - (started.get(p.writers) ?? 0));
      },
    },
  ).finally(() => {
    for (const child of busy) child.kill();
  });
  const name = `${format === 'delta' ? '' : `${format}-`}${values.op}-${policy}${spinning > 0 ? `-load${spinning}` : ''}`;
  writeFileSync(join(OUT, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    `\n## ${format} ${values.op}, policy ${policy}, K=${commits}, ${spinning} spinning processes (load before ${before}, after ${load()})\n`,
  );
  console.log(sweepTable(results));
  console.log('\nN  wall s (processes started, race, checks)  commits/s ÷ raw claims/s');
  for (const p of results.points) {
    console.log(
      `${p.writers}  ${((walls.get(p.writers) ?? 0) / 1000).toFixed(1)}  ${(p.commitsPerSec / raw).toFixed(4)}`,
    );
  }
}
