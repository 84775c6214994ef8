/**
 * Every path a table's log names is judged before anything there is opened, on every way the lab opens a user's
 * table: the layout, the audit, a race's preparation and copy, the forecast. Tables under the roots are planted
 * with a deletion vector at an absolute path outside them (a file of distinct bytes, and /etc/passwd) and with a
 * data file that is a symlink; each way in refuses, naming the file by its key in the table, and no byte of the
 * outside file reaches what it answers. Real files and DuckDB, no mocks.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DeltaTable, PathRefusedError } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { copyWithPathVector, copyWithSymlinkedData } from '../../../fixtures/planted';
import { auditJobs, type Job } from '../src/audit/index';
import { CaseInputError } from '../src/cases/custom';
import { locationCase } from '../src/cases/location';
import { forecastConflict } from '../src/forecast/conflict-forecast';
import { CopyRefusedError } from '../src/tables/copy-refusals';
import { freshCopy } from '../src/tables/fresh-copy';
import { tableLayout } from '../src/tables/layout';
import type { LocationConfig } from '../src/tables/locations';

const DV_TABLE = fixture('delta-golden', 'table-with-dv-small');
/** What the planted outside file holds: were it read, these bytes could surface in an error or a finding. */
const SECRET = 'OUTSIDE-SECRET-BYTES';

let tmp: string;
let cfg: LocationConfig;
let outsideFile: string;
const tables = () => join(tmp, 'tables');

/** The DV golden table copied under the roots as `name`, its vector moved to `uri` as a `p` vector; its folder. */
function plantedVector(name: string, uri: string): string {
  const dir = join(tables(), name);
  copyWithPathVector(dir, uri);
  return dir;
}

/** The DV golden table copied under the roots as `name`, its data file a symlink to the file moved outside. */
function symlinkedData(name: string): { dir: string; key: string } {
  const dir = join(tables(), name);
  return { dir, key: copyWithSymlinkedData(dir, join(tmp, 'outside', `${name}.parquet`)) };
}

const job = (name: string, table: string, predicate: string): Job => ({
  name,
  table,
  engine: 'delta-rs 1.6.6',
  operation: 'update',
  predicate,
  onCommitFailed: 'redo-whole-change',
});

const updates = [
  { name: 'low', operation: 'update', predicate: 'value = 1', set: { value: 'value + 100' } },
  { name: 'high', operation: 'update', predicate: 'value = 8', set: { value: 'value + 200' } },
];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'racelab-table-paths-'));
  mkdirSync(tables());
  mkdirSync(join(tmp, 'outside'));
  outsideFile = join(tmp, 'outside', 'dv.bin');
  writeFileSync(outsideFile, `${SECRET}${'x'.repeat(64)}`);
  cfg = { roots: [tables()], workDir: join(tmp, 'work') };
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Whatever an entry point answered or threw, as text. */
const said = async (run: () => Promise<unknown>): Promise<{ value?: unknown; error?: unknown; text: string }> => {
  try {
    const value = await run();
    return { value, text: JSON.stringify(value) };
  } catch (error) {
    const problems = (error as { problems?: string[] }).problems ?? [];
    return { error, text: `${(error as Error).message}\n${problems.join('\n')}` };
  }
};

