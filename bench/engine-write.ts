/**
 * bench/engine-write: 3,475,226 taxi-like rows written as 9 files (400,000 rows per file) through
 * the engine, and the same rows as 9 files by raw DuckDB in the same run: the ratio is the
 * engine's overhead over the physical limit of this machine. Each variant runs in its own process
 * for a clean peak RSS; 3 rounds, medians reported.
 *
 *   npm run bench:engine-write [-- --rows N --rounds R]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeltaTable, withConnection, writeDeltaTable } from '@racelab/engine';
import { answerHelp, inChild, maxRssKb, median, timed } from './lib';
import { LESSON_ROWS, ROWS_PER_FILE, taxiSql } from './taxi';

await answerHelp({
  usage: ['npm run bench:engine-write [-- --rows N --rounds R]'],
  about: 'The taxi rows written as a Delta table through the engine beside the same files written by raw DuckDB.',
  options: {
    '--rows N': 'rows to write (default 3,475,226)',
    '--rounds R': 'rounds, medians reported (default 3)',
  },
  examples: ['npm run bench:engine-write -- --rows 400000 --rounds 1'],
});

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/engine-write', import.meta.url));

async function child(mode: string, src: string, dest: string): Promise<void> {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  let ms: number;
  let files: number;
  if (mode === 'engine') {
    const t = await timed(() =>
      writeDeltaTable(dest, { kind: 'parquet', paths: [src] }, { rowsPerFile: ROWS_PER_FILE }),
    );
    ms = t.ms;
    files = (await DeltaTable.open(dest)).activeFiles().length;
  } else {
    // The least work that gives the same 9 files: one pass, DuckDB cutting the rows by position.
    const t = await timed(() =>
      withConnection((c) =>
        c.run(
          `COPY (SELECT * EXCLUDE (file_row_number), file_row_number // ${ROWS_PER_FILE} AS chunk FROM read_parquet('${src}', file_row_number=true)) TO '${dest}' (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (chunk))`,
        ),
      ),
    );
    ms = t.ms;
    files = 0;
    for (const e of (await import('node:fs')).readdirSync(dest, { recursive: true }))
      if (String(e).endsWith('.parquet')) files++;
  }
  console.log(JSON.stringify({ ms, files, maxRssKb: maxRssKb() }));
}

async function main(): Promise<void> {
  const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(name) + 1] ?? d) || d;
  const rows = process.argv.includes('--rows') ? arg('--rows', LESSON_ROWS) : LESSON_ROWS;
  const rounds = process.argv.includes('--rounds') ? arg('--rounds', 3) : 3;
  mkdirSync(OUT, { recursive: true });
  const src = join(OUT, 'source.parquet');
  await withConnection((c) => c.run(`COPY (${taxiSql(rows)}) TO '${src}' (FORMAT parquet, COMPRESSION snappy)`));
  const engine: number[] = [];
  const raw: number[] = [];
  let engineRss = 0;
  let rawRss = 0;
  let files = { engine: 0, raw: 0 };
  for (let i = 0; i < rounds; i++) {
    // Alternate the order so neither variant always gets the warmer page cache.
    for (const mode of i % 2 ? ['raw', 'engine'] : ['engine', 'raw']) {
      const { result, peakRssMb } = inChild(SELF, ['--child', mode, src, join(OUT, mode)]);
      if (mode === 'engine') {
        engine.push(result.ms as number);
        engineRss = Math.max(engineRss, peakRssMb);
        files = { ...files, engine: result.files as number };
      } else {
        raw.push(result.ms as number);
        rawRss = Math.max(rawRss, peakRssMb);
        files = { ...files, raw: result.files as number };
      }
    }
  }
  const e = median(engine);
  const r = median(raw);
  console.log(`rows: ${rows}, files: engine ${files.engine}, raw ${files.raw}, rounds: ${rounds}`);
  console.log(
    `engine write (files + commit): median ${e.toFixed(0)} ms  [${engine.map((x) => x.toFixed(0)).join(', ')}], peak RSS ${engineRss} MB`,
  );
  console.log(
    `raw DuckDB COPY:               median ${r.toFixed(0)} ms  [${raw.map((x) => x.toFixed(0)).join(', ')}], peak RSS ${rawRss} MB`,
  );
  console.log(`ratio engine / raw: ${(e / r).toFixed(2)} (goal <= 1.2)`);
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child')
  await child(process.argv[3] as string, process.argv[4] as string, process.argv[5] as string);
else await main();
