/**
 * bench/lab: the whole lab (every case, 5 runs, --scale 1) on this machine: wall time per case and
 * in total, peak memory (the lab process and its writer processes), and beside each Delta and Iceberg case the
 * time raw DuckDB takes for the same data work, measured in the same run: the rewrites, deletes,
 * appends and compactions its writers do, with no log, no processes and no checks; and the median time of
 * each case's serial-replay oracle (its verdict's oracleMs, outside the run's time). For P1–P3 the raw work
 * is the writers' two UPDATE statements run one after another on the lab's trips, in a transaction rolled back.
 * Each case's runs are also split into phases from the writers' own timings (before the barrier, the race,
 * after it), so a fixed cost shows where it sits.
 *
 *   npm run bench:lab [-- --scale S --runs N --cases A1,B1 --cold-writers --work-dir DIR]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeltaTable, withConnection } from '@racelab/engine';
import {
  answerAndExit,
  LAB_DATABASE,
  type PostgresCase,
  prepareDataset,
  runLab,
  selectCases,
  tipUpdateSql,
  type WriterSpec,
} from '@racelab/lab';
import { startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import { maxRssKb, median, timed } from './lib';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:lab [-- --scale S --runs N --cases A1,B1 --cold-writers --no-verdict-memo --work-dir DIR]'],
  about:
    'The whole lab on this machine: wall time per case and in total, peak memory, and beside each case the time\n' +
    "raw DuckDB takes for the same data work, and the oracle's time.",
  options: {
    '--scale S': "the data set's scale (default 1)",
    '--runs N': 'runs per case (default 5)',
    '--cases A1,B1': 'these cases only (default: the whole lab)',
    '--cold-writers': 'no writer processes started ahead of a race',
    '--no-verdict-memo': 'every run replays its serial orders',
    '--work-dir DIR': 'the lab folder (default var/lab)',
  },
  examples: ['npm run bench:lab -- --scale 0.1 --runs 2 --cases A1,B1'],
});

// Per process: a bench ending removes its folder, which must not be another bench's still running.
const OUT = fileURLToPath(new URL(`./out/lab-${process.pid}`, import.meta.url));
const REPO_LAB = fileURLToPath(new URL('../var/lab', import.meta.url));

/** The data work one writer does, as one DuckDB statement over the base table's files. */
function rawStatement(w: WriterSpec, files: string[], dayFile: (d: string) => string, out: string): string {
  const list = `read_parquet([${files.map((f) => `'${f}'`).join(', ')}])`;
  const op = w.operation;
  const copy = (select: string) => `COPY (${select}) TO '${out}' (FORMAT parquet, COMPRESSION snappy)`;
  switch (op.kind) {
    case 'update': {
      const [col, value] = Object.entries(op.set)[0] as [string, string];
      return copy(`SELECT * REPLACE (CASE WHEN ${op.predicate} THEN ${value} ELSE ${col} END AS ${col}) FROM ${list}`);
    }
    case 'delete':
      return copy(`SELECT * FROM ${list} WHERE (${op.predicate}) IS NOT TRUE`);
    case 'optimize':
      return copy(`SELECT * FROM ${list}`);
    case 'append':
    case 'check-then-append':
    case 'overwrite-day':
    case 'overwrite': {
      // The lab's cases add a February day; a race on a table of one's own adds a file's rows.
      const rows = 'day' in op ? dayFile(op.day) : 'file' in op.from ? op.from.file : null;
      if (rows === null) throw new Error(`${w.name}: a sample has no file before its race`);
      return copy(`SELECT * FROM read_parquet('${rows}')`);
    }
    case 'command':
      // A team's job is its own program: there is no one statement it amounts to.
      throw new Error(`${w.name}: a command writer has no raw DuckDB statement to measure against`);
  }
}

/** The raw work of a case's writers over `files` (a Delta base table's, or an Iceberg case's seed file). */
async function rawWork(c: { id: string; writers: WriterSpec[] }, files: string[], dayFile: (d: string) => string) {
  const { ms } = await timed(() =>
    withConnection(async (conn) => {
      for (const [i, w] of c.writers.entries())
        await conn.run(rawStatement(w, files, dayFile, join(OUT, `raw-${c.id}-${i}.parquet`)));
    }),
  );
  return ms;
}

/** The writers' statements of a P case, serially on the raced table, rolled back: what any run must do. */
async function rawPostgresWork(c: PostgresCase, url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { ms } = await timed(async () => {
      for (const vendor of [c.vendorA, c.vendorB]) await client.query(tipUpdateSql('trips'), [vendor]);
    });
    await client.query('ROLLBACK');
    return ms;
  } finally {
    await client.end();
  }
}

