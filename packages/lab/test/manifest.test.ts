/**
 * The jobs manifest reader: one manifest written in YAML and in JSON must read the same, and every
 * problem a team can make is reported with the exact message, all at once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_JOBS, MAX_MANIFEST_BYTES, ManifestError, parseManifest, readManifest } from '../src/audit/manifest';
import type { Manifest } from '../src/audit/types';

const YAML_MANIFEST = `
x-team: tips
jobs:
  - name: nightly-tips
    table: s3://lake/tips
    engine: delta-rs 1.6.6
    operation: merge
    predicate: "day = '2026-02-01'"
    tableProperties:
      delta.isolationLevel: WriteSerializable
    commitProperties:
      maxCommitRetries: 15
      isBlindAppend: false
      isolationLevel: Serializable
    onCommitFailed: redo-whole-change
    checksTableBeforeAppend: false
    schedule:
      cron: 0 2 * * *
      maxDurationMinutes: 45
    x-owner: data-platform
    x-ticket: { id: 42 }
  - name: hourly-append
    table: ./tables/tips
    engine: Delta Spark 3.2
    operation: append
`;

const JSON_MANIFEST = JSON.stringify({
  'x-team': 'tips',
  jobs: [
    {
      name: 'nightly-tips',
      table: 's3://lake/tips',
      engine: 'delta-rs 1.6.6',
      operation: 'merge',
      predicate: "day = '2026-02-01'",
      tableProperties: { 'delta.isolationLevel': 'WriteSerializable' },
      commitProperties: { maxCommitRetries: 15, isBlindAppend: false, isolationLevel: 'Serializable' },
      onCommitFailed: 'redo-whole-change',
      checksTableBeforeAppend: false,
      schedule: { cron: '0 2 * * *', maxDurationMinutes: 45 },
      'x-owner': 'data-platform',
      'x-ticket': { id: 42 },
    },
    { name: 'hourly-append', table: './tables/tips', engine: 'Delta Spark 3.2', operation: 'append' },
  ],
});

const EXPECTED: Manifest = {
  jobs: [
    {
      name: 'nightly-tips',
      table: 's3://lake/tips',
      engine: 'delta-rs 1.6.6',
      operation: 'merge',
      predicate: "day = '2026-02-01'",
      tableProperties: { 'delta.isolationLevel': 'WriteSerializable' },
      commitProperties: { maxCommitRetries: 15, isBlindAppend: false, isolationLevel: 'Serializable' },
      onCommitFailed: 'redo-whole-change',
      checksTableBeforeAppend: false,
      schedule: { cron: '0 2 * * *', maxDurationMinutes: 45 },
      extra: { 'x-owner': 'data-platform', 'x-ticket': { id: 42 } },
    },
    { name: 'hourly-append', table: './tables/tips', engine: 'Delta Spark 3.2', operation: 'append' },
  ],
};

/** A job line that is valid on its own, for tests that break one field at a time. */
const JOB = 'table: t, engine: delta-rs, operation: append';

/** The problems parseManifest reports, or a failure if it accepts the text. */
function problemsOf(text: string, format?: 'yaml' | 'json'): string[] {
  try {
    parseManifest(text, format);
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestError);
    const manifestError = error as ManifestError;
    expect(manifestError.name).toBe('ManifestError');
    expect(manifestError.message).toBe(manifestError.problems.join('; '));
    return manifestError.problems;
  }
  throw new Error('expected a ManifestError');
}

