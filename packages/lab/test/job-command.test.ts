/**
 * Racing a team's own job: command writers run their own program on a full copy of the table, wait for the
 * barrier through racelab_barrier, tag their commits, and are judged by serial replays that run the job alone.
 * The example job examples/jobs/check_then_append.py raced against itself on a copy of the lab's flat base table
 * reproduces the lesson's E1 (the day appended twice) and the verdict says no serial order explains it. Commands
 * come only from LAB_JOB_ROOTS; a job that hangs is stopped by process group, one that writes outside its copy is
 * caught by the base table's checksum, and one that fails is a failed outcome with what it printed. This needs the
 * Python side (`npm run setup:python`): without it the tests fail with the message that says what is missing.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeltaCase, WriterSpec } from '../src/cases/catalog';
import { customCase } from '../src/cases/custom';
import { checkedJobCommand } from '../src/cases/job-roots';
import { locationCase } from '../src/cases/location';
import { type Dataset, scaledFigures } from '../src/data/index';
import { UNTAGGED_WARNING, withJobOutcomes } from '../src/formats/delta/job-outcome';
import { runLab } from '../src/index';
import { pythonEnv } from '../src/real/python-env';
import type { WriterResult } from '../src/results/types';
import { jobCommand, jobOutcome } from '../src/runner/job-command';
import type { BaseTables } from '../src/tables/base-tables';
import { runLab as runLabCommand } from './helpers/lab-cli';
import { noTlcDir, SMALL_SCALE, smallBase, tempDir } from './helpers/small-base';
import { writerResult } from './helpers/writer-result';

const EXAMPLE = fileURLToPath(new URL('../../../examples/jobs/check_then_append.py', import.meta.url));
const EXAMPLES = dirname(EXAMPLE);
const FIXTURE_JOBS = fileURLToPath(new URL('./fixtures/jobs/', import.meta.url));
const F = scaledFigures(SMALL_SCALE);
const DAY = '2025-02-14';

const work = tempDir('job-command');
let python = '';
let dataset: Dataset;
let tables: BaseTables;

beforeAll(async () => {
  // Fails here, with what is missing and the command that adds it, when the Python side is not installed.
  python = (await pythonEnv('delta-rs')).python;
  ({ dataset, tables } = await smallBase(work));
}, 600_000);

/** The job roots: the jobs' folders, and the interpreter's own (a venv's python is a link to it). */
const jobRoots = () => [EXAMPLES, FIXTURE_JOBS, dirname(realpathSync(python))];

/** Two (or more) command writers racing copies of the lab's flat base table, checked as the lab checks them. */
function jobsCase(writers: { name: string; command: string[] }[]): Promise<DeltaCase> {
  return locationCase(
    { location: tables.flat, writers },
    { roots: [work], workDir: work, jobRoots: jobRoots() },
    { jobBase: EXAMPLES },
  );
}

const lab = (c: DeltaCase, jobTimeoutMs?: number) =>
  runLab({
    cases: [c],
    runs: 1,
    scale: SMALL_SCALE,
    workDir: work,
    dataDir: noTlcDir(work),
    roots: [work],
    ...(jobTimeoutMs !== undefined && { jobTimeoutMs }),
  });

