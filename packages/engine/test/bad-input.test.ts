/**
 * Bad input gets one clear error that names the file or the problem, and nothing is written: a
 * corrupt commit line, a gap in the log, a missing data file, data with the wrong columns, and
 * predicates with unknown columns or injection attempts.
 */
import { appendFileSync, cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commit, DataFileMissingError, DeltaTable, field, LogFormatError, writeDeltaTable } from '../src/index';
import { TAXI, taxiRows } from './helpers/taxi';
import { tempDir } from './helpers/tmp';

const root = tempDir('bad');
const base = join(root, 'base');
const rows = (n: number, first = 0) => ({
  kind: 'rows' as const,
  schema: TAXI,
  rows: taxiRows('2025-01-15', first, n),
});

/** Every file under a folder, for "nothing was written" checks. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function copyOfBase(name: string): string {
  const dir = join(root, name);
  cpSync(base, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  await writeDeltaTable(base, rows(100));
  await writeDeltaTable(base, rows(10, 1000), { mode: 'append' });
  await writeDeltaTable(base, rows(10, 2000), { mode: 'append' });
});

describe('a damaged log', () => {
  it('names the file and line of a corrupt commit, and a write to the table adds nothing', async () => {
    const dir = copyOfBase('corrupt');
    appendFileSync(join(dir, '_delta_log/00000000000000000001.json'), '\n{"add": {"path": 42}');
    const err = /00000000000000000001\.json: line \d+ is not valid JSON/;
    await expect(DeltaTable.open(dir)).rejects.toThrow(err);
    const before = tree(dir);
    await expect(writeDeltaTable(dir, rows(5, 3000), { mode: 'append' })).rejects.toThrow(err);
    expect(tree(dir)).toEqual(before);
  });

  it.each([
    ['0 bytes', ''],
    ['only whitespace', ' \n\n\t\n'],
  ])('refuses a commit file of %s as damage, in every reader of commits', async (name, text) => {
    const dir = copyOfBase(`empty-commit-${name.replace(/\W/g, '-')}`);
    const before = await DeltaTable.open(dir);
    const err = /00000000000000000003\.json: the commit file is empty \(a commit holds at least one action\)/;
    writeFileSync(join(dir, '_delta_log/00000000000000000003.json'), text);
    // A load after one this process made (incremental), a fresh load of the latest version, time travel to it.
    await expect(DeltaTable.open(dir)).rejects.toThrow(LogFormatError);
    await expect(DeltaTable.open(dir)).rejects.toThrow(err);
    await expect(DeltaTable.open(dir, { version: 3 })).rejects.toThrow(err);
    expect(await (await DeltaTable.open(dir, { version: 2 })).count()).toBe(120);
    // A commit judging the empty entry as a winner.
    const info = { commitInfo: { timestamp: Date.now(), operation: 'WRITE' } };
    await expect(
      commit({ store: before.store, readVersion: 2, actions: [info], checkWinner: () => {}, readState: before.state }),
    ).rejects.toThrow(err);
    const files = tree(dir);
    await expect(writeDeltaTable(dir, rows(5, 3000), { mode: 'append' })).rejects.toThrow(err);
    expect(tree(dir)).toEqual(files);
  });

  it('names the action and field of a line with the wrong shape', async () => {
    const dir = copyOfBase('shape');
    appendFileSync(join(dir, '_delta_log/00000000000000000002.json'), '\n{"add":{"path":"x.parquet","size":"big"}}');
    await expect(DeltaTable.open(dir)).rejects.toThrow(
      /00000000000000000002\.json: line 3: add\.partitionValues must map strings to strings/,
    );
  });

  it('names the missing commit of a gap in the versions', async () => {
    const dir = copyOfBase('gap');
    rmSync(join(dir, '_delta_log/00000000000000000001.json'));
    await expect(DeltaTable.open(dir)).rejects.toThrow(
      /cannot load version 2: commit 00000000000000000001\.json is missing/,
    );
    const before = tree(dir);
    await expect(writeDeltaTable(dir, rows(5, 3000), { mode: 'append' })).rejects.toThrow(/is missing/);
    expect(tree(dir)).toEqual(before);
  });

  it('refuses a folder that is not a Delta table', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir);
    await expect(DeltaTable.open(dir)).rejects.toThrow(/is not a Delta table/);
  });

  it('names a data file that the log names but is missing', async () => {
    const dir = copyOfBase('missing-file');
    const t = await DeltaTable.open(dir);
    const victim = t.activeFiles()[1]?.path as string;
    rmSync(join(dir, victim));
    const scan = t.count();
    await expect(scan).rejects.toThrow(DataFileMissingError);
    await expect(t.count()).rejects.toThrow(victim);
  });
});

describe('bad data and bad expressions', () => {
  it('refuses data with a column the table lacks, writing no file, as delta-rs does', async () => {
    const dir = copyOfBase('extra-column');
    const before = tree(dir);
    const schema = { type: 'struct' as const, fields: [...TAXI.fields, field('surprise', 'string')] };
    const data = taxiRows('2025-01-16', 5000, 3).map((r) => ({ ...r, surprise: 'x' }));
    await expect(writeDeltaTable(dir, { kind: 'rows', schema, rows: data }, { mode: 'append' })).rejects.toThrow(
      `Cannot cast schema, number of fields does not match: ${TAXI.fields.length + 1} vs ${TAXI.fields.length}`,
    );
    expect(tree(dir)).toEqual(before);
  });

  it('refuses unknown columns and injection attempts in predicates before touching SQL', async () => {
    const t = await DeltaTable.open(base);
    await expect(t.count('foo = 1')).rejects.toThrow(/unknown column 'foo'/);
    await expect(t.count('VendorID = 1; DROP TABLE x')).rejects.toThrow(/;/);
    await expect(t.count("read_csv('/etc/passwd') IS NOT NULL")).rejects.toThrow(/read_csv/);
    await expect(t.count('VendorID = 1 -- comment')).rejects.toThrow(/comment/i);
    expect(await t.count('VendorID = 1')).toBeGreaterThan(0);
  });
});
