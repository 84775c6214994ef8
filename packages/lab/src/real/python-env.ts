/**
 * The Python side that runs the real libraries: the virtual environment `npm run setup:python` makes, found by the
 * same rule it is made by (`${RACELAB_PYTHON_CACHE:-~/.cache/racelab/python}/<first 16 hex of sha256(requirements.lock
 * followed by spark-jars.lock)>/`, complete once its `ready` marker is there), and the versions of the libraries installed in it. RACELAB_PYTHON names
 * an interpreter to use instead (a venv made by hand, for tests and manual runs); its libraries are checked the same
 * way. Anything missing, or a library at another version than the lab's pin, is refused with what is missing and the
 * command that adds it.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../build/repo-root';

/** The command that installs the Python side. */
export const SETUP_COMMAND = 'npm run setup:python';

/**
 * The real libraries the lab runs, by the engine's names for them, with their Python package, pinned version, and the
 * table format whose cases they run (and run by default).
 */
export const REAL_LIBRARIES = {
  'delta-rs': { package: 'deltalake', version: '1.6.6', format: 'delta' },
  pyiceberg: { package: 'pyiceberg', version: '0.12.0', format: 'iceberg' },
  'delta-spark': { package: 'delta-spark', version: '4.4.0', format: 'delta' },
} as const;

/** What a library needs besides its own package: Delta Spark runs on pyspark, as Delta documents the pair. */
const COMPANIONS: Partial<Record<RealLibrary, { package: string; version: string }[]>> = {
  'delta-spark': [{ package: 'pyspark', version: '4.2.0' }],
};

export type RealLibrary = keyof typeof REAL_LIBRARIES;

export class PythonSideMissingError extends Error {
  override name = 'PythonSideMissingError';
}

export interface PythonEnv {
  /** The interpreter to run writers with. */
  python: string;
  /** The virtual environment's folder (the interpreter's, with RACELAB_PYTHON). */
  dir: string;
  /** python and every package of REAL_LIBRARIES (plus pyarrow) that is installed, by name. */
  versions: Record<string, string>;
}

interface Where {
  repo?: string;
  env?: NodeJS.ProcessEnv;
}

const LOCK_FILE = 'python/requirements.lock';
/** The Spark host's jars with their hashes: part of the environment's key when the clone has it. */
const JARS_FILE = 'python/spark-jars.lock';

/** The cache folder, and how messages show it (the setting's name or ~, never the home folder's path). */
function cacheRoot(env: NodeJS.ProcessEnv): { path: string; shown: string } {
  const set = env.RACELAB_PYTHON_CACHE;
  return set
    ? { path: set, shown: '$RACELAB_PYTHON_CACHE' }
    : { path: join(homedir(), '.cache/racelab/python'), shown: '~/.cache/racelab/python' };
}

/** The venv folder for the lock file's current text, and its name as messages show it. */
export function pythonEnvDir({ repo = REPO_ROOT, env = process.env }: Where = {}): { path: string; shown: string } {
  const lock = join(repo, LOCK_FILE);
  if (!existsSync(lock)) {
    throw new PythonSideMissingError(
      `the Python side is not in this clone: ${LOCK_FILE} is missing (it pins the real libraries, then ${SETUP_COMMAND} installs them)`,
    );
  }
  const hash = createHash('sha256').update(readFileSync(lock));
  const jars = join(repo, JARS_FILE);
  if (existsSync(jars)) hash.update(readFileSync(jars));
  const key = hash.digest('hex').slice(0, 16);
  const root = cacheRoot(env);
  return { path: join(root.path, key), shown: `${root.shown}/${key}` };
}

/** The interpreter: RACELAB_PYTHON's, or the installed venv's. */
function interpreter(where: Where): { python: string; dir: string } {
  const env = where.env ?? process.env;
  const given = env.RACELAB_PYTHON;
  if (given) {
    if (!existsSync(given))
      throw new PythonSideMissingError(`RACELAB_PYTHON names ${given}, which does not exist; unset it or fix it`);
    return { python: given, dir: join(given, '../..') };
  }
  const dir = pythonEnvDir(where);
  if (!existsSync(join(dir.path, 'ready'))) {
    throw new PythonSideMissingError(
      `the Python side is not installed: no finished virtual environment at ${dir.shown} (its ready marker is missing); install it with ${SETUP_COMMAND}`,
    );
  }
  return { python: join(dir.path, 'bin/python'), dir: dir.path };
}

