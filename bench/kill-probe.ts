/**
 * bench/kill-probe: fault injection on real writer processes. For each of three kinds of table (deletion
 * vectors, column mapping by name, a checkpoint every 2 commits), a fresh copy takes writers that commit in a loop
 * (kill-probe-writer.ts), each SIGKILLed at a seeded random instant 0 to --max-delay ms after it said it began its
 * first operation, so kills land while it opens the table, writes data files, claims a version or writes a
 * checkpoint; then the next writer starts, --concurrency at a time. After the table's kills it checks that every
 * acknowledged commit is there exactly once and the cut ones wholly or not at all (kill-probe-check.ts), vacuums
 * at retention 0, and checks that nothing the log does not name is left. Exits 1 on any fault.
 *
 *   npm run bench:kill-probe [-- --kills 300 --seed 1 --concurrency 2 --max-delay 300]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DeltaTable, type StructType, vacuum, writeDeltaTable } from '@racelab/engine';
import { seededRandom } from '@racelab/engine/conflict';
import { fixture } from '../fixtures';
import { checkTable, leftovers, type Op, parseWriterLines, scanIds } from './kill-probe-check';
import { FIRST_WRITER_ID, IDS_PER_WRITER } from './kill-probe-plan';
import { answerHelp } from './lib';

await answerHelp({
  usage: ['npm run bench:kill-probe [-- --kills N --seed S --concurrency C --max-delay MS]'],
  about:
    'Writers SIGKILLed at seeded random instants on three kinds of table; then every acknowledged commit is checked. Exit 1 on any fault.',
  options: {
    '--kills N': 'writers killed per table (default 300)',
    '--seed S': 'the seed of the kill instants (default 1)',
    '--concurrency C': 'writers at a time (default 2)',
    '--max-delay MS': 'latest kill after a writer began (default 300)',
  },
  examples: ['npm run bench:kill-probe -- --kills 30'],
});

const OUT = fileURLToPath(new URL('./out/kill-probe', import.meta.url));
const WRITER = fileURLToPath(new URL('./kill-probe-writer.ts', import.meta.url));
const arg = (name: string, d: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
const KILLS = arg('--kills', 300);
const SEED = arg('--seed', 1);
const CONCURRENCY = arg('--concurrency', 2);
const MAX_DELAY_MS = arg('--max-delay', 300);

interface TableKind {
  name: string;
  /** The column holding each row's id. */
  column: string;
  /** The other values of an appended row. */
  extra: Record<string, unknown>;
  make(dir: string): Promise<void>;
}

const CHECKPOINTED: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true, metadata: {} },
    { name: 'payload', type: 'string', nullable: true, metadata: {} },
  ],
};

