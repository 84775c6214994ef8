/**
 * The code audit's judge on settings built by hand (no extractor involved): what each writer library makes of
 * an isolation value decides the rule (misread, refused, not a level), the fix is the engine's one recommended
 * spelling, unknown Spark confs name the nearest real key, computed values are notes, and one table set two
 * ways is one finding naming both places.
 */
import { describe, expect, it } from 'vitest';
import { nearestConfKey } from '../src/audit/code/conf-keys';
import { judge } from '../src/audit/code/judge';
import type { CodeSetting } from '../src/audit/code/setting';

function setting(parts: Partial<CodeSetting>): CodeSetting {
  const value = parts.value === undefined ? 'serializable' : parts.value;
  return {
    file: 'jobs/a.py',
    line: 3,
    column: 10,
    endColumn: 10 + (value?.length ?? 0) + 2,
    key: 'delta.isolationLevel',
    value,
    raw: value === null ? 'level()' : `'${value}'`,
    constant: value !== null,
    kind: 'table-property',
    via: 'write_deltalake(configuration=…)',
    language: 'python',
    writer: 'delta-rs',
    ...parts,
  };
}

const rules = (settings: CodeSetting[]) => judge(settings).map((f) => [f.rule, f.severity]);

describe('isolation values, per writer library', () => {
  it("delta-rs code writing capital-W 'WriteSerializable': misread by delta-rs 1.2–1.6.x, fixed by the camelCase spelling", () => {
    const [f, ...rest] = judge([setting({ value: 'WriteSerializable' })]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: 'isolation-not-parsed', severity: 'error', at: { file: 'jobs/a.py', line: 3 } });
    expect(f?.evidence).toContain('delta-rs 1.2–1.6.x');
    expect(f?.evidence).not.toMatch(/by [^:]*delta-rs ≤ 1\.1\.4/);
    expect(f?.fix).toContain("set delta.isolationLevel = 'writeSerializable'");
  });

  it('the camelCase spelling from delta-rs code is fine; Serializable spelt any way is fine for Spark code', () => {
    expect(rules([setting({ value: 'writeSerializable' })])).toEqual([]);
    expect(rules([setting({ value: 'SERIALIZABLE', writer: 'spark', via: 'TBLPROPERTIES', language: 'sql' })])).toEqual(
      [],
    );
  });

  it('SnapshotIsolation from Spark code is refused by both Spark engines: an error', () => {
    const [f] = judge([setting({ value: 'SnapshotIsolation', writer: 'spark', via: 'TBLPROPERTIES' })]);
    expect(f).toMatchObject({ rule: 'isolation-refused', severity: 'error' });
    expect(f?.evidence).toContain('Delta Spark, Databricks');
  });

  it('WriteSerializable from Spark code: Delta Spark refuses to set it, Databricks accepts it: a warning', () => {
    const [f] = judge([setting({ value: 'WriteSerializable', writer: 'spark', via: 'TBLPROPERTIES' })]);
    expect(f).toMatchObject({ rule: 'isolation-refused', severity: 'warning' });
    expect(f?.evidence).toMatch(/refused by Delta Spark \(accepted by Databricks\)/);
    expect(f?.fix).toMatch(/cannot set it: set it from/);
  });

  it('a writer the code does not name is judged for all four, naming which read it wrong', () => {
    const [f] = judge([setting({ value: 'WriteSerializable', writer: null })]);
    expect(f).toMatchObject({ rule: 'isolation-not-parsed', severity: 'error' });
    expect(f?.evidence).toMatch(/not read as WriteSerializable by delta-rs 1\.2–1\.6\.x:/);
  });

  it('a value no engine reads as a level: not-an-isolation-level, the fix lists the spellings', () => {
    const [f] = judge([setting({ value: 'WRITE_COMMITTED', writer: null })]);
    expect(f).toMatchObject({ rule: 'not-an-isolation-level', severity: 'error' });
    expect(f?.fix).toContain("'serializable'");
  });

  it("Spark's default for new tables is judged as the table property it sets", () => {
    const conf = setting({
      kind: 'spark-conf',
      key: 'spark.databricks.delta.properties.defaults.isolationLevel',
      value: 'SnapshotIsolation',
      writer: 'spark',
      via: 'spark.conf.set',
    });
    expect(rules([conf])).toEqual([['isolation-refused', 'error']]);
  });
});

