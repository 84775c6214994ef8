/**
 * `@racelab/engine/conflict` must run in a browser: bundled for the browser platform it resolves
 * without any `node:` module or DuckDB, and what it bundles works. And the whole kernel (src/kernel) does no
 * I/O: every file of it bundles for the browser without a Node builtin or a package that reaches a disk, a
 * network or a process (DuckDB, the AWS SDK, better-sqlite3, pg).
 */
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const IO_PACKAGES = /^(@duckdb\/|@aws-sdk\/|better-sqlite3$|pg$|pg\/)/;
const BUILTINS = new Set(builtinModules);

/** Every import of a Node builtin or an I/O package, as "importer -> module", when `entries` are bundled. */
async function ioImports(entries: string[]): Promise<string[]> {
  const found: string[] = [];
  const spy: Plugin = {
    name: 'io-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0] as string;
        if (!args.path.startsWith('node:') && !BUILTINS.has(bare) && !IO_PACKAGES.test(args.path)) return undefined;
        found.push(`${args.importer.slice(SRC.length)} -> ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    entryPoints: entries,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    outdir: 'unused',
    logLevel: 'silent',
    plugins: [spy],
  });
  return found.sort();
}

const sourcesUnder = (dir: string): string[] =>
  readdirSync(join(SRC, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(SRC, dir, f));

it('bundles every file of the kernel for the browser with no Node builtin and no I/O package', async () => {
  const kernel = sourcesUnder('kernel');
  expect(kernel.length).toBeGreaterThan(40);
  expect(await ioImports(kernel)).toEqual([]);
});

it('finds the I/O of a file outside the kernel (the check above can fail)', async () => {
  expect(await ioImports([join(SRC, 'ops/parquet/duck.ts')])).toEqual(['ops/parquet/duck.ts -> @duckdb/node-api']);
  expect(await ioImports([join(SRC, 'ops/iceberg/avro.ts')])).toEqual([
    'ops/iceberg/avro.ts -> node:crypto',
    'ops/iceberg/avro.ts -> node:zlib',
  ]);
});

it('bundles engine/conflict for the browser with no node: import and no DuckDB', async () => {
  const entry = fileURLToPath(new URL('../src/conflict.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((i) => i.includes('duckdb'))).toBe(false);
  expect(inputs.some((i) => i.startsWith('node:'))).toBe(false);
  const code = result.outputFiles[0]?.text ?? '';
  expect(code).not.toMatch(/from\s+["']node:/);
  // Run the bundle as a browser would load a module, and use it.
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  expect(mod.effectiveIsolationLevel({ 'delta.isolationLevel': 'WriteSerializable' })).toBe('Serializable');
  expect(mod.CONFLICT_MESSAGES.ConcurrentAppend).toMatch(/a concurrent transactions added new data/);
  // The one conflict simulation runs there too: an append with retries off loses to another append.
  const facts = {
    snapshot: {
      version: 3,
      files: [],
      protocol: { minReaderVersion: 1, minWriterVersion: 2 },
      schema: { type: 'struct', fields: [] },
      partitionColumns: [],
      configuration: {},
    },
    matches: () => new Map(),
    appended: () => null,
  };
  const append = (name: string) => ({ name, change: { kind: 'append', rows: name }, maxCommitRetries: 0 });
  expect(mod.simulateConflict({ facts, first: append('a'), second: append('b') })).toMatchObject({
    secondCommits: false,
    message: 'Failed to commit transaction: 0',
    first: { committed: true, version: 4 },
  });
});
