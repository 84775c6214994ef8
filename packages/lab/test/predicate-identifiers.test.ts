/**
 * Column names in a custom race given to the lab's command line (`npm run lab -- --table T --writers FILE`),
 * as a user runs it: matched exactly, as delta-rs 1.6 matches them, so `VendorId` and `vendorid` on a table
 * whose column is `VendorID` are refused (exit 2) with the column named and every valid name listed, before
 * any writer starts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { field, writeDeltaTable } from '@racelab/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runLab } from './helpers/lab-cli';

let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'racelab-identifiers-'));
  mkdirSync(join(tmp, 'tables'));
  await writeDeltaTable(join(tmp, 'tables', 'trips'), {
    kind: 'rows',
    rows: [
      { VendorID: 1, fare_amount: 10 },
      { VendorID: 2, fare_amount: 20 },
    ],
    schema: { type: 'struct', fields: [field('VendorID', 'long'), field('fare_amount', 'double')] },
  });
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('lab --table refuses a name that differs from a column only in case, naming it and the valid names (exit 2)', () => {
  const writers = join(tmp, 'race.json');
  writeFileSync(
    writers,
    JSON.stringify({
      writers: [
        { name: 'cased', operation: 'delete', predicate: 'VendorId = 1' },
        { name: 'exact', operation: 'update', predicate: '"VendorID" = 2', set: { vendorid: '3' } },
      ],
    }),
  );
  const work = join(tmp, 'work');
  const r = runLab(['--table', 'trips', '--writers', writers, '--work-dir', work], { LAB_ROOTS: join(tmp, 'tables') });
  expect(r.status, r.stderr).toBe(2);
  const hint =
    "(column names are case-sensitive, as in delta-rs: did you mean 'VendorID'?); columns are: VendorID, fare_amount";
  expect(r.stderr).toContain(`writer cased: predicate: unknown column 'VendorId' at position 1 in predicate ${hint}`);
  expect(r.stderr).toContain(`writer exact: set vendorid: unknown column 'vendorid' in schema ${hint}`);
  expect(r.stderr).not.toContain('writer exact: predicate');
  expect(r.stderr).toContain('the race was refused');
});