describe('the example job raced against itself (E1 with your own code)', () => {
  it('appends the day twice, and the verdict says no serial order leaves the table so', async () => {
    const command = [python, 'check_then_append.py', '--day', DAY, '--rows', dataset.february(DAY)];
    const c = await jobsCase([
      { name: 'job1', command },
      { name: 'job2', command },
    ]);
    // Checked: the interpreter and the script by absolute path, run from the writers file's folder.
    expect(c.writers[0]?.operation).toEqual({
      kind: 'command',
      command: [python, EXAMPLE, '--day', DAY, '--rows', dataset.february(DAY)],
      cwd: EXAMPLES,
    });
    const run = (await lab(c)).cases[0]?.runs[0];
    // Both counted no trips of the day before either committed, and both appended.
    for (const w of run?.writers ?? []) {
      expect(w).toMatchObject({ operation: 'command', committed: true, errorClass: null, run: 'real', readVersion: 0 });
      expect(w.observed).toEqual({ [DAY]: 0 });
    }
    expect(run?.writers.map((w) => w.version).sort()).toEqual([1, 2]);
    expect([...(run?.commitOrder ?? [])].sort()).toEqual(['job1', 'job2']);
    expect(run?.table.rows).toBe(F.januaryTrips + 2 * F.feb14);
    // The replay ran the job alone: the second found the day there and appended nothing; the race has it twice.
    expect(run?.verdict).toMatchObject({ status: 'not-serializable', rowsDuplicated: F.feb14, rowsMissing: 0 });
  }, 600_000);
});

describe('the example job, the second released after the first (startAfter)', () => {
  it('commits second; it counted before the barrier, as the first did, so the day is still there twice', async () => {
    const command = [python, 'check_then_append.py', '--day', DAY, '--rows', dataset.february(DAY)];
    const c = await jobsCase([
      { name: 'job1', command },
      { name: 'job2', command, startAfter: 'job1' } as { name: string; command: string[] },
    ]);
    const run = (await lab(c)).cases[0]?.runs[0];
    const [first, second] = run?.writers ?? [];
    expect(first).toMatchObject({ committed: true, version: 1, commitRetries: 0, observed: { [DAY]: 0 } });
    // Released once the first had ended: its version is the next, one version past what it read.
    expect(second).toMatchObject({ committed: true, version: 2, commitRetries: 1, observed: { [DAY]: 0 } });
    expect(second?.timings?.released).toBeGreaterThanOrEqual(first?.timings?.finished as number);
    expect(run?.commitOrder).toEqual(['job1', 'job2']);
    expect(run?.verdict).toMatchObject({ status: 'not-serializable', rowsDuplicated: F.feb14 });
  }, 300_000);
});

describe('faults of a job', () => {
  it('a job that hangs past its bound is stopped, with its process group, and fails saying so', async () => {
    const hang = [python, join(FIXTURE_JOBS, 'hang.py')];
    const c = await jobsCase([
      { name: 'job1', command: hang },
      { name: 'job2', command: hang },
    ]);
    const run = (await lab(c, 2_000)).cases[0]?.runs[0];
    for (const w of run?.writers ?? []) {
      expect(w).toMatchObject({ committed: false, errorClass: 'WriterTimedOut' });
      expect(w.errorMessage).toBe(`writer ${w.name} did not finish within 2 s and was stopped`);
      // The job said its pid before it hung: that process is gone.
      const pid = Number(/pid (\d+)/.exec(w.log ?? '')?.[1]);
      expect(pid).toBeGreaterThan(0);
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    }
    expect(run?.table.version).toBe(0);
  }, 300_000);

  it('a job that writes outside its copy is caught by the base table checksum, and the run is void', async () => {
    const stray = [python, join(FIXTURE_JOBS, 'outside.py'), tables.flat];
    const c = await jobsCase([
      { name: 'job1', command: stray },
      { name: 'job2', command: stray },
    ]);
    try {
      await expect(lab(c)).rejects.toThrow(
        /changed while the jobs raced: 2 added \(job[12]\.stray, job[12]\.stray\)\. A job of job1, job2 wrote outside its copy/,
      );
    } finally {
      for (const name of ['job1', 'job2']) rmSync(join(tables.flat, `${name}.stray`), { force: true });
    }
  }, 300_000);

  it('a job that fails is a failed outcome: its exception, or its exit status and what it printed last', async () => {
    const c = await jobsCase([
      { name: 'job1', command: [python, join(FIXTURE_JOBS, 'fail.py'), 'raise'] },
      { name: 'job2', command: [python, join(FIXTURE_JOBS, 'fail.py'), 'exit'] },
    ]);
    const run = (await lab(c)).cases[0]?.runs[0];
    const [raised, exited] = run?.writers ?? [];
    expect(raised).toMatchObject({
      committed: false,
      outcome: 'failed',
      errorClass: 'ValueError',
      errorMessage: "the day's batch is missing",
    });
    expect(raised?.log).toContain('Traceback (most recent call last):');
    expect(exited).toMatchObject({ committed: false, outcome: 'failed', errorClass: 'JobFailed' });
    expect(exited?.errorMessage).toBe("job2's job exited with status 3:\nbatch 2025-02-14 was not delivered");
    expect(run?.verdict?.status).toBe('serializable');
  }, 300_000);
});

