/**
 * Every lab command follows one command-line convention, checked on the commands as processes: `--help` and `-h`
 * print the usage (first line `usage: …`), options and an example on stdout, exit 0; `--version` prints the root
 * package.json's version; `--json` without a value is a usage error (exit 2); `--json -` puts the JSON alone on
 * stdout (it parses whole) and the text report on stderr; `--json -` beside a SARIF report on stdout is refused.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { REPO, writeTripsTable } from './helpers/audit-cli';
import { tempDir } from './helpers/small-base';

const work = tempDir('command-line');
const CLI = (name: string) => join(REPO, 'packages/lab/src/cli', `${name}.ts`);
const VERSION: string = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The command as a process through tsx, typed in `work`, with its tables under `work/tables`. */
function run(cli: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI(cli), ...args], {
    cwd: REPO,
    env: {
      ...process.env,
      INIT_CWD: work,
      LAB_ROOTS: join(work, 'tables'),
      LAB_WORK_DIR: join(work, 'lab'),
      LAB_DATA_DIR: join(work, 'no-tlc'),
      ...env,
    },
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
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/** Each command and subcommand, by its script and the arguments that name it. */
const COMMANDS: [string, string, string[]][] = [
  ['npm run lab', 'lab', []],
  ['npm run lab -- sweep', 'lab', ['sweep']],
  ['npm run audit', 'audit', []],
  ['npm run audit -- code', 'audit', ['code']],
  ['npm run audit -- history', 'audit', ['history']],
  ['npm run probe', 'probe', []],
  ['npm run lab:report', 'report', []],
  ['npm run lab:demo', 'lab-demo', []],
  ['npm run demo', 'demo', []],
];

beforeAll(async () => {
  await writeTripsTable(work);
  cpSync(fixture('delta-golden', 'table-with-dv-small'), join(work, 'tables', 'dv'), { recursive: true });
  writeFileSync(
    join(work, 'jobs.yaml'),
    'jobs:\n  - { name: solo, table: trips, engine: delta-rs 1.6.6, operation: delete, predicate: VendorID = 1 }\n',
  );
  writeFileSync(
    join(work, 'two-updates.json'),
    JSON.stringify({
      writers: [
        { name: 'low', operation: 'update', predicate: 'value = 1', set: { value: 'value + 100' } },
        { name: 'high', operation: 'update', predicate: 'value = 8', set: { value: 'value + 200' } },
      ],
    }),
  );
});

describe('--help, -h and --version', () => {
  it('every command answers --help and -h on stdout with its usage, options and an example, exit 0', async () => {
    const asked = COMMANDS.flatMap(([name, cli, sub]) =>
      ['--help', '-h'].map(async (flag) => ({ name, flag, r: await run(cli, [...sub, flag]) })),
    );
    for (const { name, flag, r } of await Promise.all(asked)) {
      const what = `${name} ${flag}`;
      expect(r.status, what).toBe(0);
      expect(r.stderr, what).toBe('');
      expect(r.stdout.split('\n')[0], what).toMatch(new RegExp(`^usage: ${name.replace(/[-:]/g, '\\$&')}`));
      expect(r.stdout, what).toMatch(/\noptions:\n(.*\n)* {2}-h, --help /);
      expect(r.stdout, what).toMatch(/\nexamples?:\n {2}npm /);
    }
  });

  it("--version prints the root package.json's version, whatever else is typed", async () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const runs = await Promise.all([
      run('lab', ['--version']),
      run('lab', ['sweep', '--version']),
      run('audit', ['code', '--version']),
      run('probe', ['s3://b/p', '--version']),
      run('report', ['--version']),
    ]);
    for (const r of runs) expect([r.status, r.stdout, r.stderr]).toEqual([0, `${VERSION}\n`, '']);
  });
});

