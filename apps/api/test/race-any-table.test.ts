/**
 * A race of two custom updates on copies of a table of one's own runs end to end through
 * the API (a real API, worker and Postgres as separate processes), for a table with deletion vectors and one with
 * column mapping, each run with its writers' outcomes, a verdict and the table's check, and the sources' bytes
 * unchanged; a table whose protocol names a writer feature delta-rs 1.6.x refuses is refused before anything is
 * stored or queued, naming the feature; and a race with several problems is refused with all of them at once.
 * The golden tables are copied under the stack's LAB_ROOTS, so the test holds wherever the fixtures lie. The races
 * run in a work folder of their own, where none of them prepares the lab's taxi data set: they never read it.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const SOURCES = {
  'dv-small': fixture('delta-golden', 'table-with-dv-small'),
  'column-mapping': fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta'),
};
type Source = keyof typeof SOURCES;

const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id status title } }`;
const PROGRESS = `subscription($id: ID!) { raceProgress(id: $id) { status message } }`;
const RACE = `query($id: ID!) { race(id: $id) { status reason spec runs { index status
  writers { name operation committed version errorClass errorMessage filesWritten }
  table { version rows dataFilesOnDisk dataFilesInLog stagingFilesOnDisk tempLogFilesOnDisk }
  verdict { status summary order } } } }`;

interface RunView {
  index: number;
  status: string;
  writers: {
    name: string;
    committed: boolean;
    version: number | null;
    errorClass: string | null;
    filesWritten: number | null;
  }[];
  table: {
    version: number | null;
    rows: number;
    dataFilesOnDisk: number | null;
    dataFilesInLog: number | null;
    stagingFilesOnDisk: number | null;
    tempLogFilesOnDisk: number | null;
  } | null;
  verdict: { status: string; summary: string; order: string[] } | null;
}
interface RaceView {
  status: string;
  reason: string | null;
  spec: string;
  runs: RunView[];
}

let stack: Stack;
// On the tables' filesystem (the repository's var/), as the stack's own folder is: runs hard-link their files.
const varTmp = resolve(import.meta.dirname, '../../../var/tmp');
mkdirSync(varTmp, { recursive: true });
const workDir = mkdtempSync(join(varTmp, 'racelab-any-table-work-'));
beforeAll(async () => {
  stack = await startStack({ LAB_WORK_DIR: workDir });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(workDir, { recursive: true, force: true });
});

/** Every file under `dir` as `relative path → sha256 of its bytes`. */
function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

/** The data files among a table's files (relative paths): Parquet files outside its log. */
const dataFiles = (files: Record<string, string>) =>
  Object.keys(files).filter((f) => f.endsWith('.parquet') && !f.startsWith('_delta_log')).length;

/** A golden table copied under the stack's roots as `own/<name>`; its location as a race names it. */
function copied(source: Source, name: string = source): string {
  const location = `own/${name}`;
  cpSync(SOURCES[source], join(stack.dir, 'tables', location), { recursive: true });
  return location;
}

const count = async (sql: string) => Number((await stack.sql<{ n: string }>(sql))[0]?.n);
const stored = async () => ({
  races: await count('SELECT count(*)::text AS n FROM "Race"'),
  jobs: await count(`SELECT count(*)::text AS n FROM pgboss.job WHERE name = 'race'`),
});

async function startRace(input: Record<string, unknown>) {
  return gql<{ startRace: { id: string; status: string; title: string } }>(stack.apiUrl, START, { input }, stack.token);
}

/** Follows a race to its end; its stored state then. */
async function raceToEnd(id: string): Promise<RaceView> {
  for await (const _ of subscribe(stack.apiUrl, PROGRESS, { id })) {
    // The subscription completes when the race ends.
  }
  const r = await gql<{ race: RaceView }>(stack.apiUrl, RACE, { id });
  expect(r.errors).toBeUndefined();
  return r.data?.race as RaceView;
}

const updateOf = (name: string, predicate: string, column: string, value: string) => ({
  name,
  operation: 'update',
  predicate,
  set: [{ key: column, value }],
});

