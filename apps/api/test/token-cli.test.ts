/**
 * `npm run token -- create|list|revoke`: the CLI as real processes, against one real embedded Postgres
 * that runs as `npm start` leaves it (the CLI uses that server and leaves it running), with the API on
 * the same database to show that a created token is accepted and a revoked one refused.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findFreePort, type PostgresServer, processAlive, startPostgresServer } from '@racelab/pg-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens';
import { gql } from './helpers/client';
import { type Proc, printed, spawnTs, stopProc } from './helpers/stack';

const API_DIR = resolve(import.meta.dirname, '..');
const ROOT_VERSION: string = JSON.parse(readFileSync(resolve(API_DIR, '../../package.json'), 'utf8')).version;
const dir = mkdtempSync(join(tmpdir(), 'racelab-token-cli-'));
chmodSync(dir, 0o755);
const dbDir = join(dir, 'db');
let server: PostgresServer;
let api: Proc;
let apiUrl: string;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run token -- <args>`, as the root script runs it, on the cluster in `dbDir`. */
function token(args: string[], db = dbDir): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/token-cli.ts', ...args], {
    cwd: API_DIR,
    env: { ...process.env, LAB_DB_DIR: db, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

const mutate = (bearer: string) => gql(apiUrl, 'mutation { cancelRace(id: "none") { id } }', {}, bearer);

beforeAll(async () => {
  server = await startPostgresServer({ dataDir: dbDir });
  const port = await findFreePort();
  apiUrl = `http://127.0.0.1:${port}/graphql`;
  api = spawnTs('src/main.ts', {
    DATABASE_URL: await server.ownerUrl('racelab'),
    API_PORT: String(port),
    LAB_API_TOKEN: '',
    NODE_ENV: 'test',
  });
  await printed(api, /API on http/);
});

afterAll(async () => {
  if (api) await stopProc(api);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run token', () => {
  it('refuses bad usage with exit code 2 and the usage, and answers --help and --version, before opening any database', async () => {
    const nowhere = join(dir, 'never-created');
    const bad = [
      [],
      ['frobnicate'],
      ['create', '--label'],
      ['create', '--label', 'tab\there'],
      ['create', `--label=${'x'.repeat(65)}`],
      ['revoke'],
    ];
    for (const args of bad) {
      const r = await token(args, nowhere);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr).toMatch(/^token: .+\nusage: npm run token -- create/);
    }
    expect(existsSync(nowhere)).toBe(false);
    for (const asked of ['help', '--help', '-h']) {
      const help = await token([asked], nowhere);
      expect([asked, help.code, help.stderr]).toEqual([asked, 0, '']);
      expect(help.stdout).toMatch(/^usage: npm run token -- create \[--label LABEL\]\n/);
      expect(help.stdout).toMatch(/revoke ID\|LABEL/);
      expect(help.stdout).toMatch(/\nexamples?:\n {2}npm run token -- /);
    }
    const version = await token(['--version'], nowhere);
    expect([version.code, version.stdout]).toEqual([0, `${ROOT_VERSION}\n`]);
    expect(existsSync(nowhere)).toBe(false);
  });

  it('create prints a working token once; list shows it (never a hash); the server is left running', async () => {
    const created = await token(['create', '--label', 'ci runner']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^rl_[A-Za-z0-9_-]{43}\n$/);
    const secret = created.stdout.trim();
    const id = /^token (\S+) \(ci runner\): shown once/.exec(created.stderr)?.[1];
    expect(id).toBeDefined();
    expect((await mutate(secret)).errors?.[0]?.message).toBe('race none not found');

    const list = await token(['list']);
    expect(list.code).toBe(0);
    const row = list.stdout.split('\n').find((l) => l.startsWith(id as string));
    expect(row).toMatch(/\d{4}-\d\d-\d\dT\S+Z\s+\d{4}-\d\d-\d\dT\S+Z\s+ci runner$/); // created, last used
    expect(list.stdout).not.toContain(secret);
    expect(list.stdout).not.toContain(hashToken(secret));
    expect(processAlive(server.pid)).toBe(true);
  });

  it('revokes by label and by id: the API refuses those tokens; nothing to revoke exits 1', async () => {
    const laptop = await token(['create', '--label=laptop']);
    const phone = await token(['create', '--label', 'phone']);
    const phoneId = /^token (\S+) /.exec(phone.stderr)?.[1] as string;

    const byLabel = await token(['revoke', 'laptop']);
    expect(byLabel.code).toBe(0);
    expect(byLabel.stdout).toMatch(/\s+never\s+laptop$/m);
    const byId = await token(['revoke', phoneId]);
    expect(byId.code).toBe(0);
    expect(byId.stdout).toContain(phoneId);

    for (const revoked of [laptop.stdout.trim(), phone.stdout.trim()]) {
      const r = await mutate(revoked);
      expect(r.status).toBe(401);
      expect(r.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    const again = await token(['revoke', 'laptop']);
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toMatch(/no token has the id or label 'laptop'/);
    const list = await token(['list']);
    expect(list.stdout).not.toMatch(/laptop|phone/);
    expect(list.stdout).toMatch(/ci runner$/m);
  });
});
