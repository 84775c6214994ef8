/**
 * bench/pg-copy: the throughput of the lab's `copyFromFile` (`COPY … FROM STDIN`), loading the January
 * trips as `preparePostgresLab` does: the trips' three columns exported once to CSV by DuckDB, then each
 * round copies them into a fresh `trips` table (the lab's DDL) in a transaction that is rolled back, so
 * every round starts from an empty table and a CHECKPOINT. Prints MB/s of CSV and rows/s per round and
 * their medians, and the bench process's own CPU time (the client side of the copy; the rest is the server's).
 *
 *   npm run bench:pg-copy [-- --scale S --rounds N]
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withConnection } from '@racelab/engine';
import { answerAndExit, copyFromFile, prepareDataset } from '@racelab/lab';
import { startPostgresServer } from '@racelab/pg-server';
import pg from 'pg';
import { median, timed } from './lib';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:pg-copy [-- --scale S --rounds N]'],
  about: "The throughput of the lab's COPY … FROM STDIN loading the January trips, in MB/s and rows/s per round.",
  options: {
    '--scale S': "the data set's scale (default 1)",
    '--rounds N': 'rounds, medians reported (default 5)',
  },
  examples: ['npm run bench:pg-copy -- --scale 0.1 --rounds 3'],
});

const OUT = fileURLToPath(new URL('./out/pg-copy', import.meta.url));
const REPO_LAB = fileURLToPath(new URL('../var/lab', import.meta.url));

const { values } = parseArgs({ options: { scale: { type: 'string' }, rounds: { type: 'string' } } });
const scale = Number(values.scale ?? 1);
const rounds = Number(values.rounds ?? 5);

const dataset = await prepareDataset({ scale, cacheDir: join(REPO_LAB, 'data') });
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const csv = join(OUT, 'trips.csv');
await withConnection((c) =>
  c.run(
    `COPY (SELECT trip_id, "VendorID", tip_amount FROM read_parquet('${dataset.january}'))
       TO '${csv}' (FORMAT csv, HEADER false)`,
  ),
);
const mb = statSync(csv).size / 1e6;

// A cluster of its own under bench/out: the lab's and the tests' servers are left alone.
const server = await startPostgresServer({ dataDir: join(OUT, 'postgres') });
const client = new pg.Client({ connectionString: server.url });
await client.connect();
console.log(
  `bench/pg-copy: ${dataset.source} data at scale ${dataset.scale}, ${mb.toFixed(1)} MB of CSV, ${rounds} rounds`,
);
const perRound: { ms: number; cpuMs: number; rows: number }[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    // The earlier rounds' pages and WAL written out now, so that no round pays for another's.
    await client.query('CHECKPOINT');
    await client.query('BEGIN');
    await client.query(
      `CREATE TABLE trips (trip_id bigint NOT NULL, "VendorID" integer, tip_amount double precision)
         WITH (fillfactor = 30)`,
    );
    const cpu = process.cpuUsage();
    const { ms, value: rows } = await timed(() =>
      copyFromFile(client, 'COPY trips (trip_id, "VendorID", tip_amount) FROM STDIN WITH (FORMAT csv)', csv),
    );
    const used = process.cpuUsage(cpu);
    await client.query('ROLLBACK');
    const cpuMs = (used.user + used.system) / 1000;
    perRound.push({ ms, cpuMs, rows });
    console.log(
      `  round ${round}: ${rows} rows in ${Math.round(ms)} ms: ${(mb / (ms / 1000)).toFixed(1)} MB/s, ` +
        `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s; client CPU ${Math.round(cpuMs)} ms`,
    );
  }
} finally {
  await client.end();
  await server.stop();
  rmSync(OUT, { recursive: true, force: true });
}
const ms = median(perRound.map((r) => r.ms));
const rows = perRound[0]?.rows ?? 0;
console.log(
  `median: ${Math.round(ms)} ms, ${(mb / (ms / 1000)).toFixed(1)} MB/s, ` +
    `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s; ` +
    `client CPU ${Math.round(median(perRound.map((r) => r.cpuMs)))} ms`,
);
