/**
 * `npm start`'s supervisor: from an empty folder it starts the embedded Postgres, applies the
 * migrations, issues the first token once, makes the dashboard's sign-in link anew at each start (kept 0600
 * for scripts; the link of the start before stops working), starts the API and a worker, queues the first
 * races and prints the URLs; SIGTERM stops every process it started, Postgres included (stop.test.ts stops it
 * through npm). The API and the worker run from compiled bundles. The dashboard is left out here (LAB_NO_WEB=1): its own tests build and drive it.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { applyMigrations, hashToken, startQueue } from '@racelab/api';
import { ensureDatabase, findFreePort, processAlive, startPostgresServer, withDatabase } from '@racelab/pg-server';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { gql } from '../../api/test/helpers/client';
import { printed, spawnTs } from '../../api/test/helpers/stack';

const STACK_DIR = resolve(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'racelab-stack-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const startSupervisor = (env: Record<string, string>) => spawnTs('src/index.ts', env, STACK_DIR);

/** The SQLSTATE `sql` fails with as `url`'s role ('connected' when it connects and succeeds). */
async function outcome(url: string, sql = 'SELECT 1'): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    await c.query(sql);
    return 'connected';
  } catch (e) {
    return String((e as { code?: string }).code);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** A URL of the embedded cluster in `dbDir`: port from postmaster.pid, password as given. */
function clusterUrl(dbDir: string, user: string, password: string, database: string): string {
  const port = Number(readFileSync(join(dbDir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[3]);
  return `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/** Role `role`'s URL to `database`, with the password from the cluster's 0600 file. */
function roleUrl(dbDir: string, role: string, database = role): string {
  const file = join(dbDir, `${role}.password`);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  return clusterUrl(dbDir, role, readFileSync(file, 'utf8').trim(), database);
}

/** A process's command line, argument by argument. */
const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone since the listing
      }
    })
    .map(Number);
}

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
    LAB_WORK_DIR: resolve(STACK_DIR, '../../var/lab'),
    LAB_FIRST_RACES: '0',
    LAB_DASHBOARD_LOGIN: join(dir, 'dashboard-login'),
    WEB_PORT: '3999',
    DATABASE_URL: '',
    LAB_API_TOKEN: '',
    // As a shell runs `npm start`: no NODE_ENV (vitest's own 'test' would otherwise be inherited).
    NODE_ENV: '',
  };
  const first = startSupervisor(env);
  await printed(first, /Ctrl-C stops everything/);
  const out = first.output.join('');
  expect(out).toMatch('migrations applied: 20261130000000_init');
  expect(out).toMatch(`API       http://127.0.0.1:${port}/graphql`);
  // The one scrape target it prints answers from this host without a token, with the product's figures.
  expect(out).toMatch(`metrics   http://127.0.0.1:${port}/metrics`);
  const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(scrape.status).toBe(200);
  expect(await scrape.text()).toMatch(/^racelab_races\{status="QUEUED"\} \d+$/m);
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
  // index.ts runs the supervisor, which runs the API and the worker: compiled JavaScript, plain node on a bundle,
  // no TypeScript loader.
  const supervisor = childrenOf(first.child.pid as number).find((pid) =>
    commandOf(pid).at(-1)?.endsWith('/supervisor.ts'),
  );
  expect(supervisor).toBeDefined();
  const started = childrenOf(supervisor as number).filter((pid) => commandOf(pid)[0] === process.execPath);
  expect(started).toHaveLength(2);
  expect(started).toContain(workers[0]);
  for (const pid of started) {
    expect(commandOf(pid)).toEqual([process.execPath, expect.stringMatching(/\/var\/build\/main-[0-9a-f]{12}\.mjs$/)]);
  }
  const postmaster = Number(readFileSync(join(dir, 'db', 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
  expect(processAlive(postmaster)).toBe(true);

  // The database: no fixed password, and the product's role is no superuser and reaches its database only.
  const db = join(dir, 'db');
  expect(await outcome(clusterUrl(db, 'postgres', 'racelab', 'postgres'))).toBe('28P01'); // invalid_password
  expect(await outcome(roleUrl(db, 'postgres'))).toBe('connected');
  const product = roleUrl(db, 'racelab');
  expect(await outcome(product, 'SELECT count(*) FROM "ApiToken"')).toBe('connected');
  expect(await outcome(product, 'SELECT 1 FROM pg_roles WHERE rolname = current_user AND NOT rolsuper')).toBe(
    'connected',
  );
  expect(await outcome(product, "COPY (SELECT 1) TO PROGRAM 'true'")).toBe('42501'); // insufficient_privilege
  expect(await outcome(roleUrl(db, 'racelab', 'racelab_lab'))).toBe('42501');
  expect(await outcome(roleUrl(db, 'racelab', 'postgres'))).toBe('42501');
  expect(await outcome(roleUrl(db, 'racelab_lab'))).toBe('connected');
  expect(await outcome(roleUrl(db, 'racelab_lab', 'racelab'))).toBe('42501');
  // No process of the stack holds the superuser's password; only the workers hold the lab's role.
  const superPassword = readFileSync(join(db, 'postgres.password'), 'utf8').trim();
  const labPassword = readFileSync(join(db, 'racelab_lab.password'), 'utf8').trim();
  const environ = readFileSync(`/proc/${workers[0]}/environ`, 'utf8');
  // `npm start` is production: in development yoga sent error internals (SQL, stacks, paths) to clients.
  expect(environ.split('\0')).toContain('NODE_ENV=production');
  expect(environ).not.toContain(superPassword);
  expect(environ).toContain(`LAB_POSTGRES_URL=postgresql://racelab_lab:${labPassword}@`);

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
  expect(again).toMatch('API token: run `npm run token -- create` for a new one');
  second.child.kill('SIGTERM');
  await second.exited;
  expect(second.child.exitCode).toBe(0);
});

/** The sign-in link `npm start` kept, checked for its mode, and what the API says to its secret. */
async function keptLink(file: string, apiPort: number): Promise<{ login: string; status: number }> {
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const link = new URL(readFileSync(file, 'utf8').trim());
  expect(`${link.origin}${link.pathname}`).toBe('http://127.0.0.1:3999/');
  const login = link.searchParams.get('login') as string;
  expect(login).toMatch(/^rl_login_[A-Za-z0-9_-]{43}$/);
  const res = await fetch(`http://127.0.0.1:${apiPort}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ link: login }),
  });
  return { login, status: res.status };
}

it('makes a new sign-in link at each start, readable by this user alone; the one before stops signing in', async () => {
  const port = await findFreePort();
  const file = join(dir, 'links', 'dashboard-login');
  const env = {
    LAB_DB_DIR: join(dir, 'db-links'),
    API_PORT: String(port),
    LAB_NO_WEB: '1',
    LAB_WORK_DIR: resolve(STACK_DIR, '../../var/lab'),
    LAB_FIRST_RACES: '0',
    LAB_DASHBOARD_LOGIN: file,
    WEB_PORT: '3999',
    DATABASE_URL: '',
    LAB_API_TOKEN: '',
  };
  const links: string[] = [];
  for (let start = 0; start < 2; start++) {
    const stack = startSupervisor(env);
    await printed(stack, /Ctrl-C stops everything/);
    const kept = await keptLink(file, port);
    expect(kept.status).toBe(201);
    links.push(kept.login);
    if (start === 1) {
      const old = await fetch(`http://127.0.0.1:${port}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ link: links[0] }),
      });
      expect(old.status).toBe(401);
    }
    stack.child.kill('SIGTERM');
    await stack.exited;
    expect(stack.child.exitCode).toBe(0);
  }
  expect(links[1]).not.toBe(links[0]);
});

it('upgrades the cluster of an older install: a fixed superuser password, everything owned by the superuser', async () => {
  // What the old code left: superuser postgres/racelab and no password file; the product's tables,
  // pg-boss's schema and a token, all made by the superuser.
  const db = join(dir, 'legacy');
  const server = await startPostgresServer({ dataDir: db });
  const oldUrl = withDatabase(server.url, 'racelab');
  await ensureDatabase(oldUrl, server.url);
  await applyMigrations(oldUrl);
  await (await startQueue(oldUrl, 'producer')).stop();
  const token = 'rl_token_of_the_older_install_0123456789';
  const c = new pg.Client({ connectionString: oldUrl });
  await c.connect();
  await c.query(`INSERT INTO "ApiToken" (id, label, hash) VALUES (gen_random_uuid(), 'admin', $1)`, [hashToken(token)]);
  await c.query("ALTER ROLE postgres PASSWORD 'racelab'");
  await c.end();
  await server.stop();
  rmSync(join(db, 'postgres.password'));

  const apiPort = await findFreePort();
  const stack = startSupervisor({
    LAB_DB_DIR: db,
    API_PORT: String(apiPort),
    LAB_NO_WEB: '1',
    LAB_WORK_DIR: resolve(STACK_DIR, '../../var/lab'),
    LAB_FIRST_RACES: '0',
    DATABASE_URL: '',
    LAB_API_TOKEN: '',
  });
  await printed(stack, /Ctrl-C stops everything/);
  expect(stack.output.join('')).toMatch(/worker \S+:\d+ waiting for races/);
  expect(await outcome(clusterUrl(db, 'postgres', 'racelab', 'postgres'))).toBe('28P01');
  // The old token still works: the product's new role reads the tables the superuser made.
  const r = await gql(`http://127.0.0.1:${apiPort}/graphql`, 'mutation { cancelRace(id: "none") { id } }', {}, token);
  expect(r.errors?.[0]?.message).toBe('race none not found');
  expect(await outcome(roleUrl(db, 'racelab'), 'SELECT count(*) FROM pgboss.job')).toBe('connected');
  stack.child.kill('SIGTERM');
  await stack.exited;
  expect(stack.child.exitCode).toBe(0);
});
