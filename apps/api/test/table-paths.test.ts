/**
 * Tables under LAB_ROOTS whose logs name a path the product refuses on purpose, over a real API, worker and
 * Postgres: a deletion vector at an absolute path outside the roots (a file of distinct bytes, and /etc/passwd),
 * and a data file that is a symlink. tableLayout refuses them with TABLE_REFUSED, auditJobs says the table is
 * unreadable with the refusal, startRace refuses them before anything is stored, each naming the file by its key
 * in the table; no byte of the outside file and no server path reaches the client.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWithPathVector, copyWithSymlinkedData } from '../../../fixtures/planted';
import { gql } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const SECRET = 'OUTSIDE-SECRET-BYTES';

const LAYOUT = `query($l: String!, $c: String) { tableLayout(location: $l, countBy: $c) { files { path rows } } }`;
const AUDIT = `mutation($m: String!) { auditJobs(manifest: $m) { failed findings { rule evidence } } }`;
const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id } }`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** The location of `own/<name>` under the roots, and its folder. */
function ownTable(name: string): { location: string; dir: string } {
  const location = `own/${name}`;
  return { location, dir: join(stack.dir, 'tables', location) };
}

/** A copy whose vector is a `p` vector at `uri`; its location. */
function plantedVector(name: string, uri: string): string {
  const { location, dir } = ownTable(name);
  copyWithPathVector(dir, uri);
  return location;
}

/** A copy whose data file is a symlink to the file, moved outside the roots; its location and the file's key. */
function symlinkedData(name: string): { location: string; key: string } {
  const { location, dir } = ownTable(name);
  const key = copyWithSymlinkedData(dir, join(stack.dir, 'outside', `${name}.parquet`));
  return { location, key };
}

const manifest = (table: string) =>
  JSON.stringify({
    jobs: ['value = 1', 'value = 8'].map((predicate, i) => ({
      name: `job${i}`,
      table,
      engine: 'delta-rs 1.6.6',
      operation: 'update',
      predicate,
      onCommitFailed: 'redo-whole-change',
    })),
  });

const writers = [
  { name: 'low', operation: 'update', predicate: 'value = 1', set: [{ key: 'value', value: 'value + 100' }] },
  { name: 'high', operation: 'update', predicate: 'value = 8', set: [{ key: 'value', value: 'value + 200' }] },
];

const storedRaces = async () =>
  Number((await stack.sql<{ n: string }>('SELECT count(*)::text AS n FROM "Race"'))[0]?.n);

describe('tables whose logs name paths the product refuses', () => {
  const cases = [
    {
      what: 'a deletion vector in a file outside the roots',
      plant: () => {
        const file = join(stack.dir, 'outside', 'dv.bin');
        writeFileSync(file, `${SECRET}${'x'.repeat(64)}`);
        const location = plantedVector('outside-dv', pathToFileURL(file).href);
        return {
          location,
          named:
            /refusing the deletion vector of 'part-[^']+\.parquet': its file is at an absolute path outside the table/,
        };
      },
    },
    {
      what: 'a deletion vector at /etc/passwd',
      plant: () => ({
        location: plantedVector('passwd-dv', 'file:///etc/passwd'),
        named:
          /refusing the deletion vector of 'part-[^']+\.parquet': its file is at an absolute path outside the table/,
      }),
    },
    {
      what: 'a data file that is a symlink',
      plant: () => {
        const { location, key } = symlinkedData('linked-data');
        return { location, named: new RegExp(`'${key.replace(/[.]/g, '\\.')}'.*symlink`) };
      },
    },
  ];

  beforeAll(() => mkdirSync(join(stack.dir, 'outside'), { recursive: true }));

  it.each(cases)('$what: refused by tableLayout, auditJobs and startRace, by its key', async ({ plant }) => {
    const { location, named } = plant();
    const clean = (text: string) => {
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/root:|nologin/);
      expect(text).not.toContain(stack.dir);
    };

    // tableLayout, with no token, from loopback: counting reads every file and vector.
    const layout = await gql(stack.apiUrl, LAYOUT, { l: location, c: 'value' });
    expect(layout.data).toBeNull();
    expect(layout.errors?.[0]?.extensions?.code).toBe('TABLE_REFUSED');
    expect(layout.errors?.[0]?.message).toMatch(named);
    expect(layout.errors?.[0]?.message.startsWith(`${location}: `)).toBe(true);
    clean(JSON.stringify(layout));

    // auditJobs: the table is unreadable, said with the refusal.
    const audit = await gql<{ auditJobs: { failed: boolean; findings: { rule: string; evidence: string }[] } }>(
      stack.apiUrl,
      AUDIT,
      { m: manifest(location) },
      stack.token,
    );
    expect(audit.errors).toBeUndefined();
    const finding = audit.data?.auditJobs.findings.find((f) => f.rule === 'table-unreadable');
    expect(finding?.evidence).toMatch(named);
    clean(JSON.stringify(audit));

    // startRace: refused before anything is stored, naming the file.
    const before = await storedRaces();
    const race = await gql(stack.apiUrl, START, { input: { tableLocation: location, writers, runs: 1 } }, stack.token);
    expect(race.data).toBeNull();
    expect(race.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(race.errors?.[0]?.message).toMatch(named);
    clean(JSON.stringify(race));
    expect(await storedRaces()).toBe(before);
  });
});