describe('where commands may come from (LAB_JOB_ROOTS)', () => {
  const job: Extract<WriterSpec['operation'], { kind: 'command' }> = { kind: 'command', command: [] };
  const check = (command: string[], roots = jobRoots()) =>
    checkedJobCommand('job1', { ...job, command }, { roots, base: EXAMPLES });

  it('a script outside every job root is refused, and so is a program', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'racelab-not-a-root-'));
    const script = join(elsewhere, 'job.py');
    writeFileSync(script, 'print(1)\n');
    expect(await check([python, script])).toEqual([
      `writer job1: the script '${script}' lies outside LAB_JOB_ROOTS (its real path must be under a job root)`,
    ]);
    expect(await check([python, EXAMPLE], [EXAMPLES])).toEqual([
      `writer job1: the program '${python}' lies outside LAB_JOB_ROOTS (its real path must be under a job root)`,
    ]);
    // A link under a root to a script elsewhere is judged by where it leads.
    const links = join(work, 'links');
    mkdirSync(links, { recursive: true });
    symlinkSync(script, join(links, 'job.py'));
    expect(await check([python, join(links, 'job.py')], [...jobRoots(), links])).toEqual([
      `writer job1: the script '${join(links, 'job.py')}' lies outside LAB_JOB_ROOTS (its real path must be under a job root)`,
    ]);
  });

  it('code on the command line (-c) and modules found at run time (-m) are refused, clustered options too', async () => {
    const refusal = (flag: string, why: string) => [
      `writer job1: 'python ${flag}' ${why}, which no job root can vouch for: give a script file under LAB_JOB_ROOTS`,
    ];
    const bin = dirname(python);
    const named = join(bin, 'python');
    expect(await check([named, '-c', 'print(1)'])).toEqual(refusal('-c', 'runs code given on the command line'));
    expect(await check([named, '-uc', 'print(1)'])).toEqual(refusal('-c', 'runs code given on the command line'));
    expect(await check([named, '-m', 'racelab_writer'])).toEqual(
      refusal('-m', 'runs a module looked up on the import path at run time'),
    );
    // Each interpreter's own options: a shell's -c is code, its -e (stop at the first error) is not.
    const shell = realpathSync('/bin/sh');
    const withShell = [...jobRoots(), dirname(shell)];
    expect(await check([shell, '-c', 'true'], withShell)).toEqual([
      `writer job1: '${basename(shell)} -c' runs code given on the command line, which no job root can vouch for: give a script file under LAB_JOB_ROOTS`,
    ]);
    expect(await check([shell, '-e', join(FIXTURE_JOBS, 'hang.py')], withShell)).toMatchObject({ kind: 'command' });
    expect(await check([named])).toEqual([
      "writer job1: 'python' is given no script file: a command writer runs a script under LAB_JOB_ROOTS",
    ]);
  });

  it('without LAB_JOB_ROOTS no command runs; the command line refuses the race with exit 2 and every reason', async () => {
    expect(await check([python, EXAMPLE], [])).toEqual([
      'writer job1: a command writer runs only when LAB_JOB_ROOTS names the folders jobs may come from',
    ]);
    const file = join(work, 'inline-jobs.json');
    writeFileSync(
      file,
      JSON.stringify({
        writers: [
          { name: 'job1', command: [python, '-c', 'print(1)'] },
          { name: 'job2', command: [python, 'check_then_append.py'], cwd: EXAMPLES },
        ],
      }),
    );
    const args = ['--table', tables.flat, '--writers', file, '--runs', '1', '--work-dir', work];
    const refused = runLabCommand(args, { LAB_ROOTS: work, LAB_JOB_ROOTS: jobRoots().join(':') });
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      "the race was refused:\n  - writer job1: 'python -c' runs code given on the command line",
    );
    const unset = runLabCommand(args, { LAB_ROOTS: work, LAB_JOB_ROOTS: '' });
    expect(unset.status, unset.stderr).toBe(2);
    expect(unset.stderr).toContain(
      'writer job2: a command writer runs only when LAB_JOB_ROOTS names the folders jobs may come from',
    );
  }, 120_000);

  it('a command writer takes no field of an operation', () => {
    expect(() =>
      customCase({
        writers: [
          { name: 'a', command: ['job'], operation: 'append', day: DAY },
          { name: 'b', command: ['job'] },
        ],
      }),
    ).toThrow(
      'writer a: a command writer takes no operation (only name, command, cwd, startAfter); writer a: a command writer takes no day',
    );
  });
});