/** Two updates per table, on real columns: overlapping on one, disjoint on the other. */
const RACES: { source: Source; rows: number; writers: ReturnType<typeof updateOf>[] }[] = [
  {
    source: 'dv-small',
    // 10 physical rows, 2 deleted by the vector: 8.
    rows: 8,
    writers: [
      updateOf('low', 'value <= 4', 'value', 'value + 100'),
      updateOf('high', 'value >= 3', 'value', 'value * 10'),
    ],
  },
  {
    source: 'column-mapping',
    rows: 6,
    writers: [
      updateOf('small', 'IntegerType < 2', 'StringType', "'changed'"),
      updateOf('large', 'IntegerType >= 2', 'LongType', 'LongType + 1'),
    ],
  },
];

describe('startRace with tableLocation: copies of a table of your own', () => {
  for (const { source, rows, writers } of RACES) {
    it(`races two updates on copies of ${source}, with verdicts, and leaves the source as it was`, async () => {
      const location = copied(source);
      const dir = join(stack.dir, 'tables', location);
      const before = hashes(dir);
      const started = await startRace({ tableLocation: location, writers, runs: 2 });
      expect(started.errors).toBeUndefined();
      expect(started.data?.startRace).toMatchObject({ status: 'QUEUED' });
      expect(started.data?.startRace.title).toBe(
        `custom race on ${location}: ${writers.map((w) => `${w.name} (update)`).join(' ‖ ')}`,
      );
      const race = await raceToEnd(started.data?.startRace.id as string);
      expect(race.reason).toBeNull();
      expect(race.status).toBe('DONE');
      // The spec shows the server's folders by the settings that name them.
      expect(race.spec).not.toContain(stack.dir);
      expect(race.spec).toContain(`"$LAB_ROOTS/${location}"`);
      expect(race.runs.map((r) => r.index)).toEqual([1, 2]);
      for (const run of race.runs) {
        expect(run.status).toBe('DONE');
        expect(run.writers.map((w) => w.name).sort()).toEqual(writers.map((w) => w.name).sort());
        for (const w of run.writers) {
          // Each writer has an outcome: a version it committed, or the error it ended with.
          expect(w.committed ? w.version : w.errorClass, w.name).not.toBeNull();
        }
        expect(run.writers.some((w) => w.committed)).toBe(true);
        expect(['serializable', 'reordered', 'not-serializable']).toContain(run.verdict?.status);
        expect(run.verdict?.summary).not.toBe('');
        const table = run.table;
        // Updates change values, never how many rows there are, whoever wins.
        expect(table?.rows).toBe(rows);
        expect(table?.version).toBe(run.writers.filter((w) => w.committed).length);
        expect(table?.dataFilesInLog).toBeGreaterThan(0);
        // On disk: the source's files (linked into the copy) and every file a writer wrote, whether the log names
        // it (the winner's) or not (a loser's zombie); the log names fewer.
        const written = run.writers.reduce((n, w) => n + (w.filesWritten ?? 0), 0);
        expect(table?.dataFilesOnDisk).toBe(dataFiles(before) + written);
        expect(table?.dataFilesOnDisk).toBeGreaterThan(table?.dataFilesInLog ?? Number.POSITIVE_INFINITY);
        expect(table).toMatchObject({ stagingFilesOnDisk: 0, tempLogFilesOnDisk: 0 });
      }
      expect(hashes(dir)).toEqual(before);
      // The race read no taxi data: the worker prepared no data set (nor base tables) for it.
      expect(existsSync(join(workDir, 'data'))).toBe(false);
      expect(existsSync(join(workDir, 'base'))).toBe(false);
    });
  }
});

