/**
 * Races on copies of tables that are not the lab's: real writer processes, DuckDB and the serial-replay oracle
 * on copies of Delta golden tables (deletion vectors, column mapping), appends from a sample and from a file,
 * an overwrite from a file, and every refusal made before any writer starts. The sources' bytes are hashed
 * before and after: a race never writes them.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCommitInfo, commit, readCommit, storeFor, withConnection } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { CaseInputError } from '../src/cases/custom';
import { locationCase } from '../src/cases/location';
import { runLab } from '../src/lab';
import { freshCopy } from '../src/tables/fresh-copy';
import type { LocationConfig } from '../src/tables/locations';

const DV_TABLE = fixture('delta-golden', 'table-with-dv-small');
const CM_TABLE = fixture('delta-spark-golden', 'table-with-columnmapping-mode-name', 'delta');

let tmp: string;
let cfg: LocationConfig;
const tables = () => join(tmp, 'tables');

/** Every file under `dir`: its path and a hash of its bytes. */
function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile())
      out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

/** A golden table copied under the roots (the fixtures may be on another filesystem, and are read only). */
function tableFrom(fixture: string, name: string): string {
  const dest = join(tables(), name);
  cpSync(fixture, dest, { recursive: true });
  return dest;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'racelab-any-table-'));
  mkdirSync(tables());
  cfg = { roots: [tables()], workDir: join(tmp, 'work') };
  tableFrom(DV_TABLE, 'dv');
  tableFrom(CM_TABLE, 'cm');
  // Rows to append and to overwrite with: the DV table's one column.
  await withConnection((c) =>
    c.run(
      `COPY (SELECT * FROM (VALUES (100), (101), (102)) t(value)) TO '${join(tables(), 'rows.parquet')}' (FORMAT parquet)`,
    ),
  );
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const labRun = (cases: Parameters<typeof runLab>[0]['cases'], runs = 1) =>
  runLab({ cases, runs, scale: 0.01, workDir: cfg.workDir, roots: cfg.roots });

