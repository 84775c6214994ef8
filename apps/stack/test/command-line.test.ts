/**
 * `npm start` on the command line: `--help` and `-h` print its usage on stdout, `--version` the root package.json's
 * version, both exit 0, and anything else is refused with exit 2; none of them starts anything (no database folder).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const STACK_DIR = resolve(import.meta.dirname, '..');
const VERSION: string = JSON.parse(readFileSync(resolve(STACK_DIR, '../../package.json'), 'utf8')).version;
const dir = mkdtempSync(join(tmpdir(), 'racelab-stack-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/index.ts', ...args], {
    cwd: STACK_DIR,
    encoding: 'utf8',
    env: { ...process.env, LAB_DB_DIR: join(dir, 'db'), DATABASE_URL: '' },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

it('answers --help, -h and --version on stdout, refuses other arguments, and starts nothing', () => {
  for (const flag of ['--help', '-h']) {
    const r = start([flag]);
    expect([flag, r.status, r.stderr]).toEqual([flag, 0, '']);
    expect(r.stdout).toMatch(/^usage: npm start\n/);
    expect(r.stdout).toMatch(/\noptions:\n(.*\n)* {2}-h, --help /);
    expect(r.stdout).toMatch(/\nexamples?:\n {2}npm start/);
  }
  expect(start(['--version'])).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
  const bad = start(['--port', '80']);
  expect(bad.status).toBe(2);
  expect(bad.stdout).toBe('');
  expect(bad.stderr).toBe("npm start: takes no arguments, got '--port'\nusage: npm start\n");
  expect(existsSync(join(dir, 'db'))).toBe(false);
});