describe('startRace with tableLocation: writers that add rows', () => {
  it("appends a sample of the table's own rows beside an update, the same rows in every run", async () => {
    const location = copied('dv-small', 'sampled');
    const dir = join(stack.dir, 'tables', location);
    const before = hashes(dir);
    const started = await startRace({
      tableLocation: location,
      writers: [updateOf('bump', 'value > 6', 'value', 'value + 1'), { name: 'more', operation: 'append', sample: 3 }],
      runs: 2,
    });
    expect(started.errors).toBeUndefined();
    const race = await raceToEnd(started.data?.startRace.id as string);
    expect(race.status).toBe('DONE');
    for (const run of race.runs) {
      const more = run.writers.find((w) => w.name === 'more');
      expect(more?.committed ? more.version : more?.errorClass).not.toBeNull();
      // 8 rows, and the sample's 3 when the append committed.
      expect(run.table?.rows).toBe(8 + (more?.committed ? 3 : 0));
      expect(['serializable', 'reordered', 'not-serializable']).toContain(run.verdict?.status);
    }
    expect(hashes(dir)).toEqual(before);
  });
});

describe('startRace with tableLocation: writers whose predicates match no rows', () => {
  const STARTED = `mutation($input: StartRaceInput!) { startRace(input: $input) { id warnings } }`;
  const STORED = `query($id: ID!) { race(id: $id) { status warnings verdictSummary
    runs { writers { name committed errorMessage outcome } verdict { status summary failedWriters { name }
      nothingToCommit { name summary } } } } }`;
  interface Stored {
    status: string;
    warnings: string[];
    verdictSummary: string | null;
    runs: {
      writers: { name: string; committed: boolean; errorMessage: string | null; outcome: string }[];
      verdict: { status: string; summary: string; failedWriters: { name: string }[]; nothingToCommit: object[] };
    }[];
  }

  it('warns when submitted; each writer ends with nothing to commit, no failure, data OK', async () => {
    const location = copied('dv-small', 'no-match');
    const deleteOf = (name: string, predicate: string) => ({ name, operation: 'delete', predicate });
    const started = await gql<{ startRace: { id: string; warnings: string[] } }>(
      stack.apiUrl,
      STARTED,
      {
        input: {
          tableLocation: location,
          writers: [deleteOf('del1', 'value = 1000'), deleteOf('del2', 'value > 99')],
          runs: 1,
        },
      },
      stack.token,
    );
    expect(started.errors).toBeUndefined();
    expect(started.data?.startRace.warnings).toEqual([
      'writer del1: value = 1000 matches no rows of the table as it is now, so its delete will end with nothing to commit',
      'writer del2: value > 99 matches no rows of the table as it is now, so its delete will end with nothing to commit',
    ]);
    const id = started.data?.startRace.id as string;
    // The race's events as it ran: the run's end names each writer's outcome.
    const said: string[] = [];
    for await (const e of subscribe<{ raceProgress: { message: string } }>(stack.apiUrl, PROGRESS, { id })) {
      said.push(e.raceProgress.message);
    }
    expect(said).toContain(
      'run 1/1 done: del1 matched no rows: nothing to commit; del2 matched no rows: nothing to commit',
    );
    const r = await gql<{ race: Stored }>(stack.apiUrl, STORED, { id });
    expect(r.errors).toBeUndefined();
    const race = r.data?.race as Stored;
    expect(race.status).toBe('DONE');
    expect(race.warnings).toHaveLength(2);
    const [run] = race.runs;
    expect(run?.writers.map((w) => [w.name, w.committed, w.errorMessage, w.outcome])).toEqual([
      ['del1', false, null, 'NOTHING_TO_COMMIT'],
      ['del2', false, null, 'NOTHING_TO_COMMIT'],
    ]);
    expect(run?.verdict).toEqual({
      status: 'serializable',
      summary: 'data OK',
      failedWriters: [],
      nothingToCommit: [
        { name: 'del1', summary: "del1's delete matched no rows: nothing to commit" },
        { name: 'del2', summary: "del2's delete matched no rows: nothing to commit" },
      ],
    });
    expect(race.verdictSummary).toBe(
      "data OK in 1 of 1; del1's delete matched no rows: nothing to commit (1 of 1); del2's delete matched no rows: nothing to commit (1 of 1)",
    );
    expect(race.verdictSummary).not.toContain('failed');
  });

  it('says nothing when every predicate matches rows', async () => {
    const location = copied('dv-small', 'some-match');
    const started = await gql<{ startRace: { id: string; warnings: string[] } }>(
      stack.apiUrl,
      STARTED,
      {
        input: {
          tableLocation: location,
          writers: [updateOf('one', 'value = 1', 'value', 'value + 1'), updateOf('eight', 'value = 8', 'value', '0')],
          runs: 1,
        },
      },
      stack.token,
    );
    expect(started.errors).toBeUndefined();
    expect(started.data?.startRace.warnings).toEqual([]);
    await raceToEnd(started.data?.startRace.id as string);
  });
});

