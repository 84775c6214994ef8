/**
 * `@racelab/engine/conflict` must run in a browser: bundled for the browser platform it resolves
 * without any `node:` module or DuckDB, and what it bundles works.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

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