const KINDS: TableKind[] = [
  {
    name: 'deletion vectors (table-with-dv-small)',
    column: 'value',
    extra: {},
    make: async (dir) =>
      cpSync(fixture('delta-golden', 'table-with-dv-small'), dir, {
        recursive: true,
        filter: (src) => basename(src) !== 'expected.json',
      }),
  },
  {
    name: 'column mapping, name (table-with-columnmapping-mode-name)',
    column: 'LongType',
    extra: { StringType: 'kill-probe' },
    make: async (dir) =>
      cpSync(fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'), dir, { recursive: true }),
  },
  {
    name: 'checkpoint every 2 commits (delta.checkpointInterval = 2)',
    column: 'id',
    extra: { payload: 'kill-probe' },
    make: async (dir) => {
      const rows = Array.from({ length: 10 }, (_, id) => ({ id, payload: 'before' }));
      await writeDeltaTable(
        dir,
        { kind: 'rows', schema: CHECKPOINTED, rows },
        { configuration: { 'delta.checkpointInterval': '2' } },
      );
    },
  },
];

interface Life {
  ops: Op[];
  /** Set when the writer ended some other way than by our SIGKILL. */
  error?: string;
}

/** One writer's life: started, killed `delay` ms after its first `start` line, its lines read to the end. */
async function live(kind: TableKind, dir: string, n: number, seed: number, delay: number): Promise<Life> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      WRITER,
      dir,
      kind.column,
      String(FIRST_WRITER_ID + n * IDS_PER_WRITER),
      String(seed),
      JSON.stringify(kind.extra),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (b) => {
    stderr += b;
  });
  let timer: NodeJS.Timeout | undefined;
  const read = new Promise<void>((resolve) => {
    const rl = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    rl.on('line', (line) => {
      lines.push(line);
      if (timer === undefined && line.startsWith('start ')) timer = setTimeout(() => child.kill('SIGKILL'), delay);
    });
    rl.on('close', resolve);
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
  await read;
  clearTimeout(timer);
  const ops = parseWriterLines(lines);
  // A conflict with the other writer (CommitFailedError) is an outcome to check; any other error is a fault.
  const failures = lines.filter((l) => l.startsWith('failed ') && !l.startsWith('failed CommitFailedError'));
  if (signal !== 'SIGKILL')
    return { ops, error: `writer ${n} ended with ${signal ?? 'an exit'}: ${stderr.slice(-500)}` };
  return { ops, ...(failures.length > 0 && { error: `writer ${n}: ${failures[0]}` }) };
}

interface KindResult {
  kind: string;
  kills: number;
  acked: number;
  failed: number;
  cut: number;
  cutLanded: number;
  lost: number;
  duplicated: number;
  leftoversBefore: number;
  leftoversAfter: number;
  rows: number;
  seconds: number;
  faults: string[];
}

async function probe(kind: TableKind, k: number, kills: number): Promise<KindResult> {
  const t0 = performance.now();
  const dir = join(OUT, `table-${k}`);
  mkdirSync(dir, { recursive: true });
  await kind.make(dir);
  const before = (await scanIds(dir, kind.column)).ids;
  const random = seededRandom(SEED * 31 + k);
  const writers: Op[][] = [];
  const errors: string[] = [];
  let started = 0;
  const slot = async () => {
    while (started < kills) {
      const n = started++;
      const life = await live(kind, dir, n, Math.floor(random() * 2 ** 31), random() * MAX_DELAY_MS);
      writers.push(life.ops);
      if (life.error) errors.push(life.error);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, slot));
  const check = await checkTable(dir, kind.column, before, writers);
  const found = await leftovers(dir, true);
  const v = await vacuum(await DeltaTable.open(dir), {
    retentionHours: 0,
    enforceRetentionDuration: false,
    dryRun: false,
  });
  const left = await leftovers(dir, false);
  const faults = [...errors, ...check.faults, ...left.map((key) => `left after vacuum: ${key}`)];
  const afterVacuum = await scanIds(dir, kind.column);
  if (afterVacuum.count !== check.rows) faults.push(`after vacuum ${afterVacuum.count} rows, ${check.rows} before`);
  console.log(
    `${kind.name}: ${kills} kills, ${check.acked} acknowledged, ${check.failed} failed, ${check.cut} cut; ` +
      `${found.length} leftovers before vacuum (${summarize(found)}), vacuum removed ${v.files.length} files, ` +
      `${v.leftovers.length} leftovers, ${v.folders.length} folders`,
  );
  return {
    kind: kind.name,
    kills,
    acked: check.acked,
    failed: check.failed,
    cut: check.cut,
    cutLanded: check.cutLanded,
    lost: check.lost,
    duplicated: check.duplicated,
    leftoversBefore: found.length,
    leftoversAfter: left.length,
    rows: check.rows,
    seconds: (performance.now() - t0) / 1000,
    faults,
  };
}

/** Leftovers by what they are: temporary names, staging, empty folders, orphan files. */
function summarize(keys: string[]): string {
  const by = new Map<string, number>();
  for (const key of keys) {
    const what = key.endsWith('/')
      ? 'empty folders'
      : key.startsWith('_staging/')
        ? 'staging files'
        : key.includes('#')
          ? 'temporary names'
          : 'orphan files';
    by.set(what, (by.get(what) ?? 0) + 1);
  }
  return [...by].map(([what, n]) => `${n} ${what}`).join(', ') || 'none';
}

async function main(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  const t0 = performance.now();
  const results: KindResult[] = [];
  for (const [k, kind] of KINDS.entries()) {
    const kills = Math.floor(KILLS / KINDS.length) + (k < KILLS % KINDS.length ? 1 : 0);
    results.push(await probe(kind, k, kills));
  }
  console.log(
    `\nseed ${SEED}, ${CONCURRENCY} writers at a time, kills 0-${MAX_DELAY_MS} ms after a writer's first start`,
  );
  console.log(
    '| table | kills | acknowledged | failed | cut by the kill (committed all the same) | lost | duplicated | rows | leftovers before vacuum | after vacuum | wall s |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(
      `| ${r.kind} | ${r.kills} | ${r.acked} | ${r.failed} | ${r.cut} (${r.cutLanded}) | ${r.lost} | ${r.duplicated} | ${r.rows} | ${r.leftoversBefore} | ${r.leftoversAfter} | ${r.seconds.toFixed(0)} |`,
    );
  }
  console.log(`total wall time ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const faults = results.flatMap((r) => r.faults.map((f) => `${r.kind}: ${f}`));
  for (const f of faults.slice(0, 50)) console.log(`FAULT ${f}`);
  if (faults.length > 0) {
    console.log(`${faults.length} faults; the tables are kept in ${OUT}`);
    process.exit(1);
  }
  rmSync(OUT, { recursive: true, force: true });
}

await main();