const work = mkdtempSync(join(tmpdir(), 'racelab-manifest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('parseManifest: valid manifests', () => {
  it('reads the same manifest from YAML and JSON, guessing the format', () => {
    expect(parseManifest(YAML_MANIFEST)).toEqual(EXPECTED);
    expect(parseManifest(JSON_MANIFEST)).toEqual(EXPECTED);
    expect(parseManifest(`\n  ${JSON_MANIFEST}`)).toEqual(EXPECTED);
  });

  it('honours an explicit format', () => {
    expect(parseManifest(YAML_MANIFEST, 'yaml')).toEqual(EXPECTED);
    expect(parseManifest(JSON_MANIFEST, 'json')).toEqual(EXPECTED);
    // JSON is YAML too, so forcing yaml on JSON text still reads it.
    expect(parseManifest(JSON_MANIFEST, 'yaml')).toEqual(EXPECTED);
    expect(problemsOf('jobs: []', 'json')[0]).toMatch(/^JSON syntax error: /);
  });

  it('keeps x- keys of a job in extra and adds no keys a job did not set', () => {
    const [nightly, hourly] = parseManifest(YAML_MANIFEST).jobs;
    expect(nightly?.extra).toEqual({ 'x-owner': 'data-platform', 'x-ticket': { id: 42 } });
    expect(Object.keys(hourly ?? {})).toEqual(['name', 'table', 'engine', 'operation']);
  });

  it('accepts an empty jobs list, a BOM and a schedule with only one of its fields', () => {
    expect(parseManifest('jobs: []')).toEqual({ jobs: [] });
    expect(parseManifest('\uFEFF{"jobs": []}')).toEqual({ jobs: [] });
    expect(parseManifest(`jobs:\n  - {name: a, ${JOB}, schedule: {cron: '@hourly'}}`).jobs[0]?.schedule).toEqual({
      cron: '@hourly',
    });
  });

  it('accepts x- keys inside commitProperties and schedule without keeping them', () => {
    const text = `jobs:\n  - {name: a, ${JOB}, commitProperties: {x-note: n}, schedule: {x-tz: UTC}}`;
    expect(parseManifest(text).jobs[0]).toEqual({
      name: 'a',
      table: 't',
      engine: 'delta-rs',
      operation: 'append',
      commitProperties: {},
      schedule: {},
    });
  });

  it('treats a __proto__ table property as data, not as a prototype', () => {
    const job = parseManifest(
      `{"jobs": [{"name": "a", "table": "t", "engine": "e", "operation": "append", "tableProperties": {"__proto__": "x"}}]}`,
    ).jobs[0];
    expect(Object.getPrototypeOf(job?.tableProperties)).toBe(Object.prototype);
    expect(Object.keys(job?.tableProperties ?? {})).toEqual(['__proto__']);
  });
});

describe('parseManifest: top level', () => {
  it('requires an object with a jobs array', () => {
    expect(problemsOf('')).toEqual(['manifest is empty: expected an object with a jobs array']);
    expect(problemsOf('- a\n- b')).toEqual(['manifest must be an object with a jobs array, got a list']);
    expect(problemsOf('"jobs"')).toEqual(["manifest must be an object with a jobs array, got 'jobs'"]);
    expect(problemsOf('x-note: hi')).toEqual(['jobs is required']);
    expect(problemsOf('{"jobs": {"a": 1}}')).toEqual(['jobs must be an array, got an object']);
  });

  it('rejects unknown top-level keys but not x- keys', () => {
    expect(problemsOf('jobs: []\nversion: 2\nx-owner: me')).toEqual([
      "unknown top-level key 'version' (extension keys start with x-)",
    ]);
  });

  it(`allows at most ${MAX_JOBS} jobs`, () => {
    const job = { name: 'j', table: 't', engine: 'e', operation: 'append' };
    const jobs = Array.from({ length: MAX_JOBS }, (_, i) => ({ ...job, name: `j${i}` }));
    expect(parseManifest(JSON.stringify({ jobs })).jobs).toHaveLength(MAX_JOBS);
    expect(problemsOf(JSON.stringify({ jobs: [...jobs, job] }))).toEqual([`jobs: at most 500 jobs, got 501`]);
  });

  it('refuses text over 1 MB before parsing it', () => {
    const text = `jobs: []\n# ${'x'.repeat(MAX_MANIFEST_BYTES)}`;
    expect(problemsOf(text)).toEqual([`manifest is too large: ${text.length} bytes (at most 1048576)`]);
  });
});

