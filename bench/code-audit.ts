/**
 * bench/code-audit: the code audit on 10,000 files of a typical repository (mostly Python, TypeScript,
 * Markdown and JSON that set nothing; a few hundred that set isolation levels, retries and Spark confs; a
 * node_modules folder it does not enter), against a raw walk that reads every file of the same tree, in the
 * same run. Goal: the audit within 10 s on this 2-core machine. Prints a table and the ratio.
 *
 *   npm run bench:code-audit [-- --files 10000 --matching 300 --rounds 3]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { opendir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerAndExit, auditCode } from '@racelab/lab';
import { median, timed } from './lib';

answerAndExit(process.argv.slice(2), {
  usage: ['npm run bench:code-audit [-- --files N --matching N --rounds R]'],
  about: 'The code audit on a generated repository of N files against a raw walk reading every file of the same tree.',
  options: {
    '--files N': 'files in the generated tree (default 10000)',
    '--matching N': 'files that set something the audit finds (default 300)',
    '--rounds R': 'rounds, medians reported (default 3)',
  },
  examples: ['npm run bench:code-audit -- --files 2000 --rounds 1'],
});

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const FILES = arg('files', 10_000);
const MATCHING = arg('matching', 300);
const ROUNDS = arg('rounds', 3);

/** Filler text of about `bytes`, code-like lines that mention nothing the audit looks for. */
const filler = (bytes: number, comment: string) =>
  Array.from(
    { length: Math.ceil(bytes / 48) },
    (_, i) => `${comment} line ${i}: value = compute(x, y) + offset\n`,
  ).join('');

const PLAIN: { ext: string; share: number; body: () => string }[] = [
  { ext: 'py', share: 0.35, body: () => `import os\n\n\ndef handler(event):\n    return event\n${filler(3000, '#')}` },
  { ext: 'ts', share: 0.25, body: () => `export const handler = (e: unknown) => e;\n${filler(3000, '//')}` },
  { ext: 'md', share: 0.15, body: () => `# Notes\n\n${filler(2000, '')}` },
  {
    ext: 'json',
    share: 0.1,
    body: () => JSON.stringify({ name: 'pkg', scripts: { build: 'tsc' }, deps: filler(800, '') }),
  },
  { ext: 'sql', share: 0.07, body: () => `SELECT vendor_id, SUM(fare) FROM trips GROUP BY 1;\n${filler(1500, '--')}` },
  { ext: 'yml', share: 0.05, body: () => `name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n` },
  { ext: 'sh', share: 0.03, body: () => `#!/bin/sh\nset -e\n${filler(800, '#')}` },
];

const MATCHERS: { ext: string; body: (i: number) => string }[] = [
  {
    ext: 'py',
    body: (i) =>
      `from deltalake import CommitProperties, write_deltalake\n\n${filler(2000, '#')}\nwrite_deltalake("s3://lake/t${i}", df, mode="append", configuration={"delta.isolationLevel": "WriteSerializable"}, commit_properties=CommitProperties(max_commit_retries=0))\n`,
  },
  {
    ext: 'sql',
    body: (i) =>
      `${filler(1500, '--')}\nCREATE TABLE lake.t${i} (id INT) USING DELTA TBLPROPERTIES ('delta.isolationLevel' = 'Serializable');\n`,
  },
  {
    ext: 'yml',
    body: () => `new_cluster:\n  spark_conf:\n    spark.databricks.delta.retentionDurationCheck.enabled: "false"\n`,
  },
];

function generate(root: string): number {
  let written = 0;
  const folder = (i: number) => {
    const dir = join(root, `pkg${i % 40}`, `mod${i % 7}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  for (let i = 0; i < MATCHING; i++) {
    const m = MATCHERS[i % MATCHERS.length] as (typeof MATCHERS)[number];
    writeFileSync(join(folder(i), `setting_${i}.${m.ext}`), m.body(i));
    written++;
  }
  let i = 0;
  for (const p of PLAIN) {
    const n = Math.round((FILES - MATCHING) * p.share);
    for (let k = 0; k < n && written < FILES; k++, i++, written++)
      writeFileSync(join(folder(i), `f${i}.${p.ext}`), p.body());
  }
  const deps = join(root, 'node_modules', 'dep');
  mkdirSync(deps, { recursive: true });
  for (let k = 0; k < 500; k++) writeFileSync(join(deps, `m${k}.json`), '{"spark.databricks.delta.x": 1}');
  return written;
}

/** What any scan pays at least: every file of the tree (node_modules left out too) listed and read. */
async function rawWalk(root: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const visit = async (dir: string): Promise<void> => {
    for await (const e of await opendir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') await visit(path);
      } else if (e.isFile()) {
        bytes += (await readFile(path)).length;
        files++;
      }
    }
  };
  await visit(root);
  return { files, bytes };
}

const root = mkdtempSync(join(tmpdir(), 'racelab-bench-code-'));
try {
  const written = generate(root);
  const audits: number[] = [];
  const raws: number[] = [];
  let last: Awaited<ReturnType<typeof auditCode>> | undefined;
  let raw = { files: 0, bytes: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const a = await timed(() => auditCode([root]));
    audits.push(a.ms);
    last = a.value;
    const w = await timed(() => rawWalk(root));
    raws.push(w.ms);
    raw = w.value;
  }
  const ms = (xs: number[]) => xs.map((x) => Math.round(x)).join(', ');
  console.log(
    `${written} files (${MATCHING} that set something) + 500 under node_modules/, ${(raw.bytes / 1e6).toFixed(1)} MB`,
  );
  console.log(
    `auditCode:           median ${Math.round(median(audits))} ms (runs ${ms(audits)}); read ${last?.files.scanned} files, ${last?.settings.length} settings, ${last?.findings.length} findings`,
  );
  console.log(`raw walk + readFile: median ${Math.round(median(raws))} ms (runs ${ms(raws)}); ${raw.files} files`);
  console.log(`ratio audit / raw:   ${(median(audits) / median(raws)).toFixed(2)}; goal: audit ≤ 10,000 ms`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
