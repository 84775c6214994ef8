/**
 * The tests that need a real S3 server, run by `npm run test:s3` once radosgw is up (see
 * scripts/test-s3.sh): the engine's S3 store and the lab's cases on S3 tables.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['packages/*/test-s3/**/*.test.ts', 'apps/*/test-s3/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    reporters: ['default', 'json'],
    outputFile: { json: 'var/test-reports/s3.json' },
  },
});
