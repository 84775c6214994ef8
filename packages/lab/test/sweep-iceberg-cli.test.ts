/**
 * `npm run lab -- sweep --table-format iceberg`: an operation Iceberg cannot do is refused before any work, exit 2,
 * naming the ones it supports, and so is the Postgres catalog; no results file is written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const LAB = fileURLToPath(new URL('../src/cli/lab.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'racelab-sweep-iceberg-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sweep = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', LAB, 'sweep', ...args, '--work-dir', work], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, LAB_MAX_WORK_MINUTES: '' },
  });

it('refuses a non-append operation and the Postgres catalog on Iceberg, exit 2, no file', () => {
  const json = join(work, 'refused.json');
  const r = sweep(
    ['--table-format', 'iceberg', '--catalog', 'postgres', '--writers', '2', '--op', 'update-disjoint'].concat([
      '--json',
      json,
    ]),
  );
  expect(r.status).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([
    'lab sweep: refused:',
    '  - operation update-disjoint is not supported on Iceberg: Iceberg sweeps support append-row',
    '  - catalog postgres is not supported by sweeps yet: Iceberg sweeps commit through the SQLite catalog',
  ]);
  expect(existsSync(json)).toBe(false);
  const unknown = sweep(['--table-format', 'hudi', '--writers', '2', '--op', 'append-row']);
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain("tableFormat must be one of delta, iceberg, got 'hudi'");
});