describe('--json', () => {
  it('without a value is a usage error, exit 2, saying what it takes', async () => {
    const runs = await Promise.all([
      run('lab', ['A1', '--json']),
      run('lab', ['sweep', '--op', 'append-row', '--json']),
      run('audit', [join(work, 'jobs.yaml'), '--json']),
      run('audit', ['history', 'trips', '--json']),
      run('probe', ['s3://bucket/prefix', '--json']),
    ]);
    for (const r of runs) {
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--json needs a value: a file, or - for standard output');
    }
  });

  it('- beside a SARIF or JUnit report on stdout is refused: never two documents on one stream', async () => {
    const jobs = join(work, 'jobs.yaml');
    const runs = await Promise.all([
      run('audit', [jobs, '--format', 'sarif', '--json', '-']),
      run('audit', ['code', jobs, '--format', 'junit', '--json', '-']),
    ]);
    for (const r of runs) {
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toMatch(
        /^audit: --json - and --format (sarif|junit) would both write to standard output/,
      );
    }
    // With the SARIF report in a file, the JSON has stdout to itself and the text report goes to stderr.
    const sarif = join(work, 'audit.sarif');
    const apart = await run('audit', [jobs, '--format', 'sarif', '--out', sarif, '--json', '-']);
    expect(apart.status, apart.stderr).toBe(0);
    expect(JSON.parse(apart.stdout)).toMatchObject({ failed: false });
    expect(apart.stderr).toMatch(/^1 job, 0 findings$/m);
    expect(JSON.parse(readFileSync(sarif, 'utf8')).version).toBe('2.1.0');
  });

  it('- writes the JSON alone to stdout, the text report to stderr: the audits', async () => {
    const [jobs, code, history] = await Promise.all([
      run('audit', [join(work, 'jobs.yaml'), '--json', '-']),
      run('audit', ['code', join(work, 'jobs.yaml'), '--json', '-']),
      run('audit', ['history', 'tables/dv', '--json', '-']),
    ]);
    expect(jobs.status, jobs.stderr).toBe(0);
    expect(JSON.parse(jobs.stdout)).toMatchObject({ failed: false });
    expect(jobs.stderr).toMatch(/^1 job, 0 findings$/m);
    expect(code.status, code.stderr).toBe(0);
    expect(JSON.parse(code.stdout)).toHaveProperty('findings');
    expect(history.status, history.stderr).toBe(0);
    expect(JSON.parse(history.stdout)).toHaveProperty('commits');
    expect(history.stderr).not.toBe('');
  });

  it('- writes the JSON alone to stdout, the text report to stderr: a lab race, a sweep, a probe that could not run', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise((r) => server.close(r));
    const [lab, sweep, probe] = await Promise.all([
      run('lab', ['--table', 'dv', '--writers', join(work, 'two-updates.json'), '--runs', '1', '--json', '-']),
      run('lab', ['sweep', '--writers', '1', '--commits', '1', '--op', 'append-row', '--json', '-']),
      run('probe', ['s3://bucket/prefix', '--rounds', '1', '--json', '-'], {
        AWS_ACCESS_KEY_ID: 'k',
        AWS_SECRET_ACCESS_KEY: 's',
        AWS_REGION: 'us-east-1',
        AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
      }),
    ]);
    expect(lab.status, lab.stderr).toBe(0);
    const results = JSON.parse(lab.stdout);
    expect(results.cases[0].runs[0].table.rows).toBe(8);
    expect(lab.stderr).toMatch(/^racelab: copies of dv; /m);
    expect(lab.stderr).toMatch(/verdict: data OK in 1 of 1/);
    expect(sweep.status, sweep.stderr).toBe(0);
    expect(JSON.parse(sweep.stdout).input.operation).toBe('append-row');
    expect(sweep.stderr).toMatch(/^estimate: about /m);
    expect(probe.status).toBe(2);
    expect(JSON.parse(probe.stdout)).toMatchObject({ verdict: expect.any(String) });
    expect(probe.stderr).not.toBe('');
  });
});
