/**
 * bench/dv-read: what deletion vectors cost a reader. The 3,475,226-row, 9-file taxi table gets deletion vectors
 * deleting 10 % of each file's rows (a fixed hash of the row position; one shared `u` file, as Delta Spark writes
 * them, encoded by test/helpers/deletion-vectors.ts), and a second table holds just the surviving rows, written
 * plainly in as many files. Each table is read in its own process through the engine's relation: a count, a pruned
 * and filtered sum, an aggregate over every column, each 9 times (medians of wall and CPU time); every process
 * opens its table afresh, so each DV read pays for reading, checking and decoding its vectors. Rounds alternate
 * the two tables; the DV table's answers must equal the plain table's. Then the decoder alone: the golden DVs and
 * synthetic 1M-position ones (bitset, array and run containers).
 *
 *   npm run bench:dv-read [-- --rows N --rounds R]
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeltaTable, readDeletionVector, withConnection, writeDeltaTable } from '@racelab/engine';
import { fixture } from '../fixtures';
import { dataFilePath, dvBitmap, dvFile, putDeletionVectors } from '../packages/engine/test/helpers/deletion-vectors';
import { answerHelp, inChild, maxRssKb, median, timed } from './lib';
import { LESSON_ROWS, ROWS_PER_FILE, taxiSql } from './taxi';

await answerHelp({
  usage: ['npm run bench:dv-read [-- --rows N --rounds R]'],
  about:
    'What deletion vectors cost a reader: the taxi table with 10 % of its rows deleted by vectors beside the same rows written plainly.',
  options: {
    '--rows N': 'rows of the taxi table (default 3,475,226)',
    '--rounds R': 'rounds, medians reported (default 3)',
  },
  examples: ['npm run bench:dv-read -- --rows 400000 --rounds 1'],
});

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/dv-read', import.meta.url));
const REPEATS = 9;

/** Row i of a file is deleted when this holds: about one row in ten, spread evenly, the same in JS and SQL. */
const deletedJs = (i: number) => (Math.imul(i, 0x9e3779b1) >>> 0) % 10 === 0;
const DELETED_SQL = '((file_row_number * 2654435761) % 4294967296) % 10 = 0';

const READS: Record<string, { sql: (rel: string) => string; predicate?: string }> = {
  count: { sql: (rel) => `SELECT count(*) AS v FROM (${rel})` },
  // Rounded: a float sum's last digits depend on the order threads add in.
  filteredSum: { sql: (rel) => `SELECT round(sum(tip_amount), 2) AS v FROM (${rel})`, predicate: 'VendorID = 7' },
  everyColumn: { sql: (rel) => `SELECT CAST(to_json(max(COLUMNS(*))) AS VARCHAR) AS v FROM (${rel})` },
};

async function child(dir: string): Promise<void> {
  const table = await DeltaTable.open(dir);
  const out: Record<string, number | string> = {};
  for (const [name, read] of Object.entries(READS)) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const before = process.cpuUsage();
      const t = await timed(() =>
        table.query<{ v: unknown }>(read.sql, read.predicate ? { predicate: read.predicate } : {}),
      );
      const used = process.cpuUsage(before);
      wall.push(t.ms);
      cpu.push((used.user + used.system) / 1000);
      out[`${name}Value`] = String(t.value[0]?.v);
    }
    out[`${name}Ms`] = median(wall);
    out[`${name}CpuMs`] = median(cpu);
  }
  console.log(JSON.stringify({ ...out, maxRssKb: maxRssKb() }));
}

/** Deletion vectors on 10 % of every file's rows; returns how many rows survive. */
async function deleteTenPercent(dir: string): Promise<number> {
  const table = await DeltaTable.open(dir);
  const deleted = new Map<string, number[]>();
  let surviving = 0;
  for (const f of table.activeFiles()) {
    const rows = JSON.parse(f.stats ?? '{}').numRecords as number;
    const positions = Array.from({ length: rows }, (_, i) => i).filter(deletedJs);
    deleted.set(f.path, positions);
    surviving += rows - positions.length;
  }
  await putDeletionVectors(dir, deleted, { type: 'u' });
  return surviving;
}

/** Median decode time of `readDeletionVector` (framing, CRC-32, bitmap) for the bytes of one file holding one DV. */
async function decodeMs(bitmap: Uint8Array, cardinality: number, rounds: number): Promise<number> {
  const { bytes } = dvFile([bitmap]);
  const dv = {
    storageType: 'u',
    pathOrInlineDv: 'vBn[lx{q8@P<9BNH/isA',
    offset: 1,
    sizeInBytes: bitmap.length,
    cardinality,
  };
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) times.push((await timed(() => readDeletionVector(dv, async () => bytes))).ms);
  return median(times);
}

