/**
 * `tableHistory` over real HTTP against the real API on a real Postgres: a table whose log alone says who was
 * concurrent with whom (fixtures/history-log.ts) read back commit by commit, each with the evidence it has; and every
 * refusal with its own code, checked before any file is read, never naming a server folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_LOG_TRUTH, writeHistoryLog } from '../../../fixtures/history-log';
import { gql } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const HISTORY = `query($l: String!, $since: String, $key: [String!], $at: Int) {
  tableHistory(location: $l, since: $since, key: $key, atVersion: $at) {
    location failed range { fromVersion latestVersion oldestKept since }
    summary { commits writers concurrentCommits inferredConcurrentCommits unknownConcurrency duplicateKeys
      longestConcurrentChain commitsPerHour busiestHour { start commits concurrentCommits } }
    commits { version timestamp startedAt operation readVersion evidence concurrentWith
      writer { library version engineInfo } }
    rejudgements { version cannotJudge judgements { library level outcome conflict } }
    duplicates { key atVersion distinct truncated
      keys { values { key value } count addedBy { version rows concurrent writer { library } } } }
    findings { rule severity versions evidence fix } } }`;

interface History {
  location: string;
  range: { fromVersion: number; latestVersion: number; since: string | null };
  summary: Record<string, unknown>;
  commits: { version: number; evidence: string; concurrentWith: number[]; writer: { library: string | null } }[];
  findings: { rule: string; severity: string; versions: number[] }[];
}

/** The commits one request reads at most (apps/api/src/graphql/history.ts). */
const API_COMMITS = 20_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
  writeHistoryLog(join(stack.dir, 'tables', 'own', 'history'));
  mkdirSync(join(stack.dir, 'tables', 'own', 'not-a-table'), { recursive: true });
  writeFileSync(join(stack.dir, 'tables', 'own', 'not-a-table', 'x.txt'), 'x');
});
afterAll(async () => {
  await stack?.stop();
});

const history = (variables: Record<string, unknown>) =>
  gql<{ tableHistory: History }>(stack.apiUrl, HISTORY, variables, stack.token);

/** The first error's code and message; the answer must carry no data and no server folder. */
async function refused(variables: Record<string, unknown>) {
  const res = await history(variables);
  expect(res.data ?? null).toBeNull();
  expect(JSON.stringify(res)).not.toContain(stack.dir);
  return { code: res.errors?.[0]?.extensions?.code, message: res.errors?.[0]?.message ?? '' };
}

describe('tableHistory', () => {
  it('answers the table under its location as given, from the time asked for', async () => {
    const res = await history({ l: 'own/history', since: '2026-12-01T00:00:00Z' });
    expect(res.errors).toBeUndefined();
    const h = res.data?.tableHistory as History;
    expect(h.location).toBe('own/history');
    expect(h.range.since).toBe('2026-12-01T00:00:00.000Z');
    expect(h.summary.commits).toBe(h.commits.length);
  });

  it('reads each commit with the evidence its log has: recorded, inferred, unknown', async () => {
    const h = (await history({ l: 'own/history' })).data?.tableHistory as History;
    expect(h.commits.map((c) => c.version)).toEqual(HISTORY_LOG_TRUTH.map((c) => c.version));
    for (const truth of HISTORY_LOG_TRUTH) {
      const c = h.commits.find((x) => x.version === truth.version);
      expect(c?.concurrentWith, `v${truth.version}`).toEqual(truth.concurrentWith);
      if ('evidence' in truth) expect(c?.evidence, `v${truth.version}`).toBe(truth.evidence);
    }
    expect(h.range).toMatchObject({ fromVersion: 0, latestVersion: 4 });
    expect(h.summary).toMatchObject({
      commits: 5,
      writers: 2,
      concurrentCommits: 2,
      inferredConcurrentCommits: 1,
      unknownConcurrency: 1,
      longestConcurrentChain: 3,
      duplicateKeys: null,
    });
    expect(h.findings.map((f) => [f.rule, f.severity, f.versions])).toEqual(
      expect.arrayContaining([
        ['concurrency-unknown', 'warning', [4]],
        ['concurrency-inferred', 'info', [3]],
      ]),
    );
    expect(h.commits.find((c) => c.version === 3)?.writer.library).toBe('delta-rs');
  });

  it.each([
    [{ l: 'own/history', since: 'yesterday' }, /since: 'yesterday' is not a date-time/],
    [{ l: 'own/history', key: ['id', 'id'] }, /key: each column at most once/],
    [{ l: 'own/history', key: [''] }, /key: each column a name of 1 to 255 characters/],
    [{ l: 'own/history', key: Array.from({ length: 9 }, (_, i) => `c${i}`) }, /key: at most 8 columns/],
    [{ l: 'own/history', at: -1 }, /atVersion: a version, 0 or more/],
    [{ l: 'own/history', key: ['no_such_column'] }, /no_such_column/],
    // The log alone is there: keys are read from data files, which this table's log names but does not have.
    [{ l: 'own/history', key: ['id'] }, /the log names 4 data file\(s\) that do not exist: part-v1\.parquet/],
    [{ l: '../etc' }, /'\.\.' is not allowed|not inside/],
    [{ l: 'own/not-a-table' }, /own\/not-a-table is not a Delta table/],
  ])('refuses %j as BAD_USER_INPUT', async (variables, message) => {
    const { code, message: said } = await refused(variables);
    expect(code).toBe('BAD_USER_INPUT');
    expect(said).toMatch(message);
  });

  it('refuses a log longer than one request reads as HISTORY_TOO_LARGE, naming the bound', async () => {
    const dir = join(stack.dir, 'tables', 'own', 'long');
    writeHistoryLog(dir);
    const last = API_COMMITS + 1;
    for (let v = 5; v < last; v++) {
      const name = `${String(v).padStart(20, '0')}.json`;
      writeFileSync(join(dir, '_delta_log', name), `{"commitInfo":{"timestamp":${v},"operation":"WRITE"}}\n`);
    }
    const res = await history({ l: 'own/long' });
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: 'HISTORY_TOO_LARGE',
      bound: 'maxCommits',
      limit: API_COMMITS,
    });
    expect(res.errors?.[0]?.message).toMatch(/^own\/long: .*20000/);
    expect(JSON.stringify(res)).not.toContain(stack.dir);
  });

  it('is asked for once per request', async () => {
    const twice = `query { a: tableHistory(location: "own/history") { location }
      b: tableHistory(location: "own/history") { location } }`;
    const res = await gql(stack.apiUrl, twice, {}, stack.token);
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.message).toMatch(/tableHistory/);
  });
});
