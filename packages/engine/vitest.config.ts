import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // DuckDB work and child processes are slow on a 2-core machine; a hung test still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