describe('a deletion vector at an absolute path outside the roots', () => {
  const planted = [
    ['a file of its own outside the roots', () => pathToFileURL(outsideFile).href],
    ['/etc/passwd', () => 'file:///etc/passwd'],
  ] as const;

  it.each(planted)('%s: every way in refuses it, naming the data file, and never reads it', async (label, uri) => {
    const name = `outside-${label.length}`;
    plantedVector(name, uri());
    const location = join(tables(), name);
    const noOutsideBytes = (text: string) => {
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/root:|nologin|passwd/);
      expect(text).not.toContain(tmp);
    };
    const refusal =
      /refusing the deletion vector of 'part-[^']+\.parquet': its file is at an absolute path outside the table/;

    // The layout, both ways the lab opens it: by location, and opened with the roots as the API does.
    for (const open of [
      () => tableLayout(location, undefined, { predicates: ['value > 0'] }),
      async () => tableLayout(await DeltaTable.open(location, { roots: cfg.roots }), 'value'),
    ]) {
      const r = await said(open);
      expect(r.error).toBeInstanceOf(PathRefusedError);
      expect(r.text).toMatch(refusal);
      noOutsideBytes(r.text);
    }

    // The forecast.
    const update = (name: string, predicate: string) => ({
      name,
      operation: { kind: 'update' as const, predicate, set: { value: 'value + 1' } },
    });
    const forecast = await said(() =>
      forecastConflict({ table: location, first: update('a', 'value = 1'), second: update('b', 'value = 8') }),
    );
    expect(forecast.error).toBeInstanceOf(PathRefusedError);
    noOutsideBytes(forecast.text);

    // The audit: the table is unreadable, said with the refusal; the finding quotes nothing of the file.
    const audit = await auditJobs({ jobs: [job('a', name, 'value = 1'), job('b', name, 'value = 8')] }, cfg);
    const finding = audit.findings.find((f) => f.rule === 'table-unreadable');
    expect(finding?.evidence).toMatch(refusal);
    noOutsideBytes(JSON.stringify(audit));

    // A race's preparation, and its copy.
    const race = await said(() => locationCase({ location: name, writers: updates }, cfg));
    expect(race.error).toBeInstanceOf(CaseInputError);
    expect(race.text).toMatch(refusal);
    noOutsideBytes(race.text);
    const dest = join(cfg.workDir, 'runs', `copy-${name}`);
    const copy = await said(() => freshCopy(location, dest, { roots: cfg.roots }));
    expect(copy.error).toBeInstanceOf(PathRefusedError);
    noOutsideBytes(copy.text);
    expect(existsSync(dest)).toBe(false);
  });

  it('a vector inside the roots but outside the table is read, and a copy owns it', async () => {
    const shared = join(tables(), 'shared-dvs');
    mkdirSync(shared);
    const dvName = readdirSync(DV_TABLE).find((f) => f.startsWith('deletion_vector_')) as string;
    cpSync(join(DV_TABLE, dvName), join(shared, dvName));
    const source = plantedVector('inside-roots', pathToFileURL(join(shared, dvName)).href);
    // The fixture's vector starts at offset 1 of its file, as plantedVector names it.
    const expected = await (await DeltaTable.open(DV_TABLE)).count();
    expect(await (await DeltaTable.open(source, { roots: cfg.roots })).count()).toBe(expected);
    await expect(DeltaTable.open(source)).rejects.toThrow(PathRefusedError);
    const dest = join(cfg.workDir, 'runs', 'copy-inside-roots');
    await freshCopy(source, dest, { roots: cfg.roots });
    // The copy reads its own vector, with no roots at all.
    expect(await (await DeltaTable.open(dest)).count()).toBe(expected);
  });
});

describe('a data file that is a symlink', () => {
  it('is refused up front by a race, naming its key; the copy leaves no folder; the layout and audit refuse it', async () => {
    const { dir, key } = symlinkedData('linked');
    const race = await said(() => locationCase({ location: 'linked', writers: updates }, cfg));
    expect(race.error).toBeInstanceOf(CaseInputError);
    expect(race.text).toContain(`linked: refusing '${key}': it is or passes through a symlink inside the table`);
    expect(race.text).not.toContain(tmp);

    const dest = join(cfg.workDir, 'runs', 'copy-linked');
    const copy = await said(() => freshCopy(dir, dest, { roots: cfg.roots, display: 'linked' }));
    expect(copy.error).toBeInstanceOf(CopyRefusedError);
    expect(copy.text).toContain(key);
    expect(existsSync(dest)).toBe(false);

    const layout = await said(() => tableLayout(dir, 'value'));
    expect(layout.error).toBeInstanceOf(PathRefusedError);
    expect(layout.text).toContain(`refusing '${key}': it is or passes through a symlink`);

    const audit = await auditJobs({ jobs: [job('a', 'linked', 'value = 1'), job('b', 'linked', 'value = 8')] }, cfg);
    expect(audit.findings.find((f) => f.rule === 'table-unreadable')?.evidence).toContain(`refusing '${key}'`);
  });
});
