/**
 * `delta.isolationLevel`: the parse that decides conflict checks (delta-rs ≥ 1.2: exact camelCase,
 * anything else silently Serializable) and the per-engine diagnostic, against every row of the
 * table in ../shared/reference/s3-conditional-writes-and-isolation-strings.md plus variants.
 */
import { describe, expect, it } from 'vitest';
import { effectiveIsolationLevel, intendedLevel, interpretIsolationLevel, type WriterLibrary } from '../src/index';

const reading = (value: string | null, library: WriterLibrary) => {
  const r = interpretIsolationLevel(value).find((x) => x.library === library);
  if (!r) throw new Error(`no reading for ${library}`);
  return r;
};

// value | Spark SET/CREATE | Spark at commit | delta-rs ≥1.2 effective | delta-rs ≤1.1.4
const TABLE: [string | null, 'accepted' | 'must' | 'invalid' | '-', string | null, string, string][] = [
  [null, '-', 'Serializable', 'Serializable', 'Serializable'],
  ['Serializable', 'accepted', 'Serializable', 'Serializable', 'Serializable'],
  ['serializable', 'accepted', 'Serializable', 'Serializable', 'Serializable'],
  ['WriteSerializable', 'must', 'WriteSerializable', 'Serializable', 'WriteSerializable'],
  ['writeSerializable', 'must', 'WriteSerializable', 'WriteSerializable', 'WriteSerializable'],
  ['write_serializable', 'invalid', null, 'Serializable', 'WriteSerializable'],
  ['SnapshotIsolation', 'must', 'SnapshotIsolation', 'Serializable', 'SnapshotIsolation'],
  ['snapshotIsolation', 'must', 'SnapshotIsolation', 'SnapshotIsolation', 'SnapshotIsolation'],
  ['snapshot_isolation', 'invalid', null, 'Serializable', 'SnapshotIsolation'],
  ['', 'invalid', null, 'Serializable', 'Serializable'],
  [' WriteSerializable', 'invalid', null, 'Serializable', 'Serializable'],
  ['RepeatableRead', 'invalid', null, 'Serializable', 'Serializable'],
];

describe('the reference table, row by row', () => {
  it.each(TABLE)('%j', (value, sparkSet, sparkCommit, rs, legacy) => {
    const config = value === null ? {} : { 'delta.isolationLevel': value };
    expect(effectiveIsolationLevel(config)).toBe(rs);
    expect(reading(value, 'delta-rs').effective).toBe(rs);
    expect(reading(value, 'delta-rs-legacy').effective).toBe(legacy);
    const spark = reading(value, 'delta-spark');
    expect(spark.effective).toBe(sparkCommit);
    if (sparkSet === 'must') expect(spark.error).toBe('requirement failed: delta.isolationLevel must be Serializable');
    if (sparkSet === 'invalid') expect(spark.error).toBe(`invalid isolation level '${value}'`);
    if (sparkSet === 'accepted') expect(spark.status).toBe('parsed');
  });
});

describe('flags', () => {
  it('flags capital-W WriteSerializable on delta-rs, says what happens, and suggests the spelling that works', () => {
    const r = reading('WriteSerializable', 'delta-rs');
    expect(r).toMatchObject({
      flagged: true,
      status: 'ignored',
      effective: 'Serializable',
      suggestion: 'writeSerializable',
    });
    expect(r.explanation).toMatch(/silently falls back to Serializable/);
  });

  it('does not flag values every engine reads as meant', () => {
    for (const engine of ['delta-rs', 'delta-spark', 'databricks'] as const)
      expect(reading('Serializable', engine).flagged).toBe(false);
    expect(reading(null, 'databricks')).toMatchObject({
      effective: 'WriteSerializable',
      status: 'default',
      flagged: false,
    });
  });

  it('does not flag camelCase snapshotIsolation on delta-rs, which reads it as meant, but says what it skips', () => {
    const r = reading('snapshotIsolation', 'delta-rs');
    expect(r).toMatchObject({ flagged: false, status: 'parsed', effective: 'SnapshotIsolation' });
    expect(r.explanation).toMatch(/skips the check for concurrently added data/);
  });

  it("notes, without flagging, that Delta Spark's DDL cannot set a level it reads as meant at commit", () => {
    for (const value of ['WriteSerializable', 'writeSerializable', 'snapshotIsolation']) {
      const r = reading(value, 'delta-spark');
      expect(r, value).toMatchObject({
        flagged: false,
        status: 'parsed',
        settable: false,
        error: 'requirement failed: delta.isolationLevel must be Serializable',
      });
      expect(r.explanation, value).toMatch(/its DDL cannot set it/);
    }
    expect(reading('serializable', 'delta-spark')).toMatchObject({ flagged: false, settable: true });
  });

  it('flags exactly the readings whose commits do not use the level the value names', () => {
    const values = [...TABLE.map(([v]) => v).filter((v) => v !== null), 'writeserializable', 'Snapshot Isolation'];
    for (const value of values) {
      for (const r of interpretIsolationLevel(value)) {
        const named = intendedLevel(value);
        expect(r.flagged, `${r.library} ${value}`).toBe(r.effective === null || r.effective !== named);
      }
    }
    for (const r of interpretIsolationLevel(null)) expect(r.flagged, r.library).toBe(false);
  });

  it('suggests only the camelCase spelling of the level meant, and only where that engine reads it as meant', () => {
    expect(interpretIsolationLevel('write_serializable').map((r) => [r.library, r.suggestion])).toEqual([
      ['delta-rs', 'writeSerializable'],
      ['delta-rs-legacy', undefined],
      ['delta-spark', 'writeSerializable'],
      ['databricks', 'writeSerializable'],
    ]);
    // Databricks documents only two levels: no spelling of SnapshotIsolation to suggest there.
    expect(reading('snapshot_isolation', 'databricks')).toMatchObject({ flagged: true, effective: null });
    expect(reading('snapshot_isolation', 'databricks').suggestion).toBeUndefined();
    // Read as meant everywhere: nothing to suggest, not even Databricks' documented capital W.
    expect(interpretIsolationLevel('writeSerializable').map((r) => r.suggestion ?? null)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it.each([
    ['WRITESERIALIZABLE', 'Serializable', 'WriteSerializable'],
    ['writeserializable', 'Serializable', 'WriteSerializable'],
    ['writeSerializable ', 'Serializable', null],
    ['\tserializable', 'Serializable', null],
    ['SNAPSHOTISOLATION', 'Serializable', 'SnapshotIsolation'],
  ])('case and whitespace variant %j: delta-rs %s, Spark %s', (value, rs, spark) => {
    expect(effectiveIsolationLevel({ 'delta.isolationLevel': value })).toBe(rs);
    expect(reading(value, 'delta-spark').effective).toBe(spark);
  });

  it('reads the key exactly: another spelling of the key is not the isolation level', () => {
    expect(effectiveIsolationLevel({ 'delta.IsolationLevel': 'writeSerializable' })).toBe('Serializable');
    expect(effectiveIsolationLevel({ 'delta.isolationLevel': 'writeSerializable' })).toBe('WriteSerializable');
  });
});