describe('the other settings', () => {
  it('isolation in commit metadata, retries off, retries kept', () => {
    expect(
      rules([
        setting({
          kind: 'commit-isolation',
          key: 'isolationLevel',
          value: 'WriteSerializable',
          via: 'CommitProperties',
        }),
        setting({ kind: 'commit-retries', key: 'max_commit_retries', value: '0', raw: '0', line: 5 }),
        setting({ kind: 'commit-retries', key: 'max_commit_retries', value: '15', raw: '15', line: 6 }),
      ]),
    ).toEqual([
      ['commit-metadata-isolation', 'warning'],
      ['commit-retries-off', 'warning'],
    ]);
  });

  it('a blind append claimed on a merge reads the table; on an append it is fine', () => {
    const blind = { kind: 'blind-append' as const, key: 'isBlindAppend', value: 'true', raw: 'True' };
    expect(rules([setting({ ...blind, via: 'merge(commit_properties=…)' })])).toEqual([
      ['blind-append-reads', 'error'],
    ]);
    expect(rules([setting({ ...blind, via: 'write_deltalake(mode="append")' })])).toEqual([]);
  });

  it('a conf key no engine reads names the nearest real one, and the table property for isolation', () => {
    const key = 'spark.databricks.delta.write.isolationLevel';
    const [f] = judge([setting({ kind: 'spark-conf', key, value: 'WriteSerializable', writer: 'spark' })]);
    expect(f).toMatchObject({ rule: 'unknown-conf-key', severity: 'warning' });
    const nearest = nearestConfKey(key);
    if (nearest !== null) expect(f?.evidence).toContain(nearest);
    expect(f?.fix).toContain("set the table property delta.isolationLevel = 'writeSerializable'");
    expect(
      rules([
        setting({ kind: 'spark-conf', key: 'spark.databricks.delta.retentionDurationCheck.enabled', value: 'false' }),
      ]),
    ).toEqual([]);
  });

  it('a computed value is a note and nothing else', () => {
    const [f, ...rest] = judge([setting({ value: null, raw: 'os.environ["LEVEL"]', constant: false })]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: 'not-a-constant', severity: 'note' });
    expect(f?.evidence).toContain('os.environ["LEVEL"]');
  });

  it('a computed value of a conf no engine reads: the note, and the unknown key', () => {
    const conf = setting({
      kind: 'spark-conf',
      key: 'spark.delta.isolation',
      value: null,
      raw: 'level',
      writer: 'spark',
    });
    expect(rules([conf])).toEqual([
      ['not-a-constant', 'note'],
      ['unknown-conf-key', 'warning'],
    ]);
  });

  it("a file's problem is a note at its place", () => {
    const [f] = judge([], [{ file: 'q.sql', line: 7, column: 2, message: "mismatched input 'TBLPROPERTIES'" }]);
    expect(f).toMatchObject({ rule: 'file-unparseable', severity: 'note', at: { file: 'q.sql', line: 7, column: 2 } });
  });
});

describe('one table set two ways', () => {
  const sql = setting({
    file: 'ddl/trips.sql',
    line: 4,
    value: 'Serializable',
    writer: 'spark',
    language: 'sql',
    via: 'TBLPROPERTIES',
    table: 'lake.Trips',
  });
  const py = setting({ file: 'jobs/load.py', line: 12, value: 'writeSerializable', table: '`lake`.`trips`' });

  it('is one finding at the first place, the second related', () => {
    const found = judge([py, sql]).filter((f) => f.rule === 'table-set-differently');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      severity: 'warning',
      at: { file: 'ddl/trips.sql', line: 4 },
      related: [{ file: 'jobs/load.py', line: 12 }],
    });
    expect(found[0]?.fix).toContain("'serializable' or 'writeSerializable'");
  });

  it('two spellings of one level, or two tables, are not', () => {
    expect(judge([sql, { ...py, value: 'serializable' }]).map((f) => f.rule)).not.toContain('table-set-differently');
    expect(judge([sql, { ...py, table: 'other' }]).map((f) => f.rule)).not.toContain('table-set-differently');
  });
});
