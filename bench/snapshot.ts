/**
 * bench/snapshot: a 10,000-commit table (one file added per commit, a checkpoint after every
 * 100th commit as delta-rs does) loads its latest snapshot; median of 30 loads, beside the same
 * log with every checkpoint removed (a JSON-only replay of all 10,000 commits).
 *
 *   npm run bench:snapshot [-- --commits N]
 */
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildCommitInfo,
  commit,
  field,
  LocalObjectStore,
  loadState,
  protocolForSchema,
  type StructType,
  schemaToString,
} from '@racelab/engine';
import { median, timed } from './lib';

const OUT = fileURLToPath(new URL('./out/snapshot', import.meta.url));
const SCHEMA: StructType = { type: 'struct', fields: [field('trip_id', 'long'), field('VendorID', 'integer')] };

async function build(dir: string, commits: number): Promise<number> {
  const store = new LocalObjectStore(dir);
  const info = () => ({ commitInfo: buildCommitInfo({ operation: 'WRITE', operationParameters: { mode: 'Append' } }) });
  const metaData = {
    id: '5eed0000-0000-4000-8000-000000000000',
    format: { provider: 'parquet', options: {} },
    schemaString: schemaToString(SCHEMA),
    partitionColumns: [],
    createdTime: 0,
    configuration: {},
  };
  const t = await timed(async () => {
    await commit({ store, readVersion: -1, actions: [info(), { protocol: protocolForSchema(SCHEMA) }, { metaData }] });
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
      await commit({ store, readVersion: v - 1, actions: [info(), { add }] });
    }
  });
  return t.ms;
}

async function loads(
  dir: string,
  n: number,
): Promise<{ median: number; all: number[]; files: number; cp: number | null }> {
  const store = new LocalObjectStore(dir);
  const all: number[] = [];
  let files = 0;
  let cp: number | null = null;
  for (let i = 0; i < n; i++) {
    const { ms, value } = await timed(() => loadState(store));
    all.push(ms);
    files = value.files.size;
    cp = value.checkpointVersion;
  }
  return { median: median(all.slice(1)), all, files, cp };
}

const commits = process.argv.includes('--commits')
  ? Number(process.argv[process.argv.indexOf('--commits') + 1])
  : 10_000;
rmSync(OUT, { recursive: true, force: true });
const withCp = join(OUT, 'with-checkpoints');
const buildMs = await build(withCp, commits);
const noCp = join(OUT, 'json-only');
cpSync(withCp, noCp, { recursive: true });
for (const f of readdirSync(join(noCp, '_delta_log'))) {
  if (f.includes('checkpoint')) rmSync(join(noCp, '_delta_log', f));
}
const a = await loads(withCp, 31);
const b = await loads(noCp, 6);
console.log(`commits: ${commits} (built through the engine's commit loop in ${(buildMs / 1000).toFixed(1)} s)`);
console.log(
  `with checkpoints: median ${a.median.toFixed(1)} ms over 30 loads (first load ${a.all[0]?.toFixed(1)} ms), checkpoint used ${a.cp}, ${a.files} active files (goal <= 50 ms)`,
);
console.log(
  `JSON-only replay: median ${b.median.toFixed(1)} ms over 5 loads (first ${b.all[0]?.toFixed(1)} ms), ${b.files} active files`,
);
rmSync(OUT, { recursive: true, force: true });
