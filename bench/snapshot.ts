/**
 * bench/snapshot: a 10,000-commit table (one file added per commit, a classic checkpoint after every
 * 100th commit as delta-rs writes them) loads its latest snapshot. Each round runs in a fresh
 * process: its first load parses the checkpoint (cold), the next 10 reuse the parsed checkpoint
 * (warm). The rounds run twice: without the disk cache of parsed checkpoints (DuckDB started first,
 * outside the timing), and with it, written by one earlier process (DuckDB never started: the cached
 * path does not need it). Beside them, the same log with every checkpoint removed (a JSON-only
 * replay), and what decoding the cache entry costs in a fresh process as JSON and as V8 serialisation.
 *
 *   npm run bench:snapshot [-- --commits N --rounds R]
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
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
import { answerHelp, inChild, maxRssKb, median, timed } from './lib';

await answerHelp({
  usage: ['npm run bench:snapshot [-- --commits N --rounds R]'],
  about:
    'Loading the latest snapshot of an N-commit table, cold and warm, with and without the disk cache of parsed checkpoints.',
  options: {
    '--commits N': 'commits in the table (default 10000)',
    '--rounds R': 'rounds, each in a fresh process (default 7)',
  },
  examples: ['npm run bench:snapshot -- --commits 2000 --rounds 3'],
});

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

async function child(dir: string, loads: number, cacheDir: string | null): Promise<void> {
  // Without the cache, DuckDB reads the checkpoint: start it first, as it is not part of loading a table.
  if (!cacheDir) await withConnection((c) => c.run('SELECT 1'));
  const store = new LocalObjectStore(dir);
  const all: number[] = [];
  let files = 0;
  let cp: number | null = null;
  for (let i = 0; i < loads; i++) {
    const { ms, value } = await timed(() => loadState(store, undefined, { cacheDir }));
    all.push(ms);
    files = value.files.size;
    cp = value.checkpointVersion;
  }
  console.log(JSON.stringify({ cold: all[0], warm: median(all.slice(1)), files, cp: cp ?? -1, maxRssKb: maxRssKb() }));
}

/** Decodes one file in a fresh process: the cache entry's JSON body, or the same actions V8-serialised. */
function decode(file: string, as: 'json' | 'v8'): void {
  const bytes = readFileSync(file);
  const t0 = performance.now();
  const actions = (as === 'json' ? JSON.parse(bytes.toString('utf8')) : deserialize(bytes)) as unknown[];
  const t = performance.now() - t0;
  if (actions.length === 0) throw new Error('nothing decoded');
  console.log(JSON.stringify({ cold: t, bytes: bytes.length, maxRssKb: maxRssKb() }));
}

/** The cache entry's actions, written once as JSON and once V8-serialised, for the decode comparison. */
function decodeInputs(cacheDir: string): { json: string; v8: string } {
  const dir = join(cacheDir, 'checkpoints');
  const [name] = readdirSync(dir);
  const text = readFileSync(join(dir, name as string), 'utf8');
  // An entry: a format line, a checksum line, then the JSON body.
  const body = JSON.parse(text.slice(text.indexOf('\n', text.indexOf('\n') + 1) + 1)) as { actions: unknown[] };
  const out = { json: join(OUT, 'actions.json'), v8: join(OUT, 'actions.v8') };
  writeFileSync(out.json, JSON.stringify(body.actions));
  writeFileSync(out.v8, serialize(body.actions));
  return out;
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
  const cache = join(OUT, 'cache'); // beside the tables, never inside one
  const runs = (dir: string, n: number, loads: number, cacheDir = '-') =>
    Array.from({ length: n }, () => inChild(SELF, ['--child', dir, String(loads), cacheDir]));
  const a = runs(withCp, rounds, 11);
  const first = runs(withCp, 1, 1, cache)[0]?.result.cold as number; // parses, then writes the cache entry
  const c = runs(withCp, rounds, 11, cache);
  const b = runs(noCp, 3, 2);
  const inputs = decodeInputs(cache);
  const dec = (as: 'json' | 'v8') => Array.from({ length: 5 }, () => inChild(SELF, ['--decode', inputs[as], as]));
  const [dj, dv] = [dec('json'), dec('v8')];
  const r0 = c[0]?.result ?? {};
  const list = (xs: { result: Record<string, number> }[], k = 'cold') =>
    xs.map((x) => (x.result[k] as number).toFixed(0));
  const med = (xs: { result: Record<string, number> }[], k: string) => median(xs.map((x) => x.result[k] as number));
  console.log(
    `commits: ${commits}, ${r0.files} active files, checkpoint used: ${r0.cp} (log built in ${(buildMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    `no cache, cold (fresh process, DuckDB started):  median ${med(a, 'cold').toFixed(1)} ms over ${rounds} processes [${list(a)}]`,
  );
  console.log(
    `no cache, warm (checkpoint parsed in-process):  median ${med(a, 'warm').toFixed(1)} ms [${list(a, 'warm')}]`,
  );
  console.log(`first process with the cache (parses, writes):  ${first.toFixed(1)} ms`);
  console.log(
    `cache, cold (fresh process, no DuckDB):          median ${med(c, 'cold').toFixed(1)} ms over ${rounds} processes [${list(c)}] (goal <= 50 ms)`,
  );
  console.log(
    `cache, warm:                                     median ${med(c, 'warm').toFixed(1)} ms [${list(c, 'warm')}]`,
  );
  console.log(
    `JSON-only replay of every commit:                median ${med(b, 'cold').toFixed(1)} ms over 3 processes [${list(b)}]`,
  );
  console.log(
    `decode the entry's actions, fresh process: JSON.parse median ${med(dj, 'cold').toFixed(1)} ms [${list(dj)}] (${dj[0]?.result.bytes} B), v8.deserialize median ${med(dv, 'cold').toFixed(1)} ms [${list(dv)}] (${dv[0]?.result.bytes} B)`,
  );
  console.log(
    `peak RSS: ${Math.max(...a.map((x) => x.peakRssMb))} MB no cache, ${Math.max(...c.map((x) => x.peakRssMb))} MB cache, ${Math.max(...b.map((x) => x.peakRssMb))} MB JSON-only`,
  );
  rmSync(OUT, { recursive: true, force: true });
}

const [mode, arg1, arg2, arg3] = process.argv.slice(2);
if (mode === '--child') await child(arg1 as string, Number(arg2), arg3 === '-' ? null : (arg3 as string));
else if (mode === '--decode') decode(arg1 as string, arg2 as 'json' | 'v8');
else await main();
