#!/usr/bin/env node
/**
 * `npm run setup:python`: installs the Python side (python/requirements.lock, every file hashed) into a virtual
 * environment outside the clone, keyed by the lock's hash, so a fresh clone on the same machine reuses it:
 * `${RACELAB_PYTHON_CACHE:-$HOME/.cache/racelab/python}/<first 16 hex of sha256(lock)>/`. The environment is
 * built in `<dir>.partial` and renamed when pip has succeeded, then a `ready` marker is written: a failed
 * install leaves no marker, and a present marker makes the command a no-op. Plain Node, no dependencies.
 * pip asks PyPI only (PIP_FIND_LINKS is dropped), so the files it installs are the ones whose hashes the lock holds.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = `usage: npm run setup:python

Installs the pinned Python side (python/requirements.lock) into a virtual environment under
\${RACELAB_PYTHON_CACHE:-~/.cache/racelab/python}/<lock hash>/. Idempotent: a finished environment is reused.

  --where        print the environment's folder (exit status 1 when it is not installed)
  -h, --help     this text
  --version      the version of racelab`;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = join(repo, 'python', 'requirements.lock');

class SetupError extends Error {}

/** The folder the environment of this lock lives in (the same rule as packages/lab/src/real/python-env.ts). */
function envDir(lock = readFileSync(lockFile), env = process.env) {
  const cache = env.RACELAB_PYTHON_CACHE || join(homedir(), '.cache', 'racelab', 'python');
  return join(cache, createHash('sha256').update(lock).digest('hex').slice(0, 16));
}

const say = (line) => console.log(`setup:python: ${line}`);

function run(what, cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (r.error?.code === 'ENOENT') throw new SetupError(`${what}: ${cmd} was not found`);
  if (r.error) throw new SetupError(`${what}: ${r.error.message}`);
  if (r.status !== 0) throw new SetupError(`${what} failed (exit status ${r.status ?? r.signal})`);
}

function checkPython() {
  const r = spawnSync('python3', ['-c', 'import sys, venv, ensurepip; print(sys.version.split()[0])'], {
    encoding: 'utf8',
  });
  if (r.error?.code === 'ENOENT')
    throw new SetupError(
      'python3 was not found: install Python 3.11 (Debian: apt-get install -y python3 python3-venv)',
    );
  if (r.status !== 0)
    throw new SetupError(
      'python3 has no venv module (or no ensurepip): install it with `apt-get install -y python3-venv`',
    );
  return r.stdout.trim();
}

function setup() {
  const dir = envDir();
  const marker = join(dir, 'ready');
  if (existsSync(marker)) {
    say(`ready at ${dir}`);
    return;
  }
  const started = Date.now();
  const version = checkPython();
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    say(`creating a virtual environment with Python ${version} in ${partial}`);
    run('python3 -m venv', 'python3', ['-m', 'venv', partial]);
    say('installing python/requirements.lock (every file hashed)');
    const { PIP_FIND_LINKS: _links, ...pipEnv } = process.env;
    run(
      'pip install --require-hashes -r python/requirements.lock',
      join(partial, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--require-hashes', '--only-binary', ':all:', '--no-deps', '-r', lockFile],
      { ...pipEnv, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
    );
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
  // The console scripts pip wrote (bin/pytest…) name the .partial folder and break with the rename; the
  // interpreter does not: everything runs as `<dir>/bin/python -m …`.
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  say(`ready at ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help')) {
  console.log(USAGE);
} else if (args.includes('--version')) {
  console.log(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version);
} else if (args[0] === '--where' && args.length === 1) {
  const dir = envDir();
  if (existsSync(join(dir, 'ready'))) console.log(dir);
  else {
    console.error(`setup:python: the Python side is not installed (${dir}): run npm run setup:python`);
    process.exitCode = 1;
  }
} else if (args.length > 0) {
  console.error(`setup:python: unknown argument ${args[0]}\n${USAGE}`);
  process.exitCode = 2;
} else {
  try {
    setup();
  } catch (e) {
    if (!(e instanceof SetupError)) throw e;
    console.error(`setup:python: ${e.message}`);
    process.exitCode = 1;
  }
}
