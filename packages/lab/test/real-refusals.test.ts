/**
 * `--real` before anything runs: the Python side is found by the setup's own rule (the lock file's hash under the
 * cache folder, finished once its `ready` marker is there) or refused naming what is missing and `npm run
 * setup:python`; a library at another version is refused the same way; and what cannot run for real yet is refused
 * with every reason (exit 2 from the command). No venv is needed: interpreters here are small scripts.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LabInputError, validateLabOptions } from '../src/lab';
import { PythonSideMissingError, pythonEnv, pythonEnvDir } from '../src/real/python-env';
import { RealRunRefusedError } from '../src/real/refusals';
import { runLab } from './helpers/lab-cli';

const dir = mkdtempSync(join(tmpdir(), 'racelab-real-side-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOCK = 'deltalake==1.6.6 --hash=sha256:00\n';

/** A clone with the lock file and the writer program's entry, and an empty cache. */
function clone(name: string, { writer = true } = {}) {
  const repo = join(dir, name);
  mkdirSync(join(repo, 'python/racelab_writer'), { recursive: true });
  writeFileSync(join(repo, 'python/requirements.lock'), LOCK);
  if (writer) writeFileSync(join(repo, 'python/racelab_writer/__main__.py'), '');
  const cache = join(repo, 'cache');
  const key = createHash('sha256').update(LOCK).digest('hex').slice(0, 16);
  return { repo, cache, venv: join(cache, key), env: { RACELAB_PYTHON_CACHE: cache } };
}

