/**
 * bench/engine-update: `tip_amount + 1 WHERE VendorID = 1` on the 3,475,226-row, 9-file table,
 * through the engine (find the files with matches, rewrite them, commit) and, in the same run, the
 * same rewrite as one raw DuckDB COPY. Each round gets a fresh copy of the table (hard links plus
 * a copied log) and runs each variant in its own process, for a clean peak RSS.
 *
 *   npm run bench:engine-update [-- --rows N --rounds R]
 */
import { cpSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeltaTable, update, withConnection, writeDeltaTable } from '@racelab/engine';
import { answerHelp, inChild, maxRssKb, median, timed } from './lib';
import { LESSON_ROWS, ROWS_PER_FILE, taxiSql } from './taxi';

await answerHelp({
  usage: ['npm run bench:engine-update [-- --rows N --rounds R]'],
  about: 'An update of the taxi table through the engine beside the same rewrite as one raw DuckDB COPY.',
  options: {
    '--rows N': 'rows of the taxi table (default 3,475,226)',
    '--rounds R': 'rounds, medians reported (default 3)',
  },
  examples: ['npm run bench:engine-update -- --rows 400000 --rounds 1'],
});

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/engine-update', import.meta.url));

function freshCopy(base: string, dest: string): void {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const f of readdirSync(base)) if (f.endsWith('.parquet')) linkSync(join(base, f), join(dest, f));
  cpSync(join(base, '_delta_log'), join(dest, '_delta_log'), { recursive: true });
}

async function child(mode: string, dir: string): Promise<void> {
  const table = await DeltaTable.open(dir);
  let ms: number;
  let files = 0;
  if (mode === 'engine') {
    const t = await timed(() => update(table, { predicate: 'VendorID = 1', set: { tip_amount: 'tip_amount + 1' } }));
    ms = t.ms;
    files = t.value?.filesAdded ?? 0;
    // Not timed: the rewrite kept every row and raised exactly the VendorID 1 tips.
    const after = await DeltaTable.open(dir);
    const [check] = await after.query<{ n: bigint; tips: number }>(
      (rel) => `SELECT count(*) AS n, sum(tip_amount) AS tips FROM (${rel})`,
    );
    const [was] = await table.query<{ n: bigint; tips: number; v1: bigint }>(
      (rel) =>
        `SELECT count(*) AS n, sum(tip_amount) AS tips, count(*) FILTER (WHERE "VendorID" = 1) AS v1 FROM (${rel})`,
    );
    if (check?.n !== was?.n || Math.abs((check?.tips ?? 0) - (was?.tips ?? 0) - Number(was?.v1)) > 1) {
      throw new Error(
        `the engine's update is wrong: ${JSON.stringify({ check, was }, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`,
      );
    }
  } else {
    const list = table.activeFiles().map((f) => `'${join(dir, f.path)}'`);
    const t = await timed(() =>
      withConnection((c) =>
        c.run(
          `COPY (SELECT * REPLACE (CASE WHEN VendorID = 1 THEN tip_amount + 1 ELSE tip_amount END AS tip_amount) FROM read_parquet([${list.join(', ')}])) TO '${join(dir, 'raw.parquet')}' (FORMAT parquet, COMPRESSION snappy)`,
        ),
      ),
    );
    ms = t.ms;
    files = 1;
  }
  console.log(JSON.stringify({ ms, files, maxRssKb: maxRssKb() }));
}

async function main(): Promise<void> {
  const arg = (name: string, d: number) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
  const rows = arg('--rows', LESSON_ROWS);
  const rounds = arg('--rounds', 3);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const src = join(OUT, 'source.parquet');
  await withConnection((c) => c.run(`COPY (${taxiSql(rows)}) TO '${src}' (FORMAT parquet, COMPRESSION snappy)`));
  const base = join(OUT, 'base');
  await writeDeltaTable(base, { kind: 'parquet', paths: [src] }, { rowsPerFile: ROWS_PER_FILE });
  const times: Record<string, number[]> = { engine: [], raw: [] };
  const rss: Record<string, number> = { engine: 0, raw: 0 };
  let engineFiles = 0;
  for (let i = 0; i < rounds; i++) {
    for (const mode of i % 2 ? ['raw', 'engine'] : ['engine', 'raw']) {
      const dir = join(OUT, mode);
      freshCopy(base, dir);
      const { result, peakRssMb } = inChild(SELF, ['--child', mode, dir]);
      times[mode]?.push(result.ms as number);
      if (mode === 'engine') engineFiles = result.files as number;
      rss[mode] = Math.max(rss[mode] ?? 0, peakRssMb);
    }
  }
  const e = median(times.engine ?? []);
  const r = median(times.raw ?? []);
  const fmt = (xs: number[] = []) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `rows: ${rows} in 9 files, rounds: ${rounds}; the engine wrote ${engineFiles} file(s), checked: every row kept, exactly the VendorID 1 tips +1`,
  );
  console.log(
    `engine update (match count, rewrite, commit): median ${e.toFixed(0)} ms [${fmt(times.engine)}], peak RSS ${rss.engine} MB (goal <= 700 MB)`,
  );
  console.log(
    `raw DuckDB rewrite (one COPY, 9 files -> 1):   median ${r.toFixed(0)} ms [${fmt(times.raw)}], peak RSS ${rss.raw} MB`,
  );
  console.log(`ratio engine / raw: ${(e / r).toFixed(2)} (goal <= 1.25)`);
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv[3] as string, process.argv[4] as string);
else await main();
