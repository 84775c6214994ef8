#!/usr/bin/env node
/**
 * `npm run setup:python`: installs the Python side (python/requirements.lock, every file hashed) and the Delta
 * jars the Spark host runs with (python/spark-jars.lock, each jar's sha256) into a folder outside the clone, keyed
 * by both files, so a fresh clone on the same machine reuses it:
 * `${RACELAB_PYTHON_CACHE:-$HOME/.cache/racelab/python}/<first 16 hex of sha256(requirements.lock + spark-jars.lock)>/`.
 * Everything is built in `<dir>.partial` and renamed when it has all succeeded, then a `ready` marker is written: a
 * failed install (a jar whose hash differs, a pip failure) leaves no marker, and a present marker makes the command
 * a no-op. Two runs at once do not both build: the first holds `<dir>.lock` (a folder made exclusively, with its
 * pid), the second waits for it to go and then finds the environment ready; a lock whose pid is gone is taken over.
 * pip asks PyPI only (PIP_FIND_LINKS is dropped), so the files it installs are the ones whose hashes the lock holds.
 * Jars come from Maven Central over https (RACELAB_MAVEN_REPO names another repository, for tests). Plain Node, no
 * dependencies.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = `usage: npm run setup:python

Installs the pinned Python side (python/requirements.lock) into a virtual environment, and the Delta jars of
python/spark-jars.lock into its spark-jars/ folder, under
\${RACELAB_PYTHON_CACHE:-~/.cache/racelab/python}/<hash of both locks>/. Idempotent: a finished environment is
reused; a second run while one is building waits for it.

  --where        print the environment's folder (exit status 1 when it is not installed)
  -h, --help     this text
  --version      the version of racelab`;

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = join(repo, 'python', 'requirements.lock');
const jarsFile = join(repo, 'python', 'spark-jars.lock');
/** Not a turbo task's input: setup:python runs outside turbo. */
const { RACELAB_MAVEN_REPO } = process.env;
const MAVEN = RACELAB_MAVEN_REPO || 'https://repo1.maven.org/maven2';
/** The packages pip builds pyspark's source distribution with, installed from the lock before the rest. */
const BUILD_TOOLS = ['setuptools'];
/** The only source distribution installed (PyPI has no wheel of it); everything else is a wheel. */
const SDIST_ONLY = 'pyspark';

class SetupError extends Error {}

/**
 * The folder the environment of these locks lives in (the same rule as packages/lab/src/real/python-env.ts): the
 * hash of requirements.lock followed by spark-jars.lock, so a change of either gets a new folder.
 */
function envDir(env = process.env) {
  const cache = env.RACELAB_PYTHON_CACHE || join(homedir(), '.cache', 'racelab', 'python');
  const hash = createHash('sha256').update(readFileSync(lockFile));
  if (existsSync(jarsFile)) hash.update(readFileSync(jarsFile));
  return join(cache, hash.digest('hex').slice(0, 16));
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

/** The jars of spark-jars.lock: `<group>:<artifact>:<version> <sha256>` a line, `#` comments. */
function jarList() {
  return readFileSync(jarsFile, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [coords, sha256, ...rest] = line.split(/\s+/);
      const parts = coords.split(':');
      if (parts.length !== 3 || !/^[0-9a-f]{64}$/.test(sha256 ?? '') || rest.length > 0)
        throw new SetupError(`python/spark-jars.lock: not "<group>:<artifact>:<version> <sha256>": ${line}`);
      const [group, artifact, version] = parts;
      const file = `${artifact}-${version}.jar`;
      return { coords, sha256, file, url: `${MAVEN}/${group.replaceAll('.', '/')}/${artifact}/${version}/${file}` };
    });
}

/** Downloads every jar into `folder`, refusing one whose sha256 is not the lock's. */
async function fetchJars(folder) {
  mkdirSync(folder, { recursive: true });
  for (const jar of jarList()) {
    let body;
    try {
      const response = await fetch(jar.url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = Buffer.from(await response.arrayBuffer());
    } catch (e) {
      throw new SetupError(`downloading ${jar.coords} from ${jar.url} failed: ${e.message}`);
    }
    const got = createHash('sha256').update(body).digest('hex');
    if (got !== jar.sha256)
      throw new SetupError(
        `${jar.coords} from ${jar.url} has sha256 ${got}, but python/spark-jars.lock pins ${jar.sha256}: refused, nothing installed`,
      );
    writeFileSync(join(folder, jar.file), body);
  }
}

/** The lock's entries (name==version and its hash lines) for `names`, as a requirements file's text. */
function lockEntries(names) {
  const blocks = readFileSync(lockFile, 'utf8').split(/\n(?=\S)/);
  return blocks
    .filter((block) => names.includes(block.split('==')[0]))
    .map((block) => block.replace(/\n\s*#.*$/gm, ''))
    .join('\n');
}

function pip(partial, what, args) {
  const { PIP_FIND_LINKS: _links, ...pipEnv } = process.env;
  run(
    what,
    join(partial, 'bin', 'python'),
    ['-m', 'pip', 'install', '--quiet', '--require-hashes', '--no-deps', ...args],
    {
      ...pipEnv,
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
    },
  );
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Holds `<dir>.lock` (made exclusively, with this pid) until `release` is called; waits while a live run holds it. */
function acquire(dir) {
  const lock = `${dir}.lock`;
  let waited = false;
  for (;;) {
    try {
      mkdirSync(lock, { recursive: false });
      writeFileSync(join(lock, 'pid'), `${process.pid}\n`);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      // The holder has made the folder and not yet written its pid, or has just released it.
    }
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) {
      say(`taking over ${lock}: its setup (pid ${pid}) is gone`);
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!waited) say(`another setup:python is building ${dir}; waiting for it`);
    waited = true;
    pause(500);
  }
}

async function setup() {
  const dir = envDir();
  const marker = join(dir, 'ready');
  if (existsSync(marker)) {
    say(`ready at ${dir}`);
    return;
  }
  mkdirSync(dirname(dir), { recursive: true });
  const release = acquire(dir);
  try {
    if (existsSync(marker)) {
      say(`ready at ${dir} (built by the setup this one waited for)`);
      return;
    }
    await build(dir, marker);
  } finally {
    release();
  }
}

async function build(dir, marker) {
  const started = Date.now();
  const version = checkPython();
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    say(`downloading the Delta jars of python/spark-jars.lock into ${partial}/spark-jars (each sha256 checked)`);
    await fetchJars(join(partial, 'spark-jars'));
    say(`creating a virtual environment with Python ${version} in ${partial}`);
    run('python3 -m venv', 'python3', ['-m', 'venv', partial]);
    const tools = join(partial, 'build-tools.txt');
    writeFileSync(tools, lockEntries(BUILD_TOOLS));
    pip(partial, `pip install --require-hashes ${BUILD_TOOLS.join(' ')}`, ['--only-binary', ':all:', '-r', tools]);
    rmSync(tools);
    say(`installing python/requirements.lock (every file hashed; ${SDIST_ONLY} is built from its source distribution)`);
    pip(partial, 'pip install --require-hashes -r python/requirements.lock', [
      '--only-binary',
      ':all:',
      '--no-binary',
      SDIST_ONLY,
      '--no-build-isolation',
      '-r',
      lockFile,
    ]);
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
  setup().catch((e) => {
    if (!(e instanceof SetupError)) throw e;
    console.error(`setup:python: ${e.message}`);
    process.exitCode = 1;
  });
}
