/**
 * `npm run lab -- sweep`: input beyond the bounds is refused with every problem and exit 2, writing nothing, and so
 * is a sweep estimated past the work limit (LAB_MAX_WORK_MINUTES; --max-minutes goes beyond it); a small sweep prints
 * its estimate, its table, and writes a results file the contract's check takes. A scenario resolves to its fixed
 * setting and refuses other values for it; --policies runs one sweep per spelled policy and prints them side by side.
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

function sweep(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', LAB, 'sweep', ...args, '--work-dir', work], {
    encoding: 'utf8',
    timeout: 170_000,
    env: { ...process.env, LAB_MAX_WORK_MINUTES: '', ...env },
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

it('refuses a sweep estimated past the limit, exit 2, naming the estimate, the limit and the field', () => {
  const json = join(work, 'too-long.json');
  const backoff = sweep(
    [
      ...['--writers', '2', '--op', 'update-overlap', '--max-commit-retries', '0', '--app-tries', '1000'],
      ...['--backoff-base-ms', '600000', '--backoff-cap-ms', '600000', '--jitter', 'full', '--json', json],
    ],
    {},
  );
  expect(backoff.status).toBe(2);
  const [title, reason] = backoff.stderr.trim().split('\n');
  expect(title).toBe('lab sweep: refused:');
  expect(reason).toMatch(
    /^ {2}- the sweep would take about [\d.]+ (min|h|days), over the 30-minute limit \(LAB_MAX_WORK_MINUTES\); policy\.backoff\.capMs drives it: .*At your own terminal, --max-minutes M goes beyond it$/,
  );
  const rate = sweep(['--op', 'compaction', '--append-rate', '4.7e-7', '--json', json]);
  expect(rate.status).toBe(2);
  expect(rate.stderr).toMatch(
    /about \d+ days, over the 30-minute limit \(LAB_MAX_WORK_MINUTES\); appendRatePerSec drives it/,
  );
  // The environment's limit, when set, is the one a small sweep is held to.
  const small = sweep(['--writers', '1', '--commits', '1', '--op', 'append-row'], { LAB_MAX_WORK_MINUTES: '0.001' });
  expect(small.status).toBe(2);
  expect(small.stderr).toContain('over the 0.001-minute limit');
  expect(existsSync(json)).toBe(false);
});

it('a small sweep prints a line per N and writes results the contract takes', () => {
  const json = join(work, 'sweep.json');
  const r = sweep(
    [
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
      // Beyond the environment's limit, at one's own terminal.
      '--max-minutes',
      '5',
    ],
    { LAB_MAX_WORK_MINUTES: '0.001' },
  );
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.split('\n')[0]).toMatch(
    /^estimate: about \d+ s \(writers drives it: 3 writer processes started and checked over the points\); stopped at 5 min \(--max-minutes\)$/,
  );
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

it('a scenario fixes writers, commits and op: given otherwise they are refused, exit 2, naming what it fixes', () => {
  const r = sweep(['--scenario', 'delta-rs-3736', '--writers', '4', '--commits', '50', '--op', 'append-day']);
  expect(r.status).toBe(2);
  const fixes = 'scenario delta-rs-3736 fixes writers [10], commitsPerWriter 50, operation "append-row"';
  expect(r.stderr.trim().split('\n')).toEqual([
    'lab sweep: refused:',
    `  - ${fixes}: writers [4] conflicts with it (leave it out, or run without the scenario)`,
    `  - ${fixes}: operation "append-day" conflicts with it (leave it out, or run without the scenario)`,
  ]);
  // Resolved, the scenario is 10 writers x 50 commits under each policy: the estimate says so, before any work.
  const estimated = sweep(['--scenario', 'delta-rs-3736', '--policies', 'none,backoff-jitter'], {
    LAB_MAX_WORK_MINUTES: '0.001',
  });
  expect(estimated.status).toBe(2);
  expect(estimated.stderr).toContain('writers drives it: 10 writer processes');
  expect(sweep(['--scenario', 'delta-rs-3736', '--policies', 'none,fast']).stderr).toContain(
    "--policies: 'fast' is no policy; spell each as delta-rs, none, pyiceberg-like, spark-like, backoff-jitter",
  );
  expect(sweep(['--scenario', 'delta-rs-3736', '--policies', 'none', '--max-commit-retries', '3']).stderr).toContain(
    '--policies names every policy: leave out --max-commit-retries',
  );
});

it('--policies runs one sweep per policy and prints them side by side, the forecast beside each', () => {
  const json = join(work, 'policies.json');
  const r = sweep([
    ...['--writers', '2', '--commits', '2', '--op', 'append-row'],
    ...['--policies', 'none,delta-rs:3,backoff-jitter:2', '--json', json],
  ]);
  expect(r.status, r.stderr).toBe(0);
  const results = JSON.parse(readFileSync(json, 'utf8')) as unknown[];
  expect(results.map((x) => checkSweepResults(x).ok)).toEqual([true, true, true]);
  const policies = results.map(
    (x) => (checkSweepResults(x) as { value: { input: { policy: object } } }).value.input.policy,
  );
  expect(policies).toEqual([
    { name: 'none', maxCommitRetries: 0, appTries: 1, backoff: null },
    { name: 'custom', maxCommitRetries: 3, appTries: 1, backoff: null },
    { name: 'custom', maxCommitRetries: 0, appTries: 3, backoff: { baseMs: 50, capMs: 2000, jitter: 'full' } },
  ]);
  const lines = r.stdout.split('\n');
  const header = lines.findIndex((l) => l.startsWith('policy '));
  expect(lines[header]).toMatch(/^policy\s+N\s+dropped\s+success\/attempt\s+commits\/s\s+forecast dropped/);
  // Each row's dropped figure is its sweep's failed commits of those intended.
  results.forEach((x, i) => {
    const point = (x as { points: { commits: { failed: number } }[] }).points[0];
    expect(lines[header + 1 + i]).toMatch(
      new RegExp(`^${['none', 'delta-rs:3', 'backoff-jitter:2'][i]}\\s+2\\s+${point?.commits.failed} of 4\\s`),
    );
  });
});
