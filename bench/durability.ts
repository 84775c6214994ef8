/**
 * bench/durability: what the local store's fsyncs cost (docs/durability.md), beside the same operations
 * without them, in one process on one disk: version claims (staging file + link(), as a commit makes
 * them) and data files moved into a table (as putFile does after DuckDB wrote them). Variants alternate
 * round by round so neither gets a quieter machine.
 *
 *   npm run bench:durability [-- --claims N --files N --mb M --rounds R]
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalObjectStore } from '@racelab/engine';
import { answerHelp, median } from './lib';

await answerHelp({
  usage: ['npm run bench:durability [-- --claims N --files N --mb M --rounds R]'],
  about: "What the local store's fsyncs cost: version claims and data files moved into a table, with and without them.",
  options: {
    '--claims N': 'version claims per round (default 300)',
    '--files N': 'data files per round (default 20)',
    '--mb M': 'size of each data file in MB (default 16)',
    '--rounds R': 'rounds, variants alternating (default 3)',
  },
  examples: ['npm run bench:durability -- --claims 100 --files 5 --rounds 1'],
});

const OUT = fileURLToPath(new URL('./out/durability', import.meta.url));
const arg = (name: string, d: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d;
const CLAIMS = arg('--claims', 300);
const FILES = arg('--files', 20);
const MB = arg('--mb', 16);
const ROUNDS = arg('--rounds', 3);
const version = (v: number) => `${String(v).padStart(20, '0')}.json`;
const BODY = new TextEncoder().encode(`${JSON.stringify({ commitInfo: { operation: 'WRITE' } })}\n`);

/** N claims as a writer without a folder fsync would: staging file fsynced, link(), no fsync of the folder. */
function claimsFileSyncOnly(dir: string): void {
  for (let v = 0; v < CLAIMS; v++) {
    const staging = join(dir, `${version(v)}#s`);
    const fd = openSync(staging, 'wx');
    writeSync(fd, BODY);
    fsyncSync(fd);
    closeSync(fd);
    linkSync(staging, join(dir, version(v)));
    unlinkSync(staging);
  }
}

/** N claims with no fsync at all (object_store's LocalFileSystem, which delta-rs uses). */
function claimsNoSync(dir: string): void {
  for (let v = 0; v < CLAIMS; v++) {
    const staging = join(dir, `${version(v)}#s`);
    writeFileSync(staging, BODY, { flag: 'wx' });
    linkSync(staging, join(dir, version(v)));
    unlinkSync(staging);
  }
}

/** N claims through the engine's store: staging file fsynced, link(), `_delta_log` fsynced. */
async function claimsEngine(table: string): Promise<void> {
  const store = new LocalObjectStore(table);
  for (let v = 0; v < CLAIMS; v++) await store.putIfAbsent(`_delta_log/${version(v)}`, BODY);
}

/** Data files as DuckDB leaves them in staging (written, not synced), then moved into the table. */
function stageFiles(dir: string, data: Buffer): string[] {
  mkdirSync(join(dir, 'staging'), { recursive: true });
  return Array.from({ length: FILES }, (_, i) => {
    const p = join(dir, 'staging', `f${i}.parquet`);
    writeFileSync(p, data);
    return p;
  });
}

async function time(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  const data = randomBytes(MB * 1024 * 1024);
  const runs: Record<string, number[]> = {};
  const add = (k: string, ms: number) => {
    runs[k] = [...(runs[k] ?? []), ms];
  };
  for (let r = 0; r < ROUNDS; r++) {
    const claims: [string, (dir: string) => unknown][] = [
      ['claims: staging file + link(), no fsync', claimsNoSync],
      ['claims: fsync staging file, link() (before)', claimsFileSyncOnly],
      ['claims: engine putIfAbsent, + fsync _delta_log (after)', (d) => claimsEngine(dirname(d))],
    ];
    for (const [name, fn] of r % 2 ? claims.reverse() : claims) {
      const dir = join(OUT, `${r}-${name.length}`, '_delta_log');
      mkdirSync(dir, { recursive: true });
      add(name, await time(() => fn(dir)));
    }
    const moves: [string, (dir: string, files: string[]) => unknown][] = [
      [
        'data files: rename() (before)',
        (dir, files) => {
          for (const [i, f] of files.entries()) renameSync(f, join(dir, `part-${i}.parquet`));
        },
      ],
      [
        'data files: engine putFile, fsync file + folder (after)',
        async (dir, files) => {
          const store = new LocalObjectStore(dir);
          for (const [i, f] of files.entries()) await store.putFile(`part-${i}.parquet`, f);
        },
      ],
    ];
    for (const [name, fn] of r % 2 ? moves.reverse() : moves) {
      const dir = join(OUT, `${r}-m${name.length}`);
      const files = stageFiles(dir, data);
      add(name, await time(() => fn(dir, files)));
    }
  }
  console.log(`${CLAIMS} claims; ${FILES} data files of ${MB} MiB (written, not synced, then moved); ${ROUNDS} rounds`);
  for (const [name, ms] of Object.entries(runs)) {
    const per = name.startsWith('claims') ? CLAIMS : FILES;
    const m = median(ms);
    console.log(
      `${name}: median ${m.toFixed(0)} ms = ${(m / per).toFixed(2)} ms each [${ms.map((x) => x.toFixed(0)).join(', ')}]`,
    );
  }
  rmSync(OUT, { recursive: true, force: true });
}

await main();
