import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Races of real processes over DuckDB and Postgres on a 2-core machine; a hung test still fails.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Test files share the embedded Postgres port and the base-table cache: one at a time.
    fileParallelism: false,
  },
});
