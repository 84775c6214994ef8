/**
 * The one spelling recommendation, for every level and every set of engines a table's jobs can run
 * on. The expectations restate the engines' documented behaviour (../shared/reference/
 * s3-conditional-writes-and-isolation-strings.md, Part B), not the code: delta-rs ≥ 1.2 parses only
 * camelCase, delta-rs ≤ 1.1.4 and Delta Spark ignore case at commit, Delta Spark's DDL sets only
 * Serializable, Databricks documents Serializable and WriteSerializable only (default
 * WriteSerializable); every other engine defaults to Serializable.
 */
import { describe, expect, it } from 'vitest';
import {
  describeUnset,
  type IsolationLevel,
  interpretIsolationLevel,
  readUnset,
  recommendSpelling,
  spellingAdvice,
  unsetFix,
  WRITER_LIBRARIES,
  type WriterLibrary,
} from '../src/conflict';

const LEVELS: IsolationLevel[] = ['Serializable', 'WriteSerializable', 'SnapshotIsolation'];
const CAMEL = {
  Serializable: 'serializable',
  WriteSerializable: 'writeSerializable',
  SnapshotIsolation: 'snapshotIsolation',
};

/** Every non-empty set of engines, each in WRITER_LIBRARIES order. */
const ENGINE_SETS: WriterLibrary[][] = Array.from({ length: 2 ** WRITER_LIBRARIES.length - 1 }, (_, i) =>
  WRITER_LIBRARIES.filter((_, bit) => (i + 1) & (1 << bit)),
);
const CASES = LEVELS.flatMap((level) => ENGINE_SETS.map((engines) => [level, engines] as const));

describe('recommendSpelling: every level × every set of engines', () => {
  it.each(CASES)('%s on %j', (level, engines) => {
    const rec = recommendSpelling(level, engines);
    const databricksCannot = level === 'SnapshotIsolation' && engines.includes('databricks');
    const sparkCannotSet = level !== 'Serializable' && engines.includes('delta-spark');
    // Delta Spark's DDL sets only Serializable; Databricks documents no SnapshotIsolation; delta-rs sets anything.
    const canSet = (e: WriterLibrary) =>
      !(e === 'delta-spark' && level !== 'Serializable') && !(e === 'databricks' && level === 'SnapshotIsolation');
    expect(rec).toMatchObject({
      level,
      candidate: CAMEL[level],
      value: databricksCannot ? null : CAMEL[level],
      readDifferently: databricksCannot ? ['databricks'] : [],
      cannotSet: sparkCannotSet ? ['delta-spark'] : [],
      setFrom: engines.some(canSet) ? engines.filter(canSet) : WRITER_LIBRARIES.filter(canSet),
    });
    expect(rec.readings.map((r) => r.library)).toEqual(engines);
    // The recommended value is flagged by none of the readings shown beside it.
    if (rec.value !== null) expect(rec.readings.filter((r) => r.flagged)).toEqual([]);
  });

  it("flags the value it recommends for every engine the dashboard lists on none of them, Spark's DDL a note", () => {
    for (const level of LEVELS) {
      const { value } = recommendSpelling(level, WRITER_LIBRARIES);
      if (value === null) continue;
      const readings = interpretIsolationLevel(value);
      expect(
        readings.filter((r) => r.flagged).map((r) => r.library),
        value,
      ).toEqual([]);
      expect(
        readings.every((r) => r.effective === level),
        value,
      ).toBe(true);
    }
    expect(LEVELS.map((level) => recommendSpelling(level, WRITER_LIBRARIES).value)).toEqual([
      'serializable',
      'writeSerializable',
      null,
    ]);
  });

  it('asks each engine once, whatever order and repeats it is given', () => {
    const rec = recommendSpelling('WriteSerializable', ['databricks', 'delta-rs', 'databricks']);
    expect(rec.readings.map((r) => r.library)).toEqual(['delta-rs', 'databricks']);
  });
});

describe('spellingAdvice: the sentence the audit and the dashboard show', () => {
  it('names the spelling, and where to set it when an engine here cannot', () => {
    expect(spellingAdvice(recommendSpelling('WriteSerializable', ['delta-rs', 'delta-spark']))).toBe(
      "set delta.isolationLevel = 'writeSerializable': every engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from delta-rs 1.2–1.6.x)",
    );
    expect(spellingAdvice(recommendSpelling('WriteSerializable', ['delta-spark', 'databricks']))).toBe(
      "set delta.isolationLevel = 'writeSerializable': every engine here reads it as WriteSerializable at commit (Delta Spark's DDL cannot set it: set it from Databricks)",
    );
    expect(spellingAdvice(recommendSpelling('Serializable', ['delta-spark']))).toBe(
      "set delta.isolationLevel = 'serializable': Delta Spark reads it as Serializable at commit",
    );
  });

  it('when no spelling works, says what the engines that read it differently do, named as the caller names them', () => {
    const rec = recommendSpelling('SnapshotIsolation', ['delta-rs', 'databricks']);
    expect(spellingAdvice(rec, (e) => `job-on-${e}`)).toBe(
      "no spelling of SnapshotIsolation is read as SnapshotIsolation at commit by every engine here: with 'snapshotIsolation', job-on-databricks does not accept it",
    );
  });
});

describe('an unset level: each engine’s default, flagged when they differ among the engines present', () => {
  it.each(ENGINE_SETS)('%j', (...engines) => {
    const unset = readUnset(engines);
    expect(unset.defaults).toEqual(
      engines.map((engine) => ({ engine, level: engine === 'databricks' ? 'WriteSerializable' : 'Serializable' })),
    );
    const differ = engines.includes('databricks') && engines.length > 1;
    expect(unset.flagged).toBe(differ);
    expect(unsetFix(unset)).toBe(
      differ
        ? "set delta.isolationLevel to the level you mean, 'serializable' or 'writeSerializable', so that every engine commits at one level"
        : null,
    );
  });

  it('names the engines and their defaults', () => {
    expect(describeUnset(readUnset(['delta-rs', 'delta-spark', 'databricks']))).toBe(
      'unset: delta-rs 1.2–1.6.x and Delta Spark commit at Serializable; Databricks commits at WriteSerializable',
    );
  });
});