describe('parseManifest: job fields', () => {
  it('names a missing required field, by job name or by position', () => {
    expect(problemsOf(`jobs:\n  - {${JOB}}`)).toEqual(['jobs[0]: name is required']);
    expect(problemsOf('jobs:\n  - {name: x, engine: e, operation: append}')).toEqual(["job 'x': table is required"]);
    expect(problemsOf('jobs:\n  - {name: x, table:, engine: e, operation: append}')).toEqual([
      "job 'x': table is required",
    ]);
    expect(problemsOf('jobs:\n  - {name: x, table: t, operation: append}')).toEqual(["job 'x': engine is required"]);
    expect(problemsOf('jobs:\n  - {name: x, table: t, engine: e}')).toEqual(["job 'x': operation is required"]);
  });

  it('rejects an operation outside the list', () => {
    expect(problemsOf('jobs:\n  - {name: nightly-tips, table: t, engine: e, operation: upsert}')).toEqual([
      "job 'nightly-tips': operation must be one of append, overwrite, update, delete, merge, optimize, vacuum, got 'upsert'",
    ]);
  });

  it('rejects wrong types', () => {
    expect(problemsOf('jobs:\n  - {name: 7, table: [t], engine: {}, operation: 1}')).toEqual([
      'jobs[0]: name must be a string, got 7',
      'jobs[0]: table must be a string, got a list',
      'jobs[0]: engine must be a string, got an object',
      'jobs[0]: operation must be one of append, overwrite, update, delete, merge, optimize, vacuum, got 1',
    ]);
    expect(problemsOf('jobs:\n  - just a string')).toEqual(["jobs[0]: must be an object, got 'just a string'"]);
  });

  it('requires non-empty, unique names and then tells same-named jobs apart by position', () => {
    expect(problemsOf(`jobs:\n  - {name: '  ', ${JOB}}`)).toEqual(['jobs[0]: name must not be empty']);
    expect(
      problemsOf(`jobs:\n  - {name: a, ${JOB}}\n  - {name: b, ${JOB}}\n  - {name: a, ${JOB}, onCommitFailed: never}`),
    ).toEqual([
      "job 'a': name is used by more than one job (jobs[0], jobs[2])",
      "job 'a' (jobs[2]): onCommitFailed must be one of fail, retry-commit, redo-whole-change, got 'never'",
    ]);
  });

  it('rejects unknown job keys, naming the job and the key', () => {
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, retries: 3, x-retries: 3}`)).toEqual([
      "job 'x': unknown key 'retries' (extension keys start with x-)",
    ]);
  });

  it('checks the optional fields', () => {
    const text = `jobs:
  - name: x
    table: t
    engine: delta-rs
    operation: append
    predicate: 3
    tableProperties: {delta.appendOnly: true, delta.isolationLevel: Serializable}
    onCommitFailed: retry
    checksTableBeforeAppend: 'yes'`;
    expect(problemsOf(text)).toEqual([
      "job 'x': predicate must be a string, got 3",
      "job 'x': tableProperties['delta.appendOnly'] must be a string, got true",
      "job 'x': onCommitFailed must be one of fail, retry-commit, redo-whole-change, got 'retry'",
      "job 'x': checksTableBeforeAppend must be a boolean, got 'yes'",
    ]);
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, tableProperties: [a], predicate: null}`)).toEqual([
      "job 'x': predicate must be a string, got null",
      "job 'x': tableProperties must be an object, got a list",
    ]);
  });

  it("checks each predicate's grammar before any table is open, with every other problem", () => {
    const text = `jobs:
  - {name: vendor2, ${JOB}, predicate: VendorID == 2}
  - {name: tips, ${JOB}, predicate: "tip_amount > 0 AND", onCommitFailed: retry}
  - {name: unknown-column, ${JOB}, predicate: Vendor = 2}`;
    expect(problemsOf(text)).toEqual([
      "job 'vendor2': predicate: unexpected '=' at position 11 in predicate",
      "job 'tips': predicate: predicate ends too early: expected a value at the end of the input",
      "job 'tips': onCommitFailed must be one of fail, retry-commit, redo-whole-change, got 'retry'",
    ]);
    // Which columns exist is the table's to say: the audit checks that once it has opened it.
    expect(parseManifest(`jobs:\n  - {name: x, ${JOB}, predicate: Vendor = 2}`).jobs[0]?.predicate).toBe('Vendor = 2');
  });

  it('checks commitProperties and names unknown keys inside it', () => {
    const bad = '{maxCommitRetries: -1, isBlindAppend: 1, isolationLevel: 2, retries: 3}';
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, commitProperties: ${bad}}`)).toEqual([
      "job 'x': commitProperties.maxCommitRetries must be an integer >= 0, got -1",
      "job 'x': commitProperties.isBlindAppend must be a boolean, got 1",
      "job 'x': commitProperties.isolationLevel must be a string, got 2",
      "job 'x': unknown key 'commitProperties.retries' (extension keys start with x-)",
    ]);
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, commitProperties: {maxCommitRetries: 1.5}}`)).toEqual([
      "job 'x': commitProperties.maxCommitRetries must be an integer >= 0, got 1.5",
    ]);
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, commitProperties: 3}`)).toEqual([
      "job 'x': commitProperties must be an object, got 3",
    ]);
    expect(
      parseManifest(`jobs:\n  - {name: x, ${JOB}, commitProperties: {maxCommitRetries: 0}}`).jobs[0],
    ).toMatchObject({ commitProperties: { maxCommitRetries: 0 } });
  });

  it('checks the schedule, reporting the cron parser’s own error', () => {
    const bad = "{cron: '61 * * * *', maxDurationMinutes: 0, timezone: UTC}";
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, schedule: ${bad}}`)).toEqual([
      "job 'x': schedule.cron is invalid: cron '61 * * * *': minute 61 is out of range 0-59",
      "job 'x': schedule.maxDurationMinutes must be an integer from 1 to 10080 (the 7 days the audit looks at), got 0",
      "job 'x': unknown key 'schedule.timezone' (extension keys start with x-)",
    ]);
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, schedule: {cron: 5}}`)).toEqual([
      "job 'x': schedule.cron must be a string, got 5",
    ]);
    expect(problemsOf(`jobs:\n  - {name: x, ${JOB}, schedule: '0 2 * * *'}`)).toEqual([
      "job 'x': schedule must be an object, got '0 2 * * *'",
    ]);
  });
});

describe('parseManifest: bounded work', () => {
  // A 311-byte manifest with maxDurationMinutes 1000000 kept the API busy for seconds (every run a
  // `* * * * *` job could still be in walked over 694 days); 1e8 ran out of heap.
  const scheduled = (name: string, minutes: number) =>
    `  - {name: ${name}, ${JOB}, schedule: {cron: '* * * * *', maxDurationMinutes: ${minutes}}}`;

  it('refuses a maxDurationMinutes longer than the 7 days analysed, naming each job and the field', () => {
    const text = ['jobs:', scheduled('compact', 1_000_000), scheduled('nightly', 100_000_000)].join('\n');
    expect(problemsOf(text)).toEqual([
      "job 'compact': schedule.maxDurationMinutes must be an integer from 1 to 10080 (the 7 days the audit looks at), got 1000000",
      "job 'nightly': schedule.maxDurationMinutes must be an integer from 1 to 10080 (the 7 days the audit looks at), got 100000000",
    ]);
  });

  it('accepts exactly 7 days', () => {
    expect(parseManifest(['jobs:', scheduled('week', 10_080)].join('\n')).jobs[0]?.schedule).toEqual({
      cron: '* * * * *',
      maxDurationMinutes: 10_080,
    });
  });
});

describe('parseManifest: several problems and syntax errors', () => {
  it('reports every problem of every job at once, in one message', () => {
    const text = `
