/**
 * What the API refuses, and what it answers about tables: tokens, malformed and oversized input,
 * locations that escape the roots (nothing stored for any of them), then the isolation-string
 * readings, audits, table layouts, the conflict forecast and the isolation matrix.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { field, SPARK_RUN, writeDeltaTable } from '@racelab/engine';
import { scaledFigures } from '@racelab/lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, subscribe } from './helpers/client';
import { type Stack, startStack } from './helpers/stack';

const ADDED =
  "Failed to commit transaction: Commit failed: a concurrent transactions added new data.\nHelp: This transaction's query must be rerun to include the new data. Also, if you don't care to require this check to pass in the future, the isolation level can be set to Snapshot Isolation.";
const F = scaledFigures(0.01);
const START = `mutation($input: StartRaceInput!) { startRace(input: $input) { id } }`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const count = async (table: string) =>
  Number((await stack.sql<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}"`))[0]?.n);

describe('refused input stores nothing', () => {
  it('mutations need a known bearer token', async () => {
    const input = { caseId: 'A1', runs: 1, scale: 0.01 };
    const none = await gql(stack.apiUrl, START, { input });
    expect(none.status).toBe(401);
    expect(none.errors?.[0]).toMatchObject({
      message: 'this needs an API token: send Authorization: Bearer <token>',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const wrong = await gql(stack.apiUrl, START, { input }, 'rl_not_a_token_we_issued');
    expect(wrong.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const audit = await gql(stack.apiUrl, 'mutation { auditTables(locations: ["lab:flat@0.01"]) { flagged } }');
    expect(audit.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await count('Race')).toBe(0);
    expect(await count('Audit')).toBe(0);
  });

  it('malformed races are refused with every problem named', async () => {
    const refused = async (input: Record<string, unknown>) => {
      const r = await gql(stack.apiUrl, START, { input }, stack.token);
      expect(r.data).toBeNull();
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      return r.errors?.[0];
    };
    expect((await refused({ caseId: 'B1', runs: 0 }))?.message).toBe('runs must be a whole number from 1 to 50, got 0');
    expect((await refused({ caseId: 'B1', runs: 51 }))?.message).toBe(
      'runs must be a whole number from 1 to 50, got 51',
    );
    expect((await refused({ caseId: 'B1', scale: 2 }))?.message).toBe('scale must be from 0.01 to 1, got 2');
    expect((await refused({ caseId: 'Z9' }))?.message).toMatch(/Z9/);
    // A case whose store is not there is refused with its own code, before anything is stored.
    const h1 = await gql(stack.apiUrl, START, { input: { caseId: 'H1', runs: 1, scale: 0.01 } }, stack.token);
    expect(h1.data).toBeNull();
    expect(h1.errors?.[0]).toMatchObject({
      message: expect.stringMatching(
        /^H1 needs a store that ignores put-if-absent .* start it with a table root on S3$/,
      ),
      extensions: { code: 'STORE_NEEDED' },
    });
    // Jobs of one's own run only where the server names the folders they may come from: its own code without them.
    const job = { name: 'job1', command: ['python3', 'check_then_append.py'], cwd: '/srv/jobs' };
    const jobs = { writers: [job, { ...job, name: 'job2' }], runs: 1, scale: 0.01 };
    const off = await gql(stack.apiUrl, START, { input: jobs }, stack.token);
    expect(off.data).toBeNull();
    expect(off.errors?.[0]).toMatchObject({
      message:
        'command writers (jobs of your own) are not accepted here: the server names no folders they may come from (LAB_JOB_ROOTS)',
      extensions: { code: 'JOB_COMMANDS_OFF' },
    });
    expect((await refused({}))?.message).toBe('give either caseId (a preset) or writers (a custom race), not both');
    const custom = await refused({
      writers: [
        {
          name: 'a',
          operation: 'update',
          predicate: 'VendorID = 1; DROP TABLE x',
          set: [{ key: 'tip_amount', value: '1' }],
        },
        { name: 'b', operation: 'delete', predicate: 'no_such_column > 1' },
      ],
    });
    expect(custom?.extensions?.problems).toHaveLength(2);
    expect(custom?.extensions?.problems?.[1]).toMatch(/^writer b: predicate: .*no_such_column/);
    const props = await refused({ caseId: 'B1', tableProperties: [{ key: 'delta.appendOnly', value: 'maybe' }] });
    expect(props?.message).toBe('table property delta.appendOnly has an unusable value');
    expect(await count('Race')).toBe(0);
  });

  it('oversized, too costly and unparsable requests are refused before any resolver runs', async () => {
    const body = JSON.stringify({ query: `{ cases { id } }`, variables: { pad: 'x'.repeat(70_000) } });
    const big = await fetch(stack.apiUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe(
      `request body of ${Buffer.byteLength(body)} bytes; at most 65536`,
    );
    const costly = await gql(
      stack.apiUrl,
      `{ races(first: 100) { edges { node { runs { writers { name attemptErrors { attempt errorClass errorMessage } } } } } } }`,
    );
    expect(costly.errors?.[0]?.message).toMatch(/^query too costly: at least \d+ fields, at most 60000$/);
    const syntax = await gql(stack.apiUrl, `{ races { `);
    expect(syntax.errors?.[0]?.message).toMatch(/^Syntax Error/);
  });

  it('locations outside the roots are refused: .., absolute paths, symlinks, other schemes', async () => {
    const outside = join(stack.dir, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(stack.dir, 'tables', 'escape'));
    const layout = (location: string) =>
      gql(stack.apiUrl, 'query($l: String!) { tableLayout(location: $l) { version } }', { l: location });
    for (const location of ['../outside', '/etc', 'escape', 'escape/t', 'file:///etc', 'a\u0000b']) {
      const r = await layout(location);
      expect(r.errors?.[0]?.extensions?.code, location).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message, location).not.toMatch(/at .*\.ts:\d+/);
    }
    const audit = await gql(
      stack.apiUrl,
      'mutation($l: [String!]!) { auditTables(locations: $l) { flagged } }',
      { l: ['lab:flat@0.01', '../../etc'] },
      stack.token,
    );
    expect(audit.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await count('Audit')).toBe(0);
    const notATable = await layout('nothing-here');
    expect(notATable.errors?.[0]?.message).toBe('nothing-here does not exist: no table at this location');
  });
});

describe('one wording per fact', () => {
  const message = async (query: string, l: string) =>
    (await gql(stack.apiUrl, query, { l }, stack.token)).errors?.[0]?.message;
  const LAYOUT = 'query($l: String!) { tableLayout(location: $l) { version } }';
  const HISTORY = 'query($l: String!) { tableHistory(location: $l) { failed } }';
  const AUDIT = 'mutation($l: String!) { auditJobs(manifest: $l) { findings { rule evidence } } }';

  it('a location with no table reads the same in the table fields, the history and the jobs audit', async () => {
    mkdirSync(join(stack.dir, 'tables', 'words', 'parquet-only'), { recursive: true });
    writeFileSync(join(stack.dir, 'tables', 'words', 'parquet-only', 'part-0.parquet'), 'PAR1');
    const expected = {
      'words/none': 'words/none does not exist: no table at this location',
      'words/parquet-only':
        'words/parquet-only is not a Delta table: it has no _delta_log/ folder (it holds 1 Parquet file, which no log names)',
    };
    for (const [l, words] of Object.entries(expected)) {
      expect(await message(LAYOUT, l), l).toBe(words);
      expect(await message(HISTORY, l), l).toBe(words);
      const manifest = `jobs:\n  - { name: j, table: ${l}, engine: delta-rs 1.6.6, operation: optimize }\n`;
      const audit = await gql<{ auditJobs: { findings: { rule: string; evidence: string }[] } }>(
        stack.apiUrl,
        AUDIT,
        { l: manifest },
        stack.token,
      );
      expect(audit.data?.auditJobs.findings.find((f) => f.rule === 'table-unreadable')?.evidence, l).toBe(words);
    }
  });

  it('no S3 bucket configured: storeBuckets is empty and probeStore says what to set', async () => {
    const buckets = await gql<{ storeBuckets: string[] }>(stack.apiUrl, '{ storeBuckets }');
    expect(buckets.data?.storeBuckets).toEqual([]);
    const probe = await gql(
      stack.apiUrl,
      'mutation($l: String!) { probeStore(location: $l) { id } }',
      { l: 's3://bucket/prefix' },
      stack.token,
    );
    expect(probe.errors?.[0]?.message).toBe(
      'location: no S3 bucket is configured: set LAB_S3_BUCKETS to the buckets the lab may use (LAB_S3_BUCKETS=bucket for this location)',
    );
  });
});

interface Reading {
  engine: string;
  outcome: string;
  effectiveLevel: string | null;
  flagged: boolean;
  suggestion: string | null;
}

describe('tables', () => {
  it('reads an isolation string the way each engine does', async () => {
    const q = `query($v: String!) { isolationLevelInterpretation(value: $v) { engine outcome effectiveLevel flagged suggestion } }`;
    const capital = await gql<{ isolationLevelInterpretation: Reading[] }>(stack.apiUrl, q, { v: 'WriteSerializable' });
    const byEngine = new Map(capital.data?.isolationLevelInterpretation.map((r) => [r.engine, r]));
    expect(byEngine.get('delta-rs 1.2-1.6.x')).toMatchObject({
      outcome: 'SILENTLY_IGNORED',
      effectiveLevel: 'Serializable',
      flagged: true,
      suggestion: 'writeSerializable',
    });
    // Spark reads it as meant at commit; that its DDL cannot set it is a note, not a flag.
    expect(byEngine.get('Delta Spark')).toMatchObject({
      outcome: 'PARSED',
      effectiveLevel: 'WriteSerializable',
      flagged: false,
    });
    expect(byEngine.get('Databricks')).toMatchObject({ outcome: 'PARSED' });
    const camel = await gql<{ isolationLevelInterpretation: Reading[] }>(stack.apiUrl, q, { v: 'writeSerializable' });
    expect(camel.data?.isolationLevelInterpretation.find((r) => r.engine === 'delta-rs 1.2-1.6.x')).toMatchObject({
      outcome: 'PARSED',
      effectiveLevel: 'WriteSerializable',
      flagged: false,
    });
  });

  it('recommends one spelling per level that no engine flags, and says the unset defaults differ', async () => {
    type Advice = {
      isolationAdvice: {
        spellings: { level: string; value: string | null; advice: string; readings: Reading[] }[];
        unset: { flagged: boolean; summary: string; fix: string | null; defaults: Reading[] };
      };
    };
    const r = await gql<Advice>(
      stack.apiUrl,
      `{ isolationAdvice {
        spellings { level value advice readings { engine outcome effectiveLevel flagged suggestion } }
        unset { flagged summary fix defaults { engine outcome effectiveLevel flagged suggestion } }
      } }`,
    );
    expect(r.errors).toBeUndefined();
    const { spellings, unset } = r.data?.isolationAdvice ?? { spellings: [], unset: null };
    expect(spellings.map((s) => [s.level, s.value])).toEqual([
      ['Serializable', 'serializable'],
      ['WriteSerializable', 'writeSerializable'],
      ['SnapshotIsolation', null],
    ]);
    for (const s of spellings.filter((x) => x.value !== null)) {
      expect(
        s.readings.filter((x) => x.flagged),
        s.level,
      ).toEqual([]);
      // The same readings as isolationLevelInterpretation gives for the value: flagged by none there either.
      const q = `query($v: String!) { isolationLevelInterpretation(value: $v) { engine outcome effectiveLevel flagged suggestion } }`;
      const asked = await gql<{ isolationLevelInterpretation: Reading[] }>(stack.apiUrl, q, { v: s.value });
      expect(asked.data?.isolationLevelInterpretation).toEqual(s.readings);
    }
    expect(spellings[1]?.advice).toBe(
      "set delta.isolationLevel = 'writeSerializable': every engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from delta-rs 1.2-1.6.x, delta-rs 0.x-1.1.4 or Databricks)",
    );
    expect(spellings[2]?.advice).toBe(
      "no spelling of SnapshotIsolation is read as SnapshotIsolation at commit by every engine here: with 'snapshotIsolation', Databricks does not accept it",
    );
    expect(unset).toMatchObject({
      flagged: true,
      summary:
        'unset: delta-rs 1.2-1.6.x, delta-rs 0.x-1.1.4 and Delta Spark commit at Serializable; Databricks commits at WriteSerializable',
    });
    expect(unset?.defaults.map((d) => [d.engine, d.effectiveLevel])).toEqual([
      ['delta-rs 1.2-1.6.x', 'Serializable'],
      ['delta-rs 0.x-1.1.4', 'Serializable'],
      ['Delta Spark', 'Serializable'],
      ['Databricks', 'WriteSerializable'],
    ]);
  });

  it('audits tables: capital-W is flagged for delta-rs, camelCase and serializable for none', async () => {
    const rows = {
      kind: 'rows' as const,
      rows: [{ id: 1 }],
      schema: { type: 'struct' as const, fields: [field('id', 'long')] },
    };
    await writeDeltaTable(join(stack.dir, 'tables', 'jobs', 'capital'), rows, {
      configuration: { 'delta.isolationLevel': 'WriteSerializable' },
    });
    await writeDeltaTable(join(stack.dir, 'tables', 'jobs', 'camel'), rows, {
      configuration: { 'delta.isolationLevel': 'writeSerializable' },
    });
    await writeDeltaTable(join(stack.dir, 'tables', 'jobs', 'plain'), rows, {
      configuration: { 'delta.isolationLevel': 'serializable' },
    });
    const r = await gql<{ auditTables: { isolationLevel: string; flagged: boolean; flaggedBy: string[] }[] }>(
      stack.apiUrl,
      'mutation($l: [String!]!) { auditTables(locations: $l) { location isolationLevel flagged flaggedBy } }',
      { l: ['jobs/capital', join(stack.dir, 'tables', 'jobs', 'camel'), 'jobs/plain'] },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.auditTables.map((a) => [a.isolationLevel, a.flagged, a.flaggedBy])).toEqual([
      ['WriteSerializable', true, ['delta-rs 1.2-1.6.x']],
      ['writeSerializable', false, []],
      ['serializable', false, []],
    ]);
    const stored = await gql<{ audits: { isolationLevel: string; flagged: boolean }[] }>(
      stack.apiUrl,
      '{ audits { isolationLevel flagged } }',
    );
    expect(stored.data?.audits).toHaveLength(3);
  });

  it('lays out a table: files with stats and rows per VendorID counted from the data', async () => {
    type Layout = {
      tableLayout: {
        version: number;
        files: { rows: number; minValues: string; countsBy: { value: string; rows: number }[] }[];
      };
    };
    const r = await gql<Layout>(
      stack.apiUrl,
      `{ tableLayout(location: "lab:flat@0.01", countBy: "VendorID") { version files { rows minValues countsBy { value rows } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const files = r.data?.tableLayout.files ?? [];
    expect(files).toHaveLength(9);
    for (const f of files) {
      expect(f.countsBy.reduce((n, c) => n + c.rows, 0)).toBe(f.rows);
      expect(JSON.parse(f.minValues)).toHaveProperty('VendorID');
    }
    // Rows matching a predicate per file, and what appending a day would add per partition.
    const more = await gql<{
      tableLayout: {
        files: { matches: number[] }[];
        appends: { day: string; files: { partitionValues: { value: string }[]; stats: string }[] }[];
      };
    }>(
      stack.apiUrl,
      `{ tableLayout(location: "lab:partitioned@0.01", predicates: ["VendorID = 6", "fare_amount < 0"], appendDays: ["2025-02-01"]) {
        files { matches } appends { day files { partitionValues { value } stats } } } }`,
    );
    expect(more.errors).toBeUndefined();
    const sums = [0, 1].map((i) => more.data?.tableLayout.files.reduce((n, f) => n + (f.matches[i] ?? 0), 0));
    expect(sums).toEqual([F.vendors[6], F.negativeFares]);
    const feb01 = more.data?.tableLayout.appends[0];
    expect(feb01?.day).toBe('2025-02-01');
    expect(feb01?.files.reduce((n, f) => n + JSON.parse(f.stats).numRecords, 0)).toBe(F.feb01);
    expect(feb01?.files.map((f) => f.partitionValues[0]?.value).sort()).not.toContain('6');
    const bad = await gql(stack.apiUrl, `{ tableLayout(location: "lab:flat@0.01", countBy: "nope") { version } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('forecasts a conflict from the data: B1 fails on the flat table, B3 commits on the partitioned one', async () => {
    const q = `query($t: String!) { predictConflict(input: { table: $t,
      first: { name: "vendor1", operation: "update", predicate: "VendorID = 1", set: [{ key: "tip_amount", value: "tip_amount + 1" }] },
      second: { name: "vendor2", operation: "update", predicate: "VendorID = 2", set: [{ key: "tip_amount", value: "tip_amount + 1" }] }
    }) { secondCommits failedCheck message isolationLevel
      byEngine { engine isolationLevel commits failedCheck message note } } }`;
    type Line = { engine: string; isolationLevel: string | null; commits: boolean; message: string | null };
    type P = { predictConflict: { secondCommits: boolean; failedCheck: string; message: string; byEngine: Line[] } };
    const flat = await gql<P>(stack.apiUrl, q, { t: 'lab:flat@0.01' });
    expect(flat.errors).toBeUndefined();
    expect(flat.data?.predictConflict).toMatchObject({ secondCommits: false, message: ADDED });
    // By engine: delta-rs is the forecast above; Delta Spark's is measured (real runs of B1 agreed), Databricks' modelled.
    const modelled = 'modelled, not measured: Databricks cannot run here';
    expect(flat.data?.predictConflict.byEngine).toEqual([
      {
        engine: 'delta-rs',
        isolationLevel: 'Serializable',
        commits: false,
        failedCheck: 'concurrentAppend',
        message: ADDED,
        note: null,
      },
      {
        engine: 'delta-spark',
        isolationLevel: 'Serializable',
        commits: false,
        failedCheck: 'concurrentAppend',
        message: expect.stringMatching(
          /^\[DELTA_CONCURRENT_APPEND\.WITHOUT_HINT\] Transaction conflict detected\. a concurrent UPDATE added data/,
        ),
        note: `measured: as the lab's B1 under Serializable, ${SPARK_RUN}`,
      },
      expect.objectContaining({
        engine: 'databricks',
        isolationLevel: 'WriteSerializable',
        commits: false,
        note: modelled,
      }),
    ]);
    const part = await gql<P>(stack.apiUrl, q, { t: 'lab:partitioned@0.01' });
    expect(part.data?.predictConflict).toMatchObject({ secondCommits: true, message: null });
    expect(part.data?.predictConflict.byEngine.map((e) => [e.engine, e.commits])).toEqual([
      ['delta-rs', true],
      ['delta-spark', true],
      ['databricks', true],
    ]);
  });

  it("lists one case list: the lesson's 22 presets, then the 4 store cases, each saying the store it needs", async () => {
    type Case = { id: string; description: string; group: string; store: string | null; needsS3TableRoot: boolean };
    const r = await gql<{ cases: Case[] }>(stack.apiUrl, '{ cases { id description group store needsS3TableRoot } }');
    expect(r.data?.cases).toHaveLength(26);
    const ids = (group: string) => r.data?.cases.filter((c) => c.group === group).map((c) => c.id);
    expect(ids('lesson')).toHaveLength(22);
    expect(ids('store')).toEqual(['H1', 'G1', 'G2', 'G3']);
    // The list is the one an unknown case's error gives: every id of both groups, in the same order.
    const unknown = await gql(stack.apiUrl, START, { input: { caseId: 'Z9' } }, stack.token);
    expect(unknown.errors?.[0]?.message).toBe(
      `unknown case Z9; the lesson's cases are ${ids('lesson')?.join(', ')}; the store cases are H1, G1, G2, G3`,
    );
    const h1 = r.data?.cases.find((c) => c.id === 'H1');
    expect(h1).toMatchObject({ needsS3TableRoot: true });
    expect(h1?.store).toMatch(/^needs a store that ignores put-if-absent/);
    expect(r.data?.cases.find((c) => c.id === 'G1')).toMatchObject({ needsS3TableRoot: false });
    expect(r.data?.cases.find((c) => c.id === 'B1')).toMatchObject({ group: 'lesson', store: null });
    expect(r.data?.cases.find((c) => c.id === 'B1')?.description).toMatch(
      /vendor1: update tip_amount = tip_amount \+ 1 where VendorID = 1/,
    );
  });

  it('the isolation matrix groups stored I-case outcomes by value and blind flag', async () => {
    for (const caseId of ['I4', 'I5']) {
      const r = await gql<{ startRace: { id: string } }>(
        stack.apiUrl,
        START,
        { input: { caseId, runs: 1, scale: 0.01 } },
        stack.token,
      );
      const id = r.data?.startRace.id as string;
      let last = '';
      for await (const e of subscribe<{ raceProgress: { status: string } }>(
        stack.apiUrl,
        'subscription($id: ID!) { raceProgress(id: $id) { status } }',
        { id },
      )) {
        last = e.raceProgress.status;
      }
      expect(last).toBe('DONE');
    }
    const m = await gql<{ isolationMatrix: unknown[] }>(
      stack.apiUrl,
      '{ isolationMatrix { value blindAppend runs updateCommitted } }',
    );
    expect(m.data?.isolationMatrix).toEqual([
      { value: 'WriteSerializable', blindAppend: true, runs: 1, updateCommitted: 0 },
      { value: 'writeSerializable', blindAppend: true, runs: 1, updateCommitted: 1 },
    ]);
  });

  it('custom writers on a lab table built at their scale: a predicate matching no rows is warned about when submitted', async () => {
    // The races above built the flat table at scale 0.01; the count is made on it, nothing is built for it.
    const writers = [
      { name: 'nobody', operation: 'delete', predicate: 'VendorID = 99' },
      { name: 'vendor1', operation: 'update', predicate: 'VendorID = 1', set: [{ key: 'tip_amount', value: '1' }] },
    ];
    const r = await gql<{ startRace: { id: string; warnings: string[] } }>(
      stack.apiUrl,
      'mutation($input: StartRaceInput!) { startRace(input: $input) { id warnings } }',
      { input: { table: 'flat', writers, runs: 1, scale: 0.01 } },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.startRace.warnings).toEqual([
      'writer nobody: VendorID = 99 matches no rows of the table as it is now, so its delete will end with nothing to commit',
    ]);
    const id = r.data?.startRace.id as string;
    for await (const _ of subscribe(stack.apiUrl, 'subscription($id: ID!) { raceProgress(id: $id) { status } }', {
      id,
    })) {
      // The subscription completes when the race ends.
    }
    const race = await gql<{ race: { runs: { writers: { name: string; outcome: string }[] }[] } }>(
      stack.apiUrl,
      'query($id: ID!) { race(id: $id) { runs { writers { name outcome } } } }',
      { id },
    );
    expect(race.data?.race.runs[0]?.writers).toEqual([
      { name: 'nobody', outcome: 'NOTHING_TO_COMMIT' },
      { name: 'vendor1', outcome: 'COMMITTED' },
    ]);
  });
});

describe('jobs audit', () => {
  // Audits stored by the tests before these (the wordings above audit too): these count only their own.
  let stored = 0;
  beforeAll(async () => {
    stored = await count('JobAudit');
  });
  const manifest = `jobs:
  - name: vendor1-tips
    table: lab:flat@0.01
    engine: delta-rs 1.6.6
    operation: update
    predicate: VendorID = 1
    tableProperties: { delta.isolationLevel: WriteSerializable }
  - name: vendor2-tips
    table: lab:flat@0.01
    engine: delta-rs 1.6.6
    operation: update
    predicate: VendorID = 2
`;
  const AUDIT = `mutation($m: String!) { auditJobs(manifest: $m) { id failed jobs { name } findings { rule severity jobs }
    pairs { first second secondCommits failedCheck message secondEngine byEngine { engine isolationLevel commits note } }
    skipped { check checked skipped note } } }`;

  it('audits a manifest: findings, pairwise forecasts from the data, stored', async () => {
    type Audit = {
      auditJobs: {
        failed: boolean;
        findings: { rule: string; severity: string; jobs: string[] }[];
        pairs: {
          first: string;
          second: string;
          secondCommits: boolean;
          failedCheck: string;
          secondEngine: string | null;
          byEngine: { engine: string; isolationLevel: string | null; commits: boolean; note: string | null }[];
        }[];
        skipped: unknown[];
      };
    };
    const r = await gql<Audit>(stack.apiUrl, AUDIT, { m: manifest }, stack.token);
    expect(r.errors).toBeUndefined();
    expect(r.data?.auditJobs.failed).toBe(true);
    expect(r.data?.auditJobs.findings.map((f) => f.rule)).toEqual([
      'isolation-not-parsed',
      'predicates-share-files',
      'no-vacuum',
    ]);
    expect(r.data?.auditJobs.pairs.map((p) => [p.first, p.second, p.secondCommits, p.failedCheck])).toEqual([
      ['vendor1-tips', 'vendor2-tips', false, 'concurrentAppend'],
      ['vendor2-tips', 'vendor1-tips', false, 'concurrentAppend'],
    ]);
    // Under the WriteSerializable vendor1-tips declares, read by each engine; two updates conflict under all three.
    for (const pair of r.data?.auditJobs.pairs ?? []) {
      expect(pair.secondEngine).toBe('delta-rs');
      expect(pair.byEngine.map((e) => [e.engine, e.isolationLevel, e.commits, e.note !== null])).toEqual([
        ['delta-rs', 'Serializable', false, false],
        ['delta-spark', 'WriteSerializable', false, true],
        ['databricks', 'WriteSerializable', false, true],
      ]);
    }
    expect(r.data?.auditJobs.skipped).toEqual([]);
    expect(await count('JobAudit')).toBe(stored + 1);
  });

  it('names every problem of a malformed manifest and stores nothing', async () => {
    const r = await gql(stack.apiUrl, AUDIT, { m: 'jobs:\n  - name: a\n    operation: upsert\n' }, stack.token);
    expect(r.errors?.[0]?.message).toBe('the manifest is not usable');
    expect(r.errors?.[0]?.extensions?.problems).toEqual([
      "job 'a': table is required",
      "job 'a': engine is required",
      "job 'a': operation must be one of append, overwrite, update, delete, merge, optimize, vacuum, got 'upsert'",
    ]);
    expect(await count('JobAudit')).toBe(stored + 1);
    const predicate = await gql(
      stack.apiUrl,
      AUDIT,
      {
        m: `${manifest}  - {name: v2, table: lab:flat@0.01, engine: e, operation: delete, predicate: VendorID == 2}\n`,
      },
      stack.token,
    );
    expect(predicate.errors?.[0]?.extensions?.problems).toEqual([
      "job 'v2': predicate: unexpected '=' at position 11 in predicate",
    ]);
    expect(await count('JobAudit')).toBe(stored + 1);
  });

  it('audits to the end past a table it cannot read: a finding on the one job that names it, the rest as before', async () => {
    const lost =
      '  - {name: lost, table: nowhere/trips, engine: delta-rs 1.6.6, operation: delete, predicate: VendorID = 1}\n';
    const r = await gql<{ auditJobs: { findings: { rule: string; severity: string; jobs: string[] }[] } }>(
      stack.apiUrl,
      AUDIT,
      { m: `${manifest}${lost}` },
      stack.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data?.auditJobs.findings.map((f) => [f.rule, f.severity, f.jobs])).toEqual([
      ['isolation-not-parsed', 'error', ['vendor1-tips']],
      ['table-unreadable', 'error', ['lost']],
      ['predicates-share-files', 'warning', ['vendor1-tips', 'vendor2-tips']],
      ['no-vacuum', 'info', ['vendor1-tips', 'vendor2-tips']],
    ]);
    expect(await count('JobAudit')).toBe(stored + 2);
  });
});

describe('work bounded before it starts', () => {
  const SCALES = '0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1';
  /** Folders of the work dir (data sets and base tables) named for `scale`. */
  const builtFor = (scale: string) =>
    ['data', 'base'].flatMap((sub) => {
      const dir = join(stack.env.LAB_WORK_DIR as string, sub);
      return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(`-${scale}`)) : [];
    });

  it('refuses a lab alias or race at a scale outside the served ones, building nothing', async () => {
    // Each scale was a data set built and kept: lab:flat@0.0101, 0.0102… filled the disk ~265 MB at a time.
    const [audits, races] = [await count('Audit'), await count('Race')];
    const layout = await gql(stack.apiUrl, '{ tableLayout(location: "lab:flat@0.0101") { version } }');
    expect(layout.errors?.[0]).toMatchObject({
      message: `the scale in 'lab:flat@0.0101' must be one of ${SCALES}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const audit = await gql(
      stack.apiUrl,
      'mutation { auditTables(locations: ["lab:partitioned@0.0102"]) { flagged } }',
      undefined,
      stack.token,
    );
    expect(audit.errors?.[0]?.message).toBe(`the scale in 'lab:partitioned@0.0102' must be one of ${SCALES}`);
    const race = await gql(stack.apiUrl, START, { input: { caseId: 'B1', runs: 1, scale: 0.0103 } }, stack.token);
    expect(race.errors?.[0]).toMatchObject({
      message: `scale must be one of ${SCALES}, got 0.0103`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect([...builtFor('0.0101'), ...builtFor('0.0102'), ...builtFor('0.0103')]).toEqual([]);
    expect(await count('Audit')).toBe(audits);
    expect(await count('Race')).toBe(races);
  });

  it('refuses a manifest whose job lasts longer than the week analysed, naming the job and the field', async () => {
    // 311 bytes that kept the API busy for seconds (1e8 minutes ran it out of heap).
    const manifest = `jobs:
  - {name: compact, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: optimize, schedule: {cron: '* * * * *', maxDurationMinutes: 1000000}}
  - {name: nightly, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: update, predicate: VendorID = 1, schedule: {cron: '* * * * *', maxDurationMinutes: 100000000}}
`;
    const before = await count('JobAudit');
    const r = await gql(
      stack.apiUrl,
      'mutation($m: String!) { auditJobs(manifest: $m) { id } }',
      { m: manifest },
      stack.token,
    );
    expect(r.errors?.[0]?.message).toBe('the manifest is not usable');
    expect(r.errors?.[0]?.extensions?.problems).toEqual([
      "job 'compact': schedule.maxDurationMinutes must be an integer from 1 to 10080 (the 7 days the audit looks at), got 1000000",
      "job 'nightly': schedule.maxDurationMinutes must be an integer from 1 to 10080 (the 7 days the audit looks at), got 100000000",
    ]);
    expect(await count('JobAudit')).toBe(before);
  });

  it('previews each append day at most once', async () => {
    // Every entry was a DuckDB preview: one day repeated thousands of times fits in a 64 KB request.
    const r = await gql(
      stack.apiUrl,
      '{ tableLayout(location: "lab:flat@0.01", appendDays: ["2025-02-01", "2025-02-01"]) { version } }',
    );
    expect(r.errors?.[0]).toMatchObject({
      message: 'appendDays: each day at most once',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('names no folder of the server in a location refusal', async () => {
    const layout = (location: string) =>
      gql(stack.apiUrl, 'query($l: String!) { tableLayout(location: $l) { version } }', { l: location });
    for (const location of ['/etc', '.', 'escape/t', '..', 'nothing-here']) {
      const message = (await layout(location)).errors?.[0]?.message ?? '';
      expect(message, location).not.toBe('');
      expect(message, location).not.toContain(stack.dir);
    }
  });
});

describe('expressions that parse but cannot run', () => {
  /** What DuckDB's own text would carry: the rendered SQL, the check's NULL row, its caret line. */
  const INTERNALS = /SELECT|CAST\(NULL|LINE 1|Conversion Error|Binder Error|originalError|stack/;
  const CANNOT_CONVERT = "fare_amount > CAST('abc' AS DOUBLE)";
  const CANNOT_CONVERT_REFUSAL =
    "predicate cannot run on this table: 'CAST('abc' AS DOUBLE)' at position 15: a value cannot be converted, on every row (it reads no column)";
  const refused = async (input: Record<string, unknown>) => {
    const r = await gql(stack.apiUrl, START, { input }, stack.token);
    expect(JSON.stringify(r.errors)).not.toMatch(INTERNALS);
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    return r.errors?.[0]?.extensions?.problems;
  };

  it('startRace refuses them with the reason in the engine’s words, and starts no race', async () => {
    const races = await count('Race');
    const keep = { key: 'tip_amount', value: 'tip_amount + 1' };
    // Refused by the binder: a text cast fails on the table's 'N'/'Y', round() has no BIGINT digits.
    expect(
      await refused({
        writers: [
          { name: 'a', operation: 'update', predicate: 'CAST(store_and_fwd_flag AS BIGINT) = 1', set: [keep] },
          { name: 'b', operation: 'delete', predicate: 'round(fare_amount, 99999999999) > 1' },
        ],
      }),
    ).toEqual([
      "writer a: predicate: CAST of 'store_and_fwd_flag' (string) to BIGINT at position 1 can fail on the table's data: text that is not a BIGINT fails it; compare the text itself instead",
      'writer b: predicate: round() at position 1: its second argument 99999999999 is out of range (-2147483648 to 2147483647)',
    ]);
    // Refused by DuckDB's check on the table's schema: a constant it cannot convert, a value its column cannot hold.
    expect(
      await refused({
        writers: [
          { name: 'c', operation: 'delete', predicate: CANNOT_CONVERT },
          { name: 'd', operation: 'update', predicate: 'VendorID = 2', set: [{ key: 'VendorID', value: '1e300' }] },
        ],
      }),
    ).toEqual([
      `writer c: predicate: ${CANNOT_CONVERT_REFUSAL}`,
      "writer d: set VendorID: update expression cannot run on this table: its value does not fit column 'VendorID' (INTEGER): a value cannot be converted, on every row (it reads no column)",
    ]);
    expect(await count('Race')).toBe(races);
  });

  it('the forecast, a layout’s match counts and a jobs audit refuse them the same way', async () => {
    const forecast = await gql(
      stack.apiUrl,
      `query($p: String!) { predictConflict(input: { table: "lab:flat@0.01",
        first: { name: "a", operation: "delete", predicate: "VendorID = 1" },
        second: { name: "b", operation: "delete", predicate: $p } }) { secondCommits } }`,
      { p: CANNOT_CONVERT },
    );
    expect(forecast.errors?.[0]).toMatchObject({
      message: `writer 'b' predicate: ${CANNOT_CONVERT_REFUSAL}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const layout = await gql(
      stack.apiUrl,
      'query($p: [String!]) { tableLayout(location: "lab:flat@0.01", predicates: $p) { version } }',
      { p: ['VendorID = 1', CANNOT_CONVERT] },
    );
    expect(layout.errors?.[0]).toMatchObject({
      message: `predicates[1]: ${CANNOT_CONVERT_REFUSAL}`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const manifest = `jobs:
  - {name: bad, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: delete, predicate: "${CANNOT_CONVERT}"}
  - {name: vendor1, table: lab:flat@0.01, engine: delta-rs 1.6.6, operation: delete, predicate: VendorID = 1}
`;
    const audit = await gql<{ auditJobs: { id: string } }>(
      stack.apiUrl,
      'mutation($m: String!) { auditJobs(manifest: $m) { id } }',
      { m: manifest },
      stack.token,
    );
    // A predicate that cannot run on its table makes the manifest unusable, as a field the contract refuses does.
    expect(audit.errors?.[0]).toMatchObject({
      message: 'the manifest is not usable',
      extensions: { code: 'BAD_USER_INPUT', problems: [`job 'bad': predicate: ${CANNOT_CONVERT_REFUSAL}`] },
    });
    expect(JSON.stringify([forecast, layout, audit])).not.toMatch(INTERNALS);
  });
});
