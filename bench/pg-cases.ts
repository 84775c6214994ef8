/**
 * bench/pg-cases: the Postgres cases (P1–P3) run as the lab runs them (`runPostgresCase`: a prepared copy swapped
 * in, the race, the table check, the verdict beside the next copy's build), each run followed in the same process by
 * its raw work: the committed writers' UPDATE statements run directly, one after another in commit order, each in its
 * own transaction, on a fresh copy of the same table. A writer Postgres refused did no work worth the name (it fails
 * at its first row once the winner commits), so it has none here. Prints per case the median run (durationMs: reset,
 * race and check), the median raw work, their ratio, the run's margin against the goal (1.5 × raw + 0.8 s), the
 * median wall time of a whole run (with the verdict and the next copy), and the total wall time of the case's runs;
 * the load average beside each.
 *
 *   npm run bench:pg-cases [-- --scale S --runs N --cases P1,P2 --next-copy beside-verdict|after-verdict]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  answerAndExit,
  buildNextCopy,
  CASES,
  type PostgresCaseResult,
  prepareDataset,
  preparePostgresLab,
  runPostgresCase,
  swapInNextCopy,
  tipUpdateSql,
} from '@racelab/lab';
import { startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import { median, timed } from './lib';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:pg-cases [-- --scale S --runs N --cases P1,P2 --next-copy beside-verdict|after-verdict]'],
  about:
    "The Postgres cases as the lab runs them, each run beside its raw work (the committed writers' UPDATEs run directly).",
  options: {
    '--scale S': "the data set's scale (default 1)",
    '--runs N': 'runs per case (default 5)',
    '--cases P1,P2': 'these cases (default P1,P2,P3)',
    '--next-copy WHEN': 'beside-verdict (default) or after-verdict: when the next copy is built',
  },
  examples: ['npm run bench:pg-cases -- --scale 0.1 --runs 2'],
});

const OUT = fileURLToPath(new URL('./out/pg-cases', import.meta.url));
const REPO_LAB = fileURLToPath(new URL('../var/lab', import.meta.url));

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    runs: { type: 'string' },
    cases: { type: 'string' },
    'next-copy': { type: 'string' },
  },
});
const scale = Number(values.scale ?? 1);
const runs = Number(values.runs ?? 5);
const ids = (values.cases ?? 'P1,P2,P3').split(',');
const nextCopy = (values['next-copy'] ?? 'beside-verdict') as 'beside-verdict' | 'after-verdict';
const cases = ids.map((id) => {
  const c = CASES.find((x) => x.id === id);
  if (c?.format !== 'postgres') throw new Error(`${id} is not a Postgres case`);
  return c;
});

const load = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

const dataset = await prepareDataset({ scale, cacheDir: join(REPO_LAB, 'data') });
// A cluster of its own under bench/out: the lab's and the tests' servers are left alone.
const server = await startPostgresServer({ dataDir: join(OUT, 'postgres') });
const prep = await preparePostgresLab(server.url, dataset.january);
console.log(
  `bench/pg-cases: ${dataset.source} data at scale ${dataset.scale} (${prep.rows} trips), Postgres ${prep.serverVersion}, ` +
    `${runs} runs per case, next copy ${nextCopy}; ${prep.loaded ? `loaded in ${prep.loadMs} ms` : 'already loaded'}`,
);

/** The raw work of a run: its committed writers' statements, run directly on a fresh copy (the copy is rebuilt after). */
async function rawWork(c: pg.Client, r: PostgresCaseResult, vendors: Record<string, number>): Promise<number> {
  // The same swap the run's reset does, then the statements alone.
  if (!(await swapInNextCopy(c))) throw new Error('no prepared copy after the run');
  const { ms } = await timed(async () => {
    for (const name of r.commitOrder) {
      await c.query('BEGIN');
      await c.query(tipUpdateSql('trips'), [vendors[name]]);
      await c.query('COMMIT');
    }
  });
  return ms;
}

interface Row {
  id: string;
  durations: number[];
  raws: number[];
  walls: number[];
  resets: number[];
  checks: number[];
  nextCopies: number[];
  verdicts: number[];
  loads: number[];
}

const client = new pg.Client({ connectionString: prep.url });
await client.connect();
const rows: Row[] = [];
try {
  for (const c of cases) {
    if (c.format !== 'postgres') continue;
    const row: Row = {
      id: c.id,
      durations: [],
      raws: [],
      walls: [],
      resets: [],
      checks: [],
      nextCopies: [],
      verdicts: [],
      loads: [],
    };
    for (let i = 1; i <= runs; i++) {
      const { ms: wall, value: r } = await timed(() =>
        runPostgresCase(server.url, { isolation: c.isolation, vendorA: c.vendorA, vendorB: c.vendorB, nextCopy }),
      );
      const raw = await rawWork(client, r, { A: c.vendorA, B: c.vendorB });
      // The copy the raw work used up, rebuilt outside every timing so the next run finds one prepared.
      await buildNextCopy(client);
      row.durations.push(r.durationMs);
      row.raws.push(raw);
      row.walls.push(wall);
      row.resets.push(r.resetMs);
      row.checks.push(r.checkMs);
      row.nextCopies.push(r.nextCopyMs);
      row.verdicts.push(r.verdict.oracleMs ?? 0);
      row.loads.push(load());
      console.log(
        `  ${c.id} run ${i}: run ${r.durationMs} ms (reset ${r.resetMs} ms${r.resetFromPreparedCopy ? '' : ', copy built in it'}, check ${r.checkMs} ms), ` +
          `raw ${raw.toFixed(0)} ms, wall ${wall.toFixed(0)} ms (verdict ${r.verdict.oracleMs} ms, next copy ${r.nextCopyMs} ms), ` +
          `${r.verdict.status}, load ${load().toFixed(2)}`,
      );
    }
    rows.push(row);
  }
} finally {
  await client.end();
  await server.stop();
}

const f = (ms: number) => `${Math.round(ms).toLocaleString('en-US')} ms`;
console.log(
  '\n| case | median run | raw SQL | ratio | run − (1.5 × raw + 0.8 s) | median reset | median check | median verdict | median next copy | median wall per run | total wall, all runs | load |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
let total = 0;
for (const r of rows) {
  const run = median(r.durations);
  const raw = median(r.raws);
  const sum = r.walls.reduce((a, b) => a + b, 0);
  total += sum;
  console.log(
    `| ${r.id} | ${f(run)} | ${f(raw)} | ${(run / raw).toFixed(2)}× | ${f(run - (1.5 * raw + 800))} | ${f(median(r.resets))} | ${f(median(r.checks))} | ` +
      `${f(median(r.verdicts))} | ${f(median(r.nextCopies))} | ${f(median(r.walls))} | ${(sum / 1000).toFixed(1)} s | ` +
      `${Math.min(...r.loads).toFixed(1)}–${Math.max(...r.loads).toFixed(1)} |`,
  );
}
console.log(`\ntotal wall of the runs: ${(total / 1000).toFixed(1)} s (raw work measured between runs not included)`);
