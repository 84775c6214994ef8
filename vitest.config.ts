/**
 * Every test of the repository, one vitest project per package. A package's `npm test` runs its own project only
 * (`vitest run --root ../.. --project lab`, writing var/test-reports/lab.json for scripts/test-all.sh to sum); the S3
 * suites are project `s3`, run by scripts/test-s3.sh once radosgw is up.
 *
 * Started inside a package's folder, vitest knows that package's project only, so `npx vitest run test/verdict.test.ts`
 * there runs that package's file, not every package's file of that name.
 */
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

type Settings = NonNullable<TestProjectInlineConfiguration['test']>;

interface Project extends TestProjectInlineConfiguration {
  test: Settings & { root: string };
}

/** Project `name` on the tests under `dir`'s test/ folder, in Node. */
function project(name: string, dir: string, settings: Settings): Project {
  return {
    test: {
      name,
      environment: 'node',
      include: ['test/**/*.test.ts'],
      ...settings,
      // Absolute, so the projects are the same whichever folder vitest was started from.
      root: fileURLToPath(new URL(dir, import.meta.url)),
    },
  };
}

/** graphql as the API resolves it. */
const graphql = createRequire(new URL('apps/api/package.json', import.meta.url)).resolve('graphql');

/**
 * Real servers and races of real processes on a 2-core machine: generous timeouts (a hung test still fails), and test
 * files one at a time (the lab's share the base-table cache; every file starts servers of its own).
 */
const REAL_PROCESSES: Settings = { testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false };

const packages: Project[] = [
  // DuckDB work and child processes; test files in parallel.
  project('engine', 'packages/engine', { testTimeout: 60_000, hookTimeout: 60_000 }),
  project('contracts', 'packages/contracts', { testTimeout: 60_000, hookTimeout: 60_000 }),
  project('pg-server', 'packages/pg-server', REAL_PROCESSES),
  project('lab', 'packages/lab', REAL_PROCESSES),
  // The API's own graphql for yoga, Pothos and the tests: two copies make instanceof checks fail.
  { resolve: { alias: { graphql } }, ...project('api', 'apps/api', REAL_PROCESSES) },
  // `npm start`'s launcher: the whole product from an empty folder.
  { resolve: { alias: { graphql } }, ...project('stack', 'apps/stack', REAL_PROCESSES) },
  // The end-to-end tests run the real API, worker, Postgres, Next server and Chromium: a longer start.
  project('web', 'apps/web', { ...REAL_PROCESSES, hookTimeout: 300_000 }),
];

// Needs a real S3 server (scripts/test-s3.sh): the engine's S3 store and the lab's cases on S3 tables.
const s3 = project('s3', '.', {
  include: ['packages/*/test-s3/**/*.test.ts', 'apps/*/test-s3/**/*.test.ts'],
  testTimeout: 300_000,
  hookTimeout: 600_000,
  fileParallelism: false,
});

const isInside = (dir: string, root: string) => !relative(root, dir).startsWith('..');
const current = packages.filter((p) => isInside(process.cwd(), p.test.root));

export default defineConfig({
  test: { projects: current.length > 0 ? current : [...packages, s3] },
});
