/**
 * `npm start`'s supervisor: from an empty folder it starts the embedded Postgres, applies the
 * migrations, issues the first token once, starts the API and a worker, queues the first races and
 * prints the URLs; SIGTERM stops every process it started, Postgres included. The dashboard is left
 * out here (LAB_NO_WEB=1): its own tests build and drive it.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findFreePort, processAlive } from '@racelab/lab';
import { afterAll, expect, it } from 'vitest';
import { gql } from './helpers/client';
import { printed, spawnTs } from './helpers/stack';

const API_DIR = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'racelab-stack-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startSupervisor = (env: Record<string, string>) => spawnTs('src/stack.ts', env);

/** PIDs of the workers, as they print them when ready. */
function pidsOf(text: string): number[] {
  return [...text.matchAll(/worker \S+:(\d+) waiting/g)].map((m) => Number(m[1]));
}

it('brings the product up from nothing, prints where it is, and stops every process on SIGTERM', async () => {
  const port = await findFreePort();
  const env = {
    LAB_DB_DIR: join(dir, 'db'),
    API_PORT: String(port),
    LAB_NO_WEB: '1',
    LAB_WORK_DIR: resolve(API_DIR, '../../var/lab'),
    LAB_FIRST_RACES: '0',
    DATABASE_URL: '',
    LAB_API_TOKEN: '',
  };
  const first = startSupervisor(env);
  await printed(first, /Ctrl-C stops everything/);
  const out = first.output.join('');
  expect(out).toMatch('migrations applied: 20261130000000_init');
  expect(out).toMatch(`API       http://127.0.0.1:${port}/graphql`);
  const token = /API token \(shown once[^\n]*\n\s+(rl_\S+)/.exec(out)?.[1];
  expect(token).toBeDefined();
  // The printed token works for a mutation; reads are open on loopback.
  const ok = await gql(
    `http://127.0.0.1:${port}/graphql`,
    'mutation { cancelRace(id: "no-such-race") { id } }',
    {},
    token,
  );
  expect(ok.errors?.[0]?.message).toBe('race no-such-race not found');
  const workers = pidsOf(out);
  expect(workers).toHaveLength(1);
  const postmaster = Number(readFileSync(join(dir, 'db', 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
  expect(processAlive(postmaster)).toBe(true);

  first.child.kill('SIGTERM');
  await first.exited;
  expect(first.child.exitCode).toBe(0);
  expect([...workers, postmaster].filter(processAlive)).toEqual([]);
  const health = await fetch(`http://127.0.0.1:${port}/health`).then(
    () => 'answered',
    () => 'refused',
  );
  expect(health).toBe('refused');

  // A second start reuses the cluster: no migration to apply, and the token is not shown again.
  const second = startSupervisor(env);
  await printed(second, /Ctrl-C stops everything/);
  const again = second.output.join('');
  expect(again).not.toMatch('migrations applied');
  expect(again).not.toMatch('API token (shown once');
  second.child.kill('SIGTERM');
  await second.exited;
  expect(second.child.exitCode).toBe(0);
});
