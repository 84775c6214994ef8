/**
 * bench/snapshot: a 10,000-commit table (one file added per commit, a classic checkpoint after every
 * 100th commit as delta-rs writes them) loads its latest snapshot. Each round runs in a fresh
 * process: its first load parses the checkpoint (cold), the next 10 reuse the parsed checkpoint
 * (warm). Beside it, the same log with every checkpoint removed (a JSON-only replay).
 *
 *   npm run bench:snapshot [-- --commits N --rounds R]
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildCommitInfo,
  commitKey,
  field,
  LocalObjectStore,
  loadState,
  newTableMetadata,
  protocolForSchema,
  type StructType,
  serializeCommit,
  withConnection,
  writeCheckpoint,
} from '@racelab/engine';
import { inChild, maxRssKb, median, timed } from './lib';

const SELF = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('./out/snapshot', import.meta.url));
const SCHEMA: StructType = { type: 'struct', fields: [field('trip_id', 'long'), field('VendorID', 'integer')] };

/** Writes the log with the engine's own primitives: put-if-absent commits and its checkpoint writer. */
async function build(dir: string, commits: number): Promise<number> {
  const store = new LocalObjectStore(dir);
  const info = () => ({ commitInfo: buildCommitInfo({ operation: 'WRITE', operationParameters: { mode: 'Append' } }) });
  const put = (v: number, actions: Parameters<typeof serializeCommit>[0]) =>
    store.putIfAbsent(commitKey(v), new TextEncoder().encode(serializeCommit(actions)));
  const t = await timed(async () => {
    await put(0, [info(), { protocol: protocolForSchema(SCHEMA) }, { metaData: newTableMetadata(SCHEMA) }]);
    for (let v = 1; v < commits; v++) {
      const stats = JSON.stringify({
        numRecords: 1000,
        minValues: { trip_id: v * 1000, VendorID: 1 },
        maxValues: { trip_id: v * 1000 + 999, VendorID: 2 },
        nullCount: { trip_id: 0, VendorID: 0 },
      });
      const add = {
        path: `part-${v}.parquet`,
        partitionValues: {},
        size: 4096,
        modificationTime: v,
        dataChange: true,
        stats,
      };
      await put(v, [info(), { add }]);
      if ((v + 1) % 100 === 0) await writeCheckpoint(store, await loadState(store, v));
    }
  });
  return t.ms;
}

async function child(dir: string, loads: number): Promise<void> {
  await withConnection((c) => c.run('SELECT 1')); // start DuckDB first: not part of loading a table
  const store = new LocalObjectStore(dir);
  const all: number[] = [];
  let files = 0;
  let cp: number | null = null;
  for (let i = 0; i < loads; i++) {
    const { ms, value } = await timed(() => loadState(store));
    all.push(ms);
    files = value.files.size;
    cp = value.checkpointVersion;
  }
  console.log(JSON.stringify({ cold: all[0], warm: median(all.slice(1)), files, cp: cp ?? -1, maxRssKb: maxRssKb() }));
}

async function main(): Promise<void> {
  const arg = (name: string, d: number) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
  const commits = arg('--commits', 10_000);
  const rounds = arg('--rounds', 7);
  rmSync(OUT, { recursive: true, force: true });
  const withCp = join(OUT, 'with-checkpoints');
  const buildMs = await build(withCp, commits);
  const noCp = join(OUT, 'json-only');
  cpSync(withCp, noCp, { recursive: true });
  for (const f of readdirSync(join(noCp, '_delta_log')))
    if (f.includes('checkpoint')) rmSync(join(noCp, '_delta_log', f));
  const runs = (dir: string, n: number, loads: number) =>
    Array.from({ length: n }, () => inChild(SELF, ['--child', dir, String(loads)]));
  const a = runs(withCp, rounds, 11);
  const b = runs(noCp, 3, 2);
  const r0 = a[0]?.result ?? {};
  console.log(
    `commits: ${commits}, ${r0.files} active files, checkpoint used: ${r0.cp} (log built in ${(buildMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    `with checkpoints, cold (fresh process, DuckDB started): median ${median(a.map((x) => x.result.cold as number)).toFixed(1)} ms over ${rounds} processes [${a.map((x) => (x.result.cold as number).toFixed(0)).join(', ')}]`,
  );
  console.log(
    `with checkpoints, warm (checkpoint already parsed):     median ${median(a.map((x) => x.result.warm as number)).toFixed(1)} ms (goal <= 50 ms)`,
  );
  console.log(
    `JSON-only replay of every commit:                       median ${median(b.map((x) => x.result.cold as number)).toFixed(1)} ms over 3 processes`,
  );
  console.log(
    `peak RSS: ${Math.max(...a.map((x) => x.peakRssMb))} MB with checkpoints, ${Math.max(...b.map((x) => x.peakRssMb))} MB JSON-only`,
  );
  rmSync(OUT, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv[3] as string, Number(process.argv[4]));
else await main();
