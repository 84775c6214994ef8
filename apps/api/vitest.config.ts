import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // One copy of graphql for yoga, Pothos and the tests (two copies make instanceof checks fail).
  resolve: { alias: { graphql: require.resolve('graphql') } },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    // Real Postgres, API and worker processes, and races of writer processes, on 2 cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