/** Reads the versions without importing the libraries (a second, not a tenth, for pyarrow). */
const VERSIONS_SCRIPT = `
import json, sys
from importlib import metadata
out = {"python": sys.version.split()[0]}
for name in sys.argv[1:]:
    try:
        out[name] = metadata.version(name)
    except metadata.PackageNotFoundError:
        pass
print(json.dumps(out))
`;

const known = new Map<string, Promise<Record<string, string>>>();

/** The interpreter's versions of python and the real libraries' packages: asked once per interpreter and process. */
function installedVersions(python: string): Promise<Record<string, string>> {
  let versions = known.get(python);
  if (!versions) {
    const companions = Object.values(COMPANIONS).flatMap((c) => c.map((p) => p.package));
    const packages = [...Object.values(REAL_LIBRARIES).map((l) => l.package), ...companions, 'pyarrow'];
    versions = promisify(execFile)(python, ['-c', VERSIONS_SCRIPT, ...packages], { timeout: 30_000 }).then(
      ({ stdout }) => JSON.parse(stdout) as Record<string, string>,
      (e: Error) => {
        known.delete(python);
        throw new PythonSideMissingError(
          `the Python side's interpreter does not run (${e.message.split('\n')[0]}); reinstall it with ${SETUP_COMMAND}`,
        );
      },
    );
    known.set(python, versions);
  }
  return versions;
}

/**
 * The Python side for `library`: its interpreter and versions, once the venv, the writer program and the pinned
 * library are all there; else PythonSideMissingError naming what is missing.
 */
export async function pythonEnv(library: RealLibrary, where: Where = {}): Promise<PythonEnv> {
  const repo = where.repo ?? REPO_ROOT;
  const { python, dir } = interpreter({ ...where, repo });
  if (!existsSync(join(repo, 'python/racelab_writer/__main__.py'))) {
    throw new PythonSideMissingError(
      'the Python side is not in this clone: python/racelab_writer (the real writer program) is missing',
    );
  }
  const versions = await installedVersions(python);
  for (const { package: pkg, version } of [REAL_LIBRARIES[library], ...(COMPANIONS[library] ?? [])]) {
    const installed = versions[pkg];
    if (installed === undefined) {
      throw new PythonSideMissingError(`${pkg} is not installed in the Python side; install it with ${SETUP_COMMAND}`);
    }
    if (installed !== version) {
      throw new PythonSideMissingError(
        `${pkg} ${installed} is installed in the Python side, but the lab runs ${library} ${pkg === REAL_LIBRARIES[library].package ? 'as' : 'with'} ${pkg} ${version}; install the pinned one with ${SETUP_COMMAND}`,
      );
    }
  }
  if (library === 'delta-spark') sparkParts(repo, dir);
  return { python, dir, versions };
}

/** The folder of the pinned Delta jars, beside the environment (`npm run setup:python` downloads them there). */
export const sparkJarsDir = (envDir: string) => join(envDir, 'spark-jars');

/** The Spark host program and the pinned Delta jars beside the environment (real/spark-host.ts starts them). */
function sparkParts(repo: string, dir: string): void {
  if (!existsSync(join(repo, 'python/racelab_writer/spark_host.py'))) {
    throw new PythonSideMissingError(
      'the Python side is not in this clone: python/racelab_writer/spark_host.py (the Delta Spark host) is missing',
    );
  }
  const jars = sparkJarsDir(dir);
  if (!existsSync(jars) || !readdirSync(jars).some((f) => f.endsWith('.jar'))) {
    throw new PythonSideMissingError(
      `the Delta Spark jars are not installed beside the Python side (no spark-jars/ with jars in its folder); install them with ${SETUP_COMMAND}`,
    );
  }
}