describe('startRace with tableLocation: refused before anything is stored or queued', () => {
  it('refuses a table whose protocol names a writer feature delta-rs 1.6.x does not write, naming it', async () => {
    const location = copied('dv-small', 'with-domain-metadata');
    // A later commit that only raises the protocol: the table still reads, but delta-rs 1.6.x would not write it.
    const protocol = {
      minReaderVersion: 3,
      minWriterVersion: 7,
      readerFeatures: ['deletionVectors'],
      writerFeatures: ['deletionVectors', 'domainMetadata'],
    };
    writeFileSync(
      join(stack.dir, 'tables', location, '_delta_log', '00000000000000000002.json'),
      `${JSON.stringify({ commitInfo: { timestamp: Date.now(), operation: 'UPGRADE PROTOCOL' } })}\n${JSON.stringify({ protocol })}\n`,
    );
    const before = await stored();
    const r = await startRace({ tableLocation: location, writers: RACES[0]?.writers, runs: 1 });
    expect(r.data).toBeNull();
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.errors?.[0]?.message).toMatch(/domainMetadata|DomainMetadata/);
    expect(r.errors?.[0]?.message).not.toContain(stack.dir);
    expect(await stored()).toEqual(before);
  });

  it('names every problem at once: a day, a column the table lacks, a source file outside the roots', async () => {
    const location = copied('dv-small', 'for-problems');
    mkdirSync(join(stack.dir, 'outside'), { recursive: true });
    const before = await stored();
    const r = await startRace({
      tableLocation: location,
      writers: [
        { name: 'feb', operation: 'append', day: '2025-02-01' },
        updateOf('typo', 'valu = 1', 'value', '1'),
        { name: 'feed', operation: 'append', sourceLocation: '../outside/rows.parquet' },
      ],
    });
    expect(r.data).toBeNull();
    const error = r.errors?.[0];
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    const problems = error?.extensions?.problems ?? [];
    expect(problems).toContain(
      "writer feb: day is one of the lab's February days; a table of your own takes sourceLocation or sample",
    );
    expect(problems.some((p) => p.startsWith('writer typo: predicate:') && p.includes("'valu'"))).toBe(true);
    expect(problems.some((p) => p.startsWith('writer feed: sourceLocation:'))).toBe(true);
    expect(error?.message).toBe(problems.join('; '));
    expect(error?.message).not.toContain(stack.dir);
    expect(await stored()).toEqual(before);
  });

  it('refuses a tableLocation outside the roots and a lab alias, with the stage-1 problems beside it', async () => {
    const before = await stored();
    const writers = RACES[0]?.writers;
    const outside = await startRace({ tableLocation: '../outside', writers, runs: 0 });
    expect(outside.errors?.[0]?.extensions?.problems).toEqual([
      "tableLocation: '..' is not allowed in a table location; give the path under the table root (LAB_ROOTS)",
      'runs must be a whole number from 1 to 50, got 0',
    ]);
    const alias = await startRace({ tableLocation: 'lab:flat@0.01', writers });
    expect(alias.errors?.[0]?.message).toBe(
      "tableLocation names a table of your own; the lab's tables are raced with table (flat or partitioned)",
    );
    expect(await stored()).toEqual(before);
  });
});