/** An "interpreter" that answers the version question as an installed venv would. */
function fakePython(path: string, versions: Record<string, string>): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho '${JSON.stringify({ python: '3.11.7', ...versions })}'\n`);
  chmodSync(path, 0o755);
  return path;
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('not refused');
};

describe('finding the Python side', () => {
  it("is the cache folder named by the lock file's hash, and refused while its ready marker is missing", async () => {
    const c = clone('unready');
    expect(pythonEnvDir(c)).toEqual({ path: c.venv, shown: `$RACELAB_PYTHON_CACHE/${c.venv.slice(-16)}` });
    fakePython(join(c.venv, 'bin/python'), { deltalake: '1.6.6' });
    const missing = pythonEnv('delta-rs', c);
    await expect(missing).rejects.toBeInstanceOf(PythonSideMissingError);
    await expect(missing).rejects.toThrow(
      `the Python side is not installed: no finished virtual environment at $RACELAB_PYTHON_CACHE/${c.venv.slice(-16)} (its ready marker is missing); install it with npm run setup:python`,
    );
    writeFileSync(join(c.venv, 'ready'), '');
    await expect(pythonEnv('delta-rs', c)).resolves.toEqual({
      python: join(c.venv, 'bin/python'),
      dir: c.venv,
      versions: { python: '3.11.7', deltalake: '1.6.6' },
    });
  });

  it('names a missing lock file, a missing writer program, a missing library and a wrong version', async () => {
    const noLock = clone('no-lock');
    rmSync(join(noLock.repo, 'python/requirements.lock'));
    await expect(pythonEnv('delta-rs', noLock)).rejects.toThrow(
      /^the Python side is not in this clone: python\/requirements.lock is missing .*npm run setup:python/,
    );
    const noWriter = clone('no-writer', { writer: false });
    const python = fakePython(join(noWriter.repo, 'py/bin/python'), { deltalake: '1.6.6' });
    await expect(pythonEnv('delta-rs', { ...noWriter, env: { RACELAB_PYTHON: python } })).rejects.toThrow(
      'the Python side is not in this clone: python/racelab_writer (the real writer program) is missing',
    );
    const c = clone('versions');
    const none = fakePython(join(c.repo, 'none/bin/python'), {});
    await expect(pythonEnv('delta-rs', { ...c, env: { RACELAB_PYTHON: none } })).rejects.toThrow(
      'deltalake is not installed in the Python side; install it with npm run setup:python',
    );
    const old = fakePython(join(c.repo, 'old/bin/python'), { deltalake: '1.5.0' });
    await expect(pythonEnv('delta-rs', { ...c, env: { RACELAB_PYTHON: old } })).rejects.toThrow(
      'deltalake 1.5.0 is installed in the Python side, but the lab runs delta-rs as deltalake 1.6.6; install the pinned one with npm run setup:python',
    );
    const iceberg = fakePython(join(c.repo, 'iceberg/bin/python'), { deltalake: '1.6.6', pyiceberg: '0.11.1' });
    await expect(pythonEnv('pyiceberg', { ...c, env: { RACELAB_PYTHON: iceberg } })).rejects.toThrow(
      'pyiceberg 0.11.1 is installed in the Python side, but the lab runs pyiceberg as pyiceberg 0.12.0; install the pinned one with npm run setup:python',
    );
    const pinned = fakePython(join(c.repo, 'pinned/bin/python'), { pyiceberg: '0.12.0' });
    await expect(pythonEnv('pyiceberg', { ...c, env: { RACELAB_PYTHON: pinned } })).resolves.toMatchObject({
      versions: { pyiceberg: '0.12.0' },
    });
  });

  it('asks a real interpreter without the library, and refuses it', async () => {
    const c = clone('python3');
    const python3 = join(c.repo, 'bin/python3');
    mkdirSync(join(c.repo, 'bin'));
    writeFileSync(python3, '#!/bin/sh\nexec python3 "$@"\n');
    chmodSync(python3, 0o755);
    await expect(
      pythonEnv('delta-rs', { ...c, env: { RACELAB_PYTHON: python3, PYTHONNOUSERSITE: '1' } }),
    ).rejects.toThrow(/^deltalake (is not installed|[\d.]+ is installed)/);
    // Delta Spark without pyspark and the Delta jars in the Python side: the command that adds them is named.
    await expect(
      pythonEnv('delta-spark', { ...c, env: { RACELAB_PYTHON: python3, PYTHONNOUSERSITE: '1' } }),
    ).rejects.toThrow(/^delta-spark (is not installed|[\d.]+ is installed).*npm run setup:python$/);
  });
});

describe('what --real refuses, with every reason', () => {
  it("another format's library, other hosts, S3 table roots, store cases, and engine-only hooks", () => {
    expect(
      refusal(() => validateLabOptions({ workDir: dir, cases: ['A1', 'F1'], real: true, library: 'pyiceberg' })),
    ).toEqual(
      new RealRunRefusedError([
        'A1 is a Delta case: pyiceberg writes Iceberg tables; delta-rs runs it (--library delta-rs, or no --library)',
      ]),
    );
    expect(refusal(() => validateLabOptions({ workDir: dir, cases: ['F2'], real: true, library: 'delta-rs' }))).toEqual(
      new RealRunRefusedError([
        'F2 is an Iceberg case: delta-rs writes Delta tables; pyiceberg runs it (--library pyiceberg, or no --library)',
      ]),
    );
    // Delta Spark: Delta cases with a Spark twin only; naming it implies --real.
    expect(
      refusal(() =>
        validateLabOptions({
          workDir: dir,
          cases: ['A1', 'A2', 'B1', 'I1', 'I2', 'I4', 'I6', 'F1', 'G1'],
          library: 'delta-spark',
        }),
      ),
    ).toEqual(
      new RealRunRefusedError([
        "A2's writer feb01 sets maxCommitRetries, delta-rs's commit-retry setting; Delta Spark has none",
        "A2's writer feb02 sets maxCommitRetries, delta-rs's commit-retry setting; Delta Spark has none",
        'I1 has no Delta Spark twin: its point is append, an append not marked blind, and a Spark append is always blind',
        'I2 has no Delta Spark twin: its point is append, an append not marked blind, and a Spark append is always blind',
        'I6 has no Delta Spark twin: its point is append, an append not marked blind, and a Spark append is always blind',
        'F1 is an Iceberg case: delta-spark writes Delta tables; pyiceberg runs it (--library pyiceberg, or no --library)',
        "G1 is a store case: its point is a store fault that only the engine's own writers can be given",
      ]),
    );
    const spark = validateLabOptions({ workDir: dir, cases: ['A1', 'B1', 'C2', 'I4', 'E1'], library: 'delta-spark' });
    expect([...(spark.libraries ?? [])]).toEqual(['A1', 'B1', 'C2', 'I4', 'E1'].map((id) => [id, 'delta-spark']));
    expect(refusal(() => validateLabOptions({ workDir: dir, cases: ['A1'], library: 'delta-rs' }))).toBeInstanceOf(
      LabInputError,
    );
    // Every reason at once, the cases in the catalog's order.
    const e = refusal(() =>
      validateLabOptions({
        workDir: dir,
        cases: ['A1', 'F1', 'H1', 'G1', 'P1'],
        real: true,
        tableRoot: 's3://bucket/lab',
        acrossHosts: { dsn: 'postgres://x' } as never,
      }),
    ) as RealRunRefusedError;
    expect(e).toBeInstanceOf(RealRunRefusedError);
    expect(e.problems).toEqual([
      'real writers run on this machine only, not on other hosts',
      'real writers write local run tables only, not an S3 table root (--table-root)',
      'P1 is a postgres case: it has no library to run for real',
      "H1 is a store case: its point is a store fault that only the engine's own writers can be given",
      "G1 is a store case: its point is a store fault that only the engine's own writers can be given",
    ]);
    const hooks = refusal(() =>
      validateLabOptions({
        workDir: dir,
        real: true,
        cases: [
          {
            id: 'custom',
            title: 'hooks',
            format: 'delta',
            table: 'flat',
            writers: [
              { name: 'a', operation: { kind: 'append', day: '2025-02-01' }, lostAnswer: 'timeout' },
              { name: 'b', operation: { kind: 'append', day: '2025-02-02' }, recogniseOwnCommit: true },
            ],
          },
        ],
      }),
    ) as RealRunRefusedError;
    expect(hooks.problems).toEqual([
      "custom's writer a uses lostAnswer, a hook of the engine's own that delta-rs does not have",
      "custom's writer b uses recogniseOwnCommit, a hook of the engine's own that delta-rs does not have",
    ]);
    expect(refusal(() => validateLabOptions({ workDir: dir, cases: ['A1'], library: 'delta-rs' }))).toEqual(
      new LabInputError('--library picks the real library: give --real with it'),
    );
    // Each case runs in its format's library unless --library names one.
    expect(validateLabOptions({ workDir: dir, cases: ['A1', 'F1', 'F2'], real: true }).libraries).toEqual(
      new Map([
        ['A1', 'delta-rs'],
        ['F1', 'pyiceberg'],
        ['F2', 'pyiceberg'],
      ]),
    );
    expect(validateLabOptions({ workDir: dir, cases: ['F1'], real: true, library: 'pyiceberg' }).libraries).toEqual(
      new Map([['F1', 'pyiceberg']]),
    );
    expect(validateLabOptions({ workDir: dir, cases: ['F1'] }).libraries).toBeNull();
  });

  it('the command: exit 2 with the reasons, or with what is missing of the Python side, before anything runs', () => {
    const work = join(dir, 'work');
    const refused = runLab(['A1', 'F1', '--real', '--library', 'delta-rs', '--runs', '1', '--work-dir', work]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('lab: the race was refused:\n  - F1 is an Iceberg case: delta-rs writes Delta');
    const missing = runLab(['A1', '--real', '--runs', '1', '--work-dir', work], {
      RACELAB_PYTHON_CACHE: join(dir, 'empty-cache'),
      RACELAB_PYTHON: '',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/lab: the Python side is not installed: .*install it with npm run setup:python/);
    expect(missing.stderr).not.toMatch(/preparing/);
    expect(missing.stdout).toBe('');
    // The Spark comparison: a case without a Spark twin, or one the two-writer model does not forecast, is refused
    // before any JVM starts.
    const twin = runLab(['compare', 'I1', 'B1', '--library', 'delta-spark', '--work-dir', work]);
    expect(twin.status).toBe(2);
    expect(twin.stderr).toContain('I1 has no Delta Spark twin: its point is append, an append not marked blind');
    const four = runLab(['compare', 'D1', '--library', 'delta-spark', '--work-dir', work]);
    expect(four.status).toBe(2);
    expect(four.stderr).toContain(
      'the Spark comparison sets real runs against a forecast for two writers; D1 races another number of writers',
    );
    expect(`${twin.stderr}${four.stderr}`).not.toMatch(/preparing|Spark host/);
  });
});