async function decoding(): Promise<void> {
  const golden = fixture('delta-golden', 'table-with-dv-small');
  const file = readFileSync(join(golden, 'deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin'));
  const dv = { storageType: 'u', pathOrInlineDv: 'vBn[lx{q8@P<9BNH/isA', offset: 1, sizeInBytes: 36, cardinality: 2 };
  const times: number[] = [];
  for (let i = 0; i < 2001; i++) times.push((await timed(() => readDeletionVector(dv, async () => file))).ms);
  console.log(`decode golden table-with-dv-small (2 rows): ${(median(times) * 1000).toFixed(1)} µs`);
  let x = 12345;
  const random = (n: number, span: number) => {
    const s = new Set<number>();
    while (s.size < n) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      s.add((x >>> 0) % span);
    }
    return [...s];
  };
  const cases: [string, number[], boolean][] = [
    ['1M random rows of 10M (bitset containers)', random(1_000_000, 10_000_000), false],
    ['1M random rows of 20M (array containers)', random(1_000_000, 20_000_000), false],
    [
      '1M rows in 1,000 runs (run containers)',
      Array.from({ length: 1_000_000 }, (_, i) => (i % 1000) + 10_000 * Math.floor(i / 1000)),
      true,
    ],
  ];
  for (const [name, positions, runs] of cases) {
    const bitmap = dvBitmap(positions, { runs });
    const ms = await decodeMs(bitmap, positions.length, 21);
    console.log(`decode ${name}: ${ms.toFixed(1)} ms (${bitmap.length} bytes)`);
  }
}

async function main(): Promise<void> {
  const arg = (name: string, d: number) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) || d : d;
  const rows = arg('--rows', LESSON_ROWS);
  const rounds = arg('--rounds', 3);
  rmSync(OUT, { recursive: true, force: true });
  const dirs = { plain: join(OUT, 'plain'), dv: join(OUT, 'dv') };
  const src = join(OUT, 'source.parquet');
  const survivors = join(OUT, 'survivors.parquet');
  mkdirSync(OUT, { recursive: true });
  await withConnection((c) => c.run(`COPY (${taxiSql(rows)}) TO '${src}' (FORMAT parquet, COMPRESSION snappy)`));
  await writeDeltaTable(dirs.dv, { kind: 'parquet', paths: [src] }, { rowsPerFile: ROWS_PER_FILE });
  const files = (await DeltaTable.open(dirs.dv)).activeFiles();
  const list = files.map((f) => `'${dataFilePath(dirs.dv, f.path)}'`).join(', ');
  await withConnection((c) =>
    c.run(
      `COPY (SELECT * EXCLUDE (file_row_number) FROM read_parquet([${list}], file_row_number=true) WHERE NOT (${DELETED_SQL})) TO '${survivors}' (FORMAT parquet, COMPRESSION snappy)`,
    ),
  );
  const surviving = await deleteTenPercent(dirs.dv);
  await writeDeltaTable(
    dirs.plain,
    { kind: 'parquet', paths: [survivors] },
    { rowsPerFile: Math.ceil(surviving / files.length) },
  );
  const results: Record<string, Record<string, number>[]> = { plain: [], dv: [] };
  let rss = { plain: 0, dv: 0 };
  for (let r = 0; r < rounds; r++) {
    for (const variant of r % 2 ? (['dv', 'plain'] as const) : (['plain', 'dv'] as const)) {
      const { result, peakRssMb } = inChild(SELF, ['--child', dirs[variant]]);
      results[variant]?.push(result);
      rss = { ...rss, [variant]: Math.max(rss[variant], peakRssMb) };
    }
  }
  const first = (v: string) => results[v]?.[0] ?? {};
  for (const name of Object.keys(READS)) {
    if (first('dv')[`${name}Value`] !== first('plain')[`${name}Value`]) {
      throw new Error(
        `${name}: the DV table gave ${first('dv')[`${name}Value`]}, the plain one ${first('plain')[`${name}Value`]}`,
      );
    }
  }
  const stat = (v: string, key: string) => median((results[v] ?? []).map((x) => Number(x[key])));
  console.log(
    `rows: ${rows} in ${files.length} files, ${surviving} surviving; ${rounds} rounds of ${REPEATS} runs per read (medians); the DV table's answers equal the plain table's`,
  );
  for (const name of Object.keys(READS)) {
    const [pw, dw, pc, dc] = [
      stat('plain', `${name}Ms`),
      stat('dv', `${name}Ms`),
      stat('plain', `${name}CpuMs`),
      stat('dv', `${name}CpuMs`),
    ];
    console.log(
      `${name.padEnd(12)} plain ${pw.toFixed(1)} ms (CPU ${pc.toFixed(1)}), DV ${dw.toFixed(1)} ms (CPU ${dc.toFixed(1)}): ${(dw / pw).toFixed(2)}x wall, ${(dc / pc).toFixed(2)}x CPU (goal <= 1.3)`,
    );
  }
  console.log(`peak RSS: plain ${rss.plain} MB, DV ${rss.dv} MB`);
  await decoding();
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv[3] as string);
else await main();
