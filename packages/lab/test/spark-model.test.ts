/**
 * The Spark comparison's judgement without Spark: which variants a case runs as (both levels for B and C, released
 * together for I), the order a run is judged in, whether its writers overlapped, the table path masked in Spark's
 * messages, and a run set against a forecast: agreement, and each field where they part.
 */
import { describe, expect, it } from 'vitest';
import {
  type ModelOutcome,
  maskSparkMessage,
  overlapped,
  runDifferences,
  runOrder,
  sparkComparable,
  sparkVariants,
  sparkVerdict,
} from '../src/compare/spark-model';
import { type DeltaCase, selectCases } from '../src/index';
import type { RunResult, WriterResult } from '../src/results/types';
import { writerResult } from './helpers/writer-result';

const deltaCase = (id: string) => selectCases([id])[0] as DeltaCase;

const writer = (name: string, extra: Partial<WriterResult>): WriterResult =>
  writerResult(name, { version: 1, readVersion: 0, ...extra });

const run = (writers: WriterResult[], status = 'serializable'): RunResult =>
  ({ index: 1, writers, verdict: { status, summary: 'data OK' } }) as unknown as RunResult;

const APPEND_MESSAGE = (table: string) =>
  `[DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected. a concurrent UPDATE added data to table ${table} committed at version 1.`;

const B1_LOST = run([
  writer('vendor1', {
    committed: false,
    version: null,
    commitRetries: null,
    errorClass: 'ConcurrentAppendException',
    errorMessage: APPEND_MESSAGE('delta.`file:$LAB_WORK_DIR/runs/B1-1`'),
  }),
  writer('vendor2', {}),
]);

const modelB1: ModelOutcome = {
  first: 'vendor2',
  second: 'vendor1',
  overlap: true,
  spark: {} as ModelOutcome['spark'],
  writers: [
    { name: 'vendor2', outcome: 'committed', version: 1, commitRetries: 0, errorClass: null, errorMessage: null },
    {
      name: 'vendor1',
      outcome: 'failed',
      version: null,
      commitRetries: null,
      errorClass: 'ConcurrentAppendException',
      errorMessage: APPEND_MESSAGE('delta.`<table path>`'),
    },
  ],
};

describe('the Spark comparison', () => {
  it('runs B and C cases under both levels, the I cases also released together, the rest as they are', () => {
    const variants = sparkVariants(selectCases(['B1', 'C2', 'I4', 'E1']));
    expect(variants.map((c) => c.id)).toEqual([
      'B1@WriteSerializable',
      'B1@Serializable',
      'C2@WriteSerializable',
      'C2@Serializable',
      'I4',
      'I4@together',
      'E1',
    ]);
    expect(variants[1]?.properties).toEqual({ 'delta.isolationLevel': 'Serializable' });
    expect(variants[5]?.properties).toEqual({ 'delta.isolationLevel': 'WriteSerializable' });
    expect(variants[5]?.writers.map((w) => w.startAfter)).toEqual([undefined, undefined]);
    expect(variants[4]?.writers[1]?.startAfter).toBe('append');
    expect(sparkComparable(deltaCase('D1'))).toBe(false);
    expect(sparkComparable(deltaCase('B1'))).toBe(true);
  });

  it('judges a run in its order: the leader first, else the writer whose commit landed first', () => {
    expect(runOrder(deltaCase('C3'), run([])).map((w) => w.name)).toEqual(['vendor2', 'compact']);
    expect(runOrder(deltaCase('B1'), B1_LOST).map((w) => w.name)).toEqual(['vendor2', 'vendor1']);
    const both = run([writer('vendor1', { version: 1 }), writer('vendor2', { version: 2 })]);
    expect(runOrder(deltaCase('B3'), both).map((w) => w.name)).toEqual(['vendor1', 'vendor2']);
  });

  it('sees whether SECOND read the table before FIRST committed', () => {
    const [first, second] = deltaCase('C2').writers as [never, never];
    const serial = run([writer('compact', { version: 1 }), writer('vendor2', { version: 2, readVersion: 1 })]);
    expect(overlapped(serial, first, second)).toBe(false);
    const raced = run([writer('compact', { version: 1 }), writer('vendor2', { version: 2, readVersion: 0 })]);
    expect(overlapped(raced, first, second)).toBe(true);
  });

  it("masks Spark's table path to the model's placeholder", () => {
    expect(maskSparkMessage(APPEND_MESSAGE('delta.`file:/tmp/x/runs/B1-1`'))).toBe(
      APPEND_MESSAGE('delta.`<table path>`'),
    );
  });

  it('agrees with a run as modelled, and names each field where a run parts from the model', () => {
    expect(runDifferences(B1_LOST, modelB1)).toEqual([]);
    const bothCommit = run([writer('vendor1', { version: 2, commitRetries: 1 }), writer('vendor2', {})]);
    expect(runDifferences(bothCommit, modelB1)).toEqual([
      'vendor1 outcome: model "failed", real Delta Spark "committed"',
      'vendor1 version: model null, real Delta Spark 2',
      'vendor1 commitRetries: model null, real Delta Spark 1',
      'vendor1 errorClass: model "ConcurrentAppendException", real Delta Spark null',
      `vendor1 errorMessage: model ${JSON.stringify(APPEND_MESSAGE('delta.`<table path>`'))}, real Delta Spark null`,
    ]);
    const anomaly = run(B1_LOST.writers, 'not-serializable');
    expect(runDifferences(anomaly, modelB1)).toEqual([
      'the table afterwards equals no serial order of the writers that committed: data OK',
    ]);
    const verdict = sparkVerdict('B1@Serializable', [
      { run: B1_LOST, model: modelB1 },
      { run: bothCommit, model: modelB1 },
    ]);
    expect(verdict.agree).toBe(false);
    expect(verdict.differences[0]).toBe(
      'run 1 (vendor2 first): vendor1 outcome: model "failed", real Delta Spark "committed"',
    );
    expect(verdict.timing).toEqual(['vendor2 first: as modelled']);
    const serial = sparkVerdict('C2', [{ run: B1_LOST, model: { ...modelB1, overlap: false } }]);
    expect(serial).toEqual({
      id: 'C2',
      agree: true,
      differences: [],
      timing: ['vendor2 first, vendor1 read its commit (serial, no conflict check): as modelled'],
    });
  });
});