const arg = (name: string, d: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
const scale = arg('--scale', 1);
// Another lab folder (its own data, base tables and Postgres cluster), so two benches never share a cluster.
const LAB_DIR = process.argv.includes('--work-dir')
  ? resolve(process.argv[process.argv.indexOf('--work-dir') + 1] ?? REPO_LAB)
  : REPO_LAB;
const runs = arg('--runs', 5);
const only = process.argv.includes('--cases')
  ? process.argv[process.argv.indexOf('--cases') + 1]?.split(',')
  : undefined;
// The cases runLab runs: the named ones, else the default lab's (cases of a suite run only when named).
const cases = selectCases(only ?? []);
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const runTimes = new Map<string, number[]>();
const writerRss: number[] = [];
const oracleTimes = new Map<string, number[]>();
/**
 * A run's fixed cost, from its writers' own timings: before the barrier (the copy, the writers' open and
 * prepare; a process start too when no warm one waited), the race (first release to last finish), and
 * after it (the table check and the commit order), per case.
 */
const phases = new Map<string, { ready: number[]; race: number[]; after: number[] }>();
const total = await timed(() =>
  runLab({
    ...(only && { cases: only }),
    runs,
    scale,
    workDir: LAB_DIR,
    // Writers started for their race instead of ahead of it: the fixed cost warm writers remove.
    ...(process.argv.includes('--cold-writers') && { warmWriters: false }),
    // Every run replays its serial orders: the oracle's cost without the case's kept serial results.
    ...(process.argv.includes('--no-verdict-memo') && { verdictMemo: false }),
    onProgress: (p) => {
      if (p.kind !== 'run' || !p.result) return;
      runTimes.set(p.caseId, [...(runTimes.get(p.caseId) ?? []), p.result.durationMs ?? 0]);
      const oracleMs = p.result.verdict?.oracleMs;
      if (oracleMs !== undefined) oracleTimes.set(p.caseId, [...(oracleTimes.get(p.caseId) ?? []), oracleMs]);
      for (const w of p.result.writers) if (w.peakRssMb) writerRss.push(w.peakRssMb);
      const timed = p.result.writers.flatMap((w) => (w.timings ? [w.timings] : []));
      if (timed.length > 0) {
        const ph = phases.get(p.caseId) ?? { ready: [], race: [], after: [] };
        const lastFinish = Math.max(...timed.map((t) => t.finished));
        ph.ready.push(Math.max(...timed.map((t) => t.prepared)));
        ph.race.push(lastFinish - Math.min(...timed.map((t) => t.released)));
        ph.after.push((p.result.durationMs ?? 0) - lastFinish);
        phases.set(p.caseId, ph);
      }
      process.stderr.write(`${p.done}/${p.total} ${p.caseId} run ${p.run}: ${p.result.durationMs} ms\n`);
    },
  }),
);
// The lab's own peak, before this process runs the raw work (its COPYs are DuckDB rewrites too).
const labRssMb = Math.round(maxRssKb() / 1024);
const dataset = await prepareDataset({ scale, cacheDir: join(LAB_DIR, 'data') });
const base = join(LAB_DIR, 'base', `${dataset.source}-${dataset.scale}`);
console.log(`bench/lab: ${cases.length} cases x ${runs} runs at scale ${scale} (${dataset.source} data), 2 cores`);
console.log('case  runs total   median run   raw work          ratio   median oracle');
let rawTotal = 0;
// The lab stopped its Postgres: started again on the same cluster for the P cases' raw work.
const labPg = cases.some((c) => c.format === 'postgres')
  ? await startPostgresServer({ dataDir: join(LAB_DIR, 'postgres') })
  : null;
for (const c of cases) {
  const times = runTimes.get(c.id) ?? [];
  const sum = times.reduce((a, b) => a + b, 0);
  let raw = ''.padEnd(23);
  if (c.format === 'delta') {
    const table = typeof c.table === 'string' ? join(base, c.table) : c.table.location;
    const files = (await DeltaTable.open(table)).activeFiles().map((f) => join(table, f.path));
    const ms = await rawWork(c, files, (d) => dataset.february(d as '2025-02-01'));
    rawTotal += ms * runs;
    raw = `${ms.toFixed(0).padStart(8)} ms   ${(median(times) / ms).toFixed(1).padStart(5)}x`;
  } else if (c.format === 'iceberg') {
    // The Iceberg cases' writers append February days to a table seeded with 2025-01-15's trips.
    const ms = await rawWork(c, [join(base, 'jan15.parquet')], (d) => dataset.february(d as '2025-02-01'));
    rawTotal += ms * runs;
    raw = `${ms.toFixed(0).padStart(8)} ms   ${(median(times) / ms).toFixed(1).padStart(5)}x`;
  } else if (c.format === 'postgres' && labPg) {
    const ms = await rawPostgresWork(c, await labPg.ownerUrl(LAB_DATABASE));
    raw = `${ms.toFixed(0).padStart(8)} ms   ${(median(times) / ms).toFixed(1).padStart(5)}x`;
  }
  console.log(
    `${c.id.padEnd(5)} ${(sum / 1000).toFixed(1).padStart(8)} s ${median(times).toFixed(0).padStart(9)} ms   ${raw}   ${median(
      oracleTimes.get(c.id) ?? [0],
    )
      .toFixed(0)
      .padStart(8)} ms`,
  );
}
console.log('\nper-run phases (medians): before the barrier / race / after the race (check + commit order)');
for (const [id, ph] of phases) {
  const m = (xs: number[]) => `${median(xs).toFixed(0).padStart(6)} ms`;
  console.log(`${id.padEnd(5)} ${m(ph.ready)} ${m(ph.race)} ${m(ph.after)}`);
}
console.log(
  `total: ${(total.ms / 1000).toFixed(1)} s wall for the whole lab (setup included; goal < 8 min); raw DuckDB work for the Delta and Iceberg runs: ${(rawTotal / 1000).toFixed(1)} s`,
);
await labPg?.stop();
console.log(
  `peak RSS: lab process ${labRssMb} MB during the lab, ${Math.round(maxRssKb() / 1024)} MB after the raw work; largest writer process ${Math.max(0, ...writerRss)} MB`,
);
rmSync(OUT, { recursive: true, force: true });
