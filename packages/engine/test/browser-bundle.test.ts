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
});