describe("a job's outcome, read from the log", () => {
  const result = (name: string): WriterResult =>
    writerResult(name, { operation: 'command', committed: false, commitRetries: null, readVersion: 0 });
  const specs: WriterSpec[] = ['job1', 'job2', 'feb01'].map((name) => ({
    name,
    operation: name === 'feb01' ? { kind: 'append', day: '2025-02-01' } : { kind: 'command', command: ['job'] },
  }));

  it('committed at its tagged version, retries from what it read; untagged commits are named; others untouched', () => {
    const engine = writerResult('feb01', { operation: 'append', version: 1 });
    const [job1, job2, feb01] = withJobOutcomes([result('job1'), result('job2'), engine], specs, [
      'feb01',
      'v2',
      'job1',
    ]);
    expect(job1).toMatchObject({ committed: true, version: 3, commitRetries: 2 });
    expect(job2).toMatchObject({ committed: false, version: null });
    expect(job2?.warnings).toEqual([UNTAGGED_WARNING, 'nothing to commit']);
    expect(feb01).toBe(engine);
  });

  it("what a job says itself is kept; committed and version are the log's alone", () => {
    expect(jobOutcome({ committed: true, version: 7, observed: { d: 1 }, attempts: 2 } as never)).toMatchObject({
      committed: false,
      version: null,
      observed: { d: 1 },
      attempts: 2,
      run: 'real',
    });
  });
});

describe("a job's command and environment", () => {
  it("names its writer and copy, puts the helper first on PYTHONPATH, and keeps the lab's secrets from it", () => {
    const writer: WriterSpec = {
      name: 'job1',
      operation: { kind: 'command', command: ['/jobs/run', '--x'], cwd: '/jobs' },
    };
    const cmd = jobCommand({ kind: 'race', format: 'delta', table: '/runs/copy', writer }, '/repo', {
      PATH: '/usr/bin',
      PYTHONPATH: '/mine',
      DATABASE_URL: 'postgres://u:p@h/db',
      LAB_API_TOKEN: 'rl_x',
      AWS_SECRET_ACCESS_KEY: 'k',
    });
    expect(cmd).toEqual({
      command: '/jobs/run',
      args: ['--x'],
      cwd: '/jobs',
      env: {
        PATH: '/usr/bin',
        PYTHONPATH: '/repo/python:/mine',
        RACELAB_WRITER: 'job1',
        RACELAB_TABLE: '/runs/copy',
        PYTHONUNBUFFERED: '1',
      },
    });
  });
});
