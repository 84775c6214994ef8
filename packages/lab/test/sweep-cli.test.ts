/**
 * `npm run lab -- sweep`: input beyond the bounds is refused with every problem and exit 2, writing nothing; a small
 * sweep prints its table and writes a results file the contract's check takes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSweepResults } from '@racelab/contracts';
import { afterAll, expect, it } from 'vitest';

const LAB = fileURLToPath(new URL('../src/cli/lab.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'racelab-sweep-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function sweep(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', LAB, 'sweep', ...args, '--work-dir', work], {
    encoding: 'utf8',
    timeout: 170_000,
  });
}

it('refuses input beyond the bounds with every problem, exit 2, no file', () => {
  const json = join(work, 'refused.json');
  const r = sweep(['--writers', '0,2', '--commits', '99', '--op', 'foo', '--app-tries', '0', '--json', json]);
  expect(r.status).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([
    'lab sweep: refused:',
    '  - writers[0] must be a whole number from 1 to 64, got 0',
    '  - commitsPerWriter must be a whole number from 1 to 50, got 99',
    "  - operation must be one of append-row, append-day, update-disjoint, update-overlap, compaction, got 'foo'",
    '  - policy.appTries must be a whole number from 1 to 1000, got 0',
  ]);
  expect(existsSync(json)).toBe(false);
  expect(sweep(['--writers', '2']).stderr).toContain('sweep needs --op');
});

it('a small sweep prints a line per N and writes results the contract takes', () => {
  const json = join(work, 'sweep.json');
  const r = sweep([
    '--writers',
    '1,2',
    '--commits',
    '2',
    '--op',
    'append-row',
    '--max-commit-retries',
    '3',
    '--json',
    json,
  ]);
  expect(r.status, r.stderr).toBe(0);
  const results: unknown = JSON.parse(readFileSync(json, 'utf8'));
  const checked = checkSweepResults(results);
  expect(checked).toMatchObject({ ok: true });
  if (!checked.ok) return;
  // Numbers given beside a preset make a custom policy from the preset's other numbers.
  expect(checked.value.input.policy).toEqual({ name: 'custom', maxCommitRetries: 3, appTries: 1, backoff: null });
  const table = r.stdout.split('\n');
  const header = table.findIndex((l) => /^N\s+landed\/failed/.test(l.trim()));
  expect(header).toBeGreaterThanOrEqual(0);
  expect(table[header + 1]?.trim()).toMatch(/^1\s+2\/0\s+100\.0%/);
  expect(table[header + 2]?.trim()).toMatch(/^2\s+4\/0\s/);
});
