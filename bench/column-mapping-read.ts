/**
 * bench/column-mapping-read: what column mapping costs a reader. The 3,475,226-row, 9-file taxi table is read as
 * written (logical names in the files) and as a column-mapped table holding the same rows, in `name` mode and
 * in `id` mode (files with physical names `col-<n>` and Parquet field ids, stats and the log keyed by physical
 * name, as Delta Spark writes such tables). Each variant runs in its own process: open the latest snapshot,
 * then three reads through the engine's relation, each 9 times: a count, a pruned and filtered sum, and an
 * aggregate over every column. The results of the mapped tables are checked against the plain table's.
 *
 *   npm run bench:column-mapping-read [-- --rows N]
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeltaTable, type StructType, withConnection, writeDeltaTable } from '@racelab/engine';
import { answerHelp, inChild, maxRssKb, median, timed } from './lib';
import { LESSON_ROWS, ROWS_PER_FILE, taxiSql } from './taxi';

await answerHelp({
  usage: ['npm run bench:column-mapping-read [-- --rows N]'],
  about: 'What column mapping costs a reader: the taxi table read as written and column-mapped in name and id mode.',
  options: {
    '--rows N': 'rows of the taxi table (default 3,475,226)',
  },
  examples: ['npm run bench:column-mapping-read -- --rows 400000'],
});

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/column-mapping-read', import.meta.url));
const REPEATS = 9;

const READS: Record<string, { sql: (rel: string) => string; predicate?: string }> = {
  count: { sql: (rel) => `SELECT count(*) AS v FROM (${rel})` },
  // Rounded: a float sum's last digits depend on the order threads add in.
  filteredSum: { sql: (rel) => `SELECT round(sum(tip_amount), 2) AS v FROM (${rel})`, predicate: 'VendorID = 7' },
  everyColumn: { sql: (rel) => `SELECT CAST(to_json(max(COLUMNS(*))) AS VARCHAR) AS v FROM (${rel})` },
};

async function child(dir: string): Promise<void> {
  const open = await timed(() => DeltaTable.open(dir));
  const out: Record<string, number | string> = { openMs: open.ms };
  for (const [name, read] of Object.entries(READS)) {
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const t = await timed(() =>
        open.value.query<{ v: unknown }>(read.sql, read.predicate ? { predicate: read.predicate } : {}),
      );
      times.push(t.ms);
      out[`${name}Value`] = String(t.value[0]?.v);
    }
    out[`${name}Ms`] = median(times);
  }
  console.log(JSON.stringify({ ...out, maxRssKb: maxRssKb() }));
}

/** A copy of the plain table with column mapping: files rewritten under physical names with field ids. */
async function mappedCopy(plain: string, dest: string, mode: 'name' | 'id'): Promise<void> {
  const table = await DeltaTable.open(plain);
  const physical = (i: number) => `col-${i + 1}`;
  const schema: StructType = {
    type: 'struct',
    fields: table.schema.fields.map((f, i) => ({
      ...f,
      metadata: { 'delta.columnMapping.id': i + 1, 'delta.columnMapping.physicalName': physical(i) },
    })),
  };
  const rename = (o: Record<string, unknown> | undefined) =>
    Object.fromEntries(table.schema.fields.flatMap((f, i) => (o && f.name in o ? [[physical(i), o[f.name]]] : [])));
  mkdirSync(join(dest, '_delta_log'), { recursive: true });
  const select = table.schema.fields.map((f, i) => `"${f.name}" AS "${physical(i)}"`).join(', ');
  const ids = table.schema.fields.map((_, i) => `"${physical(i)}": ${i + 1}`).join(', ');
  const adds = await withConnection(async (c) => {
    const out = [];
    for (const add of table.activeFiles()) {
      await c.run(
        `COPY (SELECT ${select} FROM read_parquet('${join(plain, add.path)}')) TO '${join(dest, add.path)}' (FORMAT parquet, COMPRESSION snappy, FIELD_IDS {${ids}})`,
      );
      const stats = JSON.parse(add.stats ?? '{}');
      const mappedStats = {
        numRecords: stats.numRecords,
        minValues: rename(stats.minValues),
        maxValues: rename(stats.maxValues),
        nullCount: rename(stats.nullCount),
      };
      out.push({ add: { ...add, stats: JSON.stringify(mappedStats) } });
    }
    return out;
  });
  // The taxi table has naive timestamps, so reader 3 with features (reader 2 cannot say timestampNtz).
  const features = ['columnMapping', 'timestampNtz'];
  const protocol = { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: features, writerFeatures: features };
  const metaData = {
    ...table.metadata,
    schemaString: JSON.stringify(schema),
    configuration: {
      'delta.columnMapping.mode': mode,
      'delta.columnMapping.maxColumnId': String(schema.fields.length),
    },
  };
  const lines = [{ protocol }, { metaData }, ...adds].map((a) => JSON.stringify(a));
  writeFileSync(join(dest, '_delta_log', '00000000000000000000.json'), lines.join('\n'));
}

async function main(): Promise<void> {
  const rows = process.argv.includes('--rows') ? Number(process.argv[process.argv.indexOf('--rows') + 1]) : LESSON_ROWS;
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const src = join(OUT, 'source.parquet');
  await withConnection((c) => c.run(`COPY (${taxiSql(rows)}) TO '${src}' (FORMAT parquet, COMPRESSION snappy)`));
  const dirs = { plain: join(OUT, 'plain'), name: join(OUT, 'name'), id: join(OUT, 'id') };
  await writeDeltaTable(dirs.plain, { kind: 'parquet', paths: [src] }, { rowsPerFile: ROWS_PER_FILE });
  await mappedCopy(dirs.plain, dirs.name, 'name');
  await mappedCopy(dirs.plain, dirs.id, 'id');
  const results = Object.fromEntries(
    Object.entries(dirs).map(([variant, dir]) => [variant, inChild(SELF, ['--child', dir])] as const),
  );
  const plain = results.plain?.result ?? {};
  for (const [variant, { result }] of Object.entries(results)) {
    for (const name of Object.keys(READS)) {
      if (result[`${name}Value`] !== plain[`${name}Value`]) {
        throw new Error(`${variant} ${name} gave ${result[`${name}Value`]}, the plain table ${plain[`${name}Value`]}`);
      }
    }
  }
  console.log(
    `rows: ${rows} in 9 files; ${REPEATS} runs per read, medians; every read of the mapped tables equals the plain table's`,
  );
  for (const [variant, { result, peakRssMb }] of Object.entries(results)) {
    const cells = [`open ${Number(result.openMs).toFixed(0)} ms`];
    for (const name of Object.keys(READS)) {
      const ms = Number(result[`${name}Ms`]);
      const ratio = variant === 'plain' ? '' : ` (${(ms / Number(plain[`${name}Ms`])).toFixed(2)}x)`;
      cells.push(`${name} ${ms.toFixed(1)} ms${ratio}`);
    }
    console.log(`${variant.padEnd(5)}: ${cells.join(', ')}; peak RSS ${peakRssMb} MB`);
  }
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv[3] as string);
else await main();