describe('a race on a copy of any table', () => {
  it('two updates on a copy of the deletion-vector golden table: writers ran, checks and verdict, source untouched', async () => {
    const before = hashes(join(tables(), 'dv'));
    const c = await locationCase(
      {
        location: 'dv',
        writers: [
          { name: 'low', operation: 'update', predicate: 'value = 1', set: { value: 'value + 100' } },
          { name: 'high', operation: 'update', predicate: 'value = 8', set: { value: 'value + 200' } },
        ],
      },
      cfg,
    );
    expect(c.table).toEqual({ location: join(tables(), 'dv'), display: 'dv' });
    const started = Date.now();
    const results = await labRun([c], 2);
    const ms = Date.now() - started;
    console.log(`two updates on the DV table, 2 runs: ${ms} ms`);
    for (const run of results.cases[0]?.runs ?? []) {
      expect(run.writers.map((w) => w.operation)).toEqual(['update', 'update']);
      expect(run.writers.every((w) => w.attempts === 1)).toBe(true);
      // Ten rows written, two deleted by the vector: eight stay eight whatever the updates do.
      expect(run.table).toMatchObject({ rows: 8, distinctTripIds: null, stagingFilesOnDisk: 0, tempLogFilesOnDisk: 0 });
      expect(run.table.tripsOnDay).toBeUndefined();
      expect(run.verdict?.status).toMatch(/serializable|reordered/);
      const committed = run.writers.filter((w) => w.committed).length;
      expect(run.table.version).toBe(committed);
    }
    expect(hashes(join(tables(), 'dv'))).toEqual(before);
  });

  it('an update race on a copy of a column-mapping golden table', async () => {
    const before = hashes(join(tables(), 'cm'));
    const c = await locationCase(
      {
        location: 'cm',
        writers: [
          { name: 'one', operation: 'update', predicate: 'IntegerType = 1', set: { LongType: 'LongType + 1' } },
          { name: 'two', operation: 'delete', predicate: 'IntegerType = 2' },
        ],
      },
      cfg,
    );
    const [run] = (await labRun([c])).cases[0]?.runs ?? [];
    expect(run?.writers.map((w) => w.name)).toEqual(['one', 'two']);
    expect(run?.verdict?.summary).toBeTruthy();
    expect(run?.table.dataFilesInLog).toBeGreaterThan(0);
    expect(hashes(join(tables(), 'cm'))).toEqual(before);
  });

  it('appends from a sample and from a file, an overwrite with a predicate from a file', async () => {
    const before = hashes(join(tables(), 'dv'));
    const appends = await locationCase(
      {
        location: 'dv',
        writers: [
          { name: 'sampled', operation: 'append', sample: 3 },
          { name: 'filed', operation: 'append', sourceLocation: 'rows.parquet' },
        ],
      },
      cfg,
    );
    expect(appends.writers[1]?.operation).toEqual({ kind: 'append', from: { file: join(tables(), 'rows.parquet') } });
    const overwrite = await locationCase(
      {
        location: 'dv',
        writers: [
          { name: 'replace', operation: 'overwrite', predicate: 'value < 5', sourceLocation: 'rows.parquet' },
          { name: 'check', operation: 'check-then-append', predicate: 'value >= 100', sourceLocation: 'rows.parquet' },
        ],
      },
      cfg,
    );
    const results = await labRun([appends, overwrite]);
    const [a, o] = results.cases.map((c) => c.runs[0]);
    // Both appends always commit (appends never conflict): 8 rows, 3 sampled, 3 from the file.
    expect(a?.writers.every((w) => w.committed)).toBe(true);
    expect(a?.table.rows).toBe(14);
    expect(a?.verdict?.status).toMatch(/serializable|reordered/);
    expect(o?.verdict).toBeDefined();
    // Samples are removed with their race.
    expect(readdirSync(join(cfg.workDir, 'samples'))).toEqual([]);
    expect(hashes(join(tables(), 'dv'))).toEqual(before);
  });

  it('version 0 of a copy carries the deletion vectors, txn and domainMetadata of its source', async () => {
    const source = tableFrom(DV_TABLE, 'with-txn');
    await commit({
      store: storeFor(source),
      readVersion: 1,
      actions: [
        { commitInfo: buildCommitInfo({ operation: 'SET TBLPROPERTIES', operationParameters: {} }) },
        { txn: { appId: 'nightly-etl', version: 7, lastUpdated: 1 } },
        { domainMetadata: { domain: 'racelab.test', configuration: '{"k":1}', removed: false } },
      ],
    });
    const before = hashes(source);
    const dest = join(tmp, 'work', 'copy-with-txn');
    const started = Date.now();
    await freshCopy(source, dest, { properties: { 'delta.isolationLevel': 'Serializable' }, roots: cfg.roots });
    console.log(`copy of the DV table: ${Date.now() - started} ms`);
    const v0 = await readCommit(storeFor(dest), 0);
    const add = v0.flatMap((a) => ('add' in a ? [a.add] : []));
    expect(add).toHaveLength(1);
    expect(add[0]?.deletionVector).toMatchObject({ storageType: 'u', cardinality: 2 });
    expect(add[0]?.tags).toMatchObject({ OPTIMIZE_TARGET_SIZE: '268435456' });
    expect(v0).toContainEqual({ txn: { appId: 'nightly-etl', version: 7, lastUpdated: 1 } });
    expect(v0).toContainEqual({ domainMetadata: { domain: 'racelab.test', configuration: '{"k":1}', removed: false } });
    const meta = v0.flatMap((a) => ('metaData' in a ? [a.metaData] : []))[0];
    expect(meta?.configuration).toMatchObject({
      'delta.enableDeletionVectors': 'true',
      'delta.isolationLevel': 'Serializable',
    });
    // The DV file is a hard link of the source's, the data file too.
    const dvFile = readdirSync(source).find((f) => f.startsWith('deletion_vector_')) as string;
    expect(statSync(join(dest, dvFile)).ino).toBe(statSync(join(source, dvFile)).ino);
    expect(hashes(source)).toEqual(before);
  });
});

/** The problems locationCase refuses with. */
async function refusal(input: Record<string, unknown>, config: LocationConfig = cfg): Promise<string[]> {
  try {
    await locationCase(input as Parameters<typeof locationCase>[0], config);
  } catch (e) {
    if (e instanceof CaseInputError) return e.problems;
    throw e;
  }
  throw new Error('not refused');
}

const updates = ['u1', 'u2'].map((name, i) => ({
  name,
  operation: 'update',
  predicate: `value = ${i + 1}`,
  set: { value: 'value + 1' },
}));

/** The DV golden table under `name`, upgraded to writer features delta-rs 1.6.x refuses (rowTracking, domainMetadata). */
async function rowTrackingTable(name: string): Promise<void> {
  const source = tableFrom(DV_TABLE, name);
  await commit({
    store: storeFor(source),
    readVersion: 1,
    actions: [
      { commitInfo: buildCommitInfo({ operation: 'UPGRADE PROTOCOL', operationParameters: {} }) },
      {
        protocol: {
          minReaderVersion: 3,
          minWriterVersion: 7,
          readerFeatures: ['deletionVectors'],
          writerFeatures: ['deletionVectors', 'rowTracking', 'domainMetadata'],
        },
      },
    ],
  });
}