owner: me
jobs:
  - {name: a, table: t, engine: e, operation: upsert, retries: 2}
  - {table: t, engine: e, operation: append}
  - {name: c, table: t, operation: vacuum, onCommitFailed: give-up}
`;
    let error: unknown;
    try {
      parseManifest(text);
    } catch (e) {
      error = e;
    }
    const problems = [
      "unknown top-level key 'owner' (extension keys start with x-)",
      "job 'a': operation must be one of append, overwrite, update, delete, merge, optimize, vacuum, got 'upsert'",
      "job 'a': unknown key 'retries' (extension keys start with x-)",
      'jobs[1]: name is required',
      "job 'c': engine is required",
      "job 'c': onCommitFailed must be one of fail, retry-commit, redo-whole-change, got 'give-up'",
    ];
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).problems).toEqual(problems);
    expect((error as ManifestError).message).toBe(problems.join('; '));
  });

  it('names the line of a YAML syntax error', () => {
    const text = 'jobs:\n  - name: a\n    table: [t,\n  - name: b\n';
    expect(problemsOf(text)).toEqual([
      'YAML syntax error at line 4, column 3: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
    expect(problemsOf('jobs:\n  - name: a\n    name: b\n')).toEqual([
      'YAML syntax error at line 3, column 5: Map keys must be unique',
    ]);
  });

  it('reports an unknown YAML alias as a manifest problem', () => {
    expect(problemsOf('jobs: *missing')).toEqual([
      'YAML error: Unresolved alias (the anchor must be set before the alias): missing',
    ]);
  });

  it('names the line of a JSON syntax error when Node gives a position', () => {
    const [problem] = problemsOf('{"jobs": [\n  {"name": "a",\n   }\n]}');
    expect(problem).toMatch(/^JSON syntax error at line 3: /);
  });
});

describe('readManifest', () => {
  it('reads .yaml, .yml and .json files to the same manifest', async () => {
    for (const [file, text] of [
      ['jobs.yaml', YAML_MANIFEST],
      ['jobs.yml', YAML_MANIFEST],
      ['jobs.json', JSON_MANIFEST],
    ] as const) {
      writeFileSync(join(work, file), text);
      expect(await readManifest(join(work, file))).toEqual(EXPECTED);
    }
  });

  it('takes the format from the extension, not the content', async () => {
    const path = join(work, 'yaml-in-disguise.json');
    writeFileSync(path, 'jobs: []\n');
    await expect(readManifest(path)).rejects.toThrow(/^JSON syntax error/);
  });

  it('refuses a file over 1 MB', async () => {
    const path = join(work, 'big.yaml');
    writeFileSync(path, `jobs: []\n# ${'x'.repeat(MAX_MANIFEST_BYTES)}`);
    await expect(readManifest(path)).rejects.toThrow(ManifestError);
  });
});
