/**
 * bench/history: the history audit (`tableHistory`) on a 10,000-commit log, against a raw read of the same commit
 * files (every file read in parallel and every line JSON-parsed), in the same run. The log is written here as
 * commit files, as 8 writers would leave it: one-row appends as delta-rs writes them (timing, no readVersion),
 * and every 10th commit an UPDATE recording readVersion a few versions back. Goal: ≤ 10 s locally. Prints a table,
 * the ratio and the summary's figures.
 *
 *   npm run bench:history [-- --commits 10000 --rounds 3 --checkpoint]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeltaTable, type ObjectStore, S3ObjectStore, writeCheckpoint } from '@racelab/engine';
import { answerAndExit, tableHistory } from '@racelab/lab';
import { median, timed } from './lib';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:history [-- --commits N --rounds R --checkpoint]'],
  about: 'The history audit on an N-commit log against a raw read of the same commit files, in the same run.',
  options: {
    '--commits N': 'commits in the log (default 10000)',
    '--rounds R': 'rounds, medians reported (default 3)',
    '--checkpoint': 'write checkpoints into the log as delta-rs does',
  },
  examples: ['npm run bench:history -- --commits 2000 --rounds 1'],
});

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const COMMITS = arg('commits', 10_000);
const ROUNDS = arg('rounds', 3);
const CHECKPOINT = process.argv.includes('--checkpoint');
const WRITERS = 8;
const T0 = Date.UTC(2026, 11, 1);

const SCHEMA = JSON.stringify({
  type: 'struct',
  fields: [
    { name: 'writer', type: 'integer', nullable: true, metadata: {} },
    { name: 'value', type: 'long', nullable: true, metadata: {} },
  ],
});

function commitLines(v: number): string {
  const writer = v % WRITERS;
  const timestamp = T0 + v * 400;
  const update = v % 10 === 0 && v > 0;
  const info = update
    ? {
        timestamp,
        operation: 'UPDATE',
        operationParameters: { predicate: `writer = ${writer}` },
        readVersion: Math.max(v - 1 - (v % 3), 0),
        engineInfo: 'delta-rs:py-1.6.3',
        operationMetrics: { execution_time_ms: 900, num_added_files: 1, num_removed_files: 1 },
      }
    : {
        timestamp,
        operation: 'WRITE',
        operationParameters: { mode: 'Append' },
        engineInfo: 'delta-rs:py-1.6.3',
        operationMetrics: { execution_time_ms: 300 + (v % 7) * 100, num_added_files: 1, num_added_rows: 1 },
      };
  const add = {
    add: {
      path: `part-${v}.parquet`,
      partitionValues: {},
      size: 700,
      modificationTime: timestamp,
      dataChange: true,
      stats: JSON.stringify({ numRecords: 1, minValues: { value: v }, maxValues: { value: v }, nullCount: {} }),
    },
  };
  const lines: object[] = [{ commitInfo: info }];
  if (v === 0) {
    lines.push({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } });
    lines.push({
      metaData: {
        id: '5ee1c0de-0000-4000-8000-000000000000',
        format: { provider: 'parquet', options: {} },
        schemaString: SCHEMA,
        partitionColumns: [],
        configuration: { 'delta.isolationLevel': 'WriteSerializable' },
        createdTime: T0,
      },
    });
  }
  if (update) lines.push({ remove: { path: `part-${v - 1}.parquet`, dataChange: true, deletionTimestamp: timestamp } });
  lines.push(add, { txn: { appId: `writer-${writer}`, version: v } });
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

const commitName = (v: number) => `_delta_log/${String(v).padStart(20, '0')}.json`;

function generate(root: string): string {
  const table = join(root, 'history-table');
  mkdirSync(join(table, '_delta_log'), { recursive: true });
  for (let v = 0; v < COMMITS; v++) writeFileSync(join(table, commitName(v)), commitLines(v));
  return table;
}

/** `work` run over 0..n-1, 64 at a time: S3 requests in flight together, as the history's reading keeps them. */
async function parallel(n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await work(next++);
  };
  await Promise.all(Array.from({ length: 64 }, worker));
}

async function generateS3(store: ObjectStore): Promise<void> {
  await parallel(COMMITS, (v) => store.put(commitName(v), new TextEncoder().encode(commitLines(v))));
}

/** A checkpoint at the latest version, when asked for: what the table's writers would have left. */
async function checkpointed(location: string | ObjectStore): Promise<void> {
  if (!CHECKPOINT) return;
  const table = await DeltaTable.open(location);
  await writeCheckpoint(table.store, table.state);
}

async function rawReadS3(store: ObjectStore): Promise<number> {
  let lines = 0;
  await parallel(COMMITS, async (v) => {
    const text = new TextDecoder().decode(await store.get(commitName(v)));
    for (const line of text.split('\n')) if (line.trim() !== '') lines += JSON.parse(line) ? 1 : 0;
  });
  return lines;
}

/** Every commit file read, 64 at a time, and each line parsed: what any reader of the log must do at least. */
async function rawRead(table: string): Promise<number> {
  const log = join(table, '_delta_log');
  const names = (await readdir(log)).filter((n) => n.endsWith('.json'));
  let next = 0;
  let lines = 0;
  const worker = async () => {
    while (next < names.length) {
      const text = await readFile(join(log, names[next++] as string), 'utf8');
      for (const line of text.split('\n')) if (line.trim() !== '') lines += JSON.parse(line) ? 1 : 0;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  return lines;
}

const fmt = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');

/** Alternates the raw read and the audit ROUNDS times; prints the table and the summary. */
async function measure(label: string, location: string, raw: () => Promise<number>, buckets: string[], root: string) {
  const audit: number[] = [];
  const rawMs: number[] = [];
  let summary: unknown = null;
  for (let r = 0; r < ROUNDS; r++) {
    rawMs.push((await timed(raw)).ms);
    const t = await timed(() => tableHistory(location, { locations: { roots: [root], workDir: root, buckets } }));
    audit.push(t.ms);
    summary = t.value.summary;
  }
  console.log(`\n${label}\n| variant | median of ${ROUNDS} | runs (ms) |`);
  console.log('| --- | ---: | --- |');
  console.log(`| tableHistory (${COMMITS} commits) | ${Math.round(median(audit))} ms | ${fmt(audit)} |`);
  console.log(`| raw: read and parse every commit file | ${Math.round(median(rawMs))} ms | ${fmt(rawMs)} |`);
  console.log(`| ratio | ${(median(audit) / median(rawMs)).toFixed(2)} | |`);
  console.log(`summary: ${JSON.stringify(summary)}`);
}

const root = mkdtempSync(join(tmpdir(), 'racelab-bench-history-'));
try {
  const table = generate(root);
  await checkpointed(table);
  console.log(CHECKPOINT ? 'with a checkpoint at the last version' : 'no checkpoint');
  await measure('local disk', table, () => rawRead(table), [], root);
  const bucket = process.env.LAB_S3_BUCKET;
  if (bucket && process.env.AWS_ENDPOINT_URL) {
    const location = `s3://${bucket}/bench-history-${process.pid}-${Date.now()}`;
    const store = new S3ObjectStore(location);
    const written = await timed(async () => {
      await generateS3(store);
      await checkpointed(store);
    });
    console.log(`\nwrote ${COMMITS} commit files to ${process.env.AWS_ENDPOINT_URL} in ${Math.round(written.ms)} ms`);
    await measure(`radosgw ${process.env.AWS_ENDPOINT_URL}`, location, () => rawReadS3(store), [bucket], root);
  }
  console.log(`peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