describe('refused before any writer starts', () => {
  it('names the writer feature delta-rs 1.6.x refuses', async () => {
    await rowTrackingTable('row-tracking');
    const problems = await refusal({ location: 'row-tracking', writers: updates });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('RowTracking');
    expect(problems[0]).toContain('DomainMetadata');
  });

  it('a table on another filesystem than the work folder', async () => {
    // /dev/shm is tmpfs on the Debian hosts the tests run on; the work folder is on the disk. A host without a
    // second filesystem fails here, saying so, rather than skipping: a skipped refusal test proves nothing.
    const shm = mkdtempSync('/dev/shm/racelab-');
    try {
      expect(statSync(shm).dev, '/dev/shm must be another filesystem than the temp folder').not.toBe(statSync(tmp).dev);
      cpSync(DV_TABLE, join(shm, 'dv'), { recursive: true });
      const problems = await refusal(
        { location: join(shm, 'dv'), writers: updates },
        { ...cfg, roots: [...cfg.roots, shm] },
      );
      expect(problems).toEqual([expect.stringContaining('is on another filesystem than the lab')]);
      // The table as the user named it; the server's work folder never.
      expect(problems[0]).not.toContain(cfg.workDir);
    } finally {
      rmSync(shm, { recursive: true, force: true });
    }
  });

  it('a deletion vector at an absolute path outside the roots, without naming the path', async () => {
    const source = tableFrom(DV_TABLE, 'absolute-dv');
    const outside = mkdtempSync(join(tmp, 'outside-'));
    const log = join(source, '_delta_log', '00000000000000000001.json');
    const dvName = readdirSync(source).find((f) => f.startsWith('deletion_vector_')) as string;
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .map((line) => {
        if (!line.includes('"deletionVector"')) return line;
        const action = JSON.parse(line);
        action.add.deletionVector = {
          ...action.add.deletionVector,
          storageType: 'p',
          pathOrInlineDv: pathToFileURL(join(outside, dvName)).href,
        };
        return JSON.stringify(action);
      });
    writeFileSync(log, lines.join('\n'));
    const problems = await refusal({ location: 'absolute-dv', writers: updates });
    expect(problems).toEqual([
      expect.stringMatching(
        /^absolute-dv: refusing the deletion vector of 'part-[^']+\.parquet': its file is at an absolute path outside the table/,
      ),
    ]);
    expect(problems[0]).not.toContain(outside);
  });

  it('a lab alias as a location, and every problem at once', async () => {
    expect(await refusal({ location: 'lab:flat@1', writers: updates })).toEqual([
      expect.stringContaining('race it with table'),
    ]);
    const problems = await refusal({
      location: 'dv',
      writers: [
        { name: 'bad', operation: 'update', predicate: 'nope = 1', set: { value: 'value + 1' } },
        { name: 'file', operation: 'append', sourceLocation: '../elsewhere.parquet' },
      ],
    });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toMatch(/nope/);
    expect(problems.join('\n')).toMatch(/writer file: sourceLocation/);
  });
});

describe('npm run lab -- --table LOCATION --writers FILE', () => {
  const LAB = fileURLToPath(new URL('../src/cli/lab.ts', import.meta.url));
  const lab = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', LAB, ...args, '--work-dir', cfg.workDir], {
      encoding: 'utf8',
      env: { ...process.env, LAB_ROOTS: tables() },
      timeout: 120_000,
    });

  it('races the writers of the file and writes the results; a refusal exits 2 with every problem', async () => {
    const writers = join(tmp, 'race.json');
    writeFileSync(writers, JSON.stringify({ writers: updates }));
    const json = join(tmp, 'results.json');
    const ok = lab([
      '--table',
      'dv',
      '--writers',
      writers,
      '--runs',
      '1',
      '--json',
      json,
      '--properties',
      'delta.isolationLevel=Serializable',
    ]);
    expect(ok.status, ok.stderr).toBe(0);
    const results = JSON.parse(readFileSync(json, 'utf8'));
    expect(results.cases[0].runs[0].table.rows).toBe(8);
    expect(ok.stdout).toMatch(/verdict: /);

    await rowTrackingTable('row-tracking-cli');
    const refused = lab(['--table', 'row-tracking-cli', '--writers', writers]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('the race was refused');
    expect(refused.stderr).toContain('RowTracking');
  });
});
