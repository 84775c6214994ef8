/**
 * A sweep's input is checked against its bounds before any work, every problem at once, and comes out with its
 * defaults filled in and its policy as numbers; its generated JSON Schema takes the same documents.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkSweepInput, MAX_SWEEP_COMMITS, RETRY_POLICIES, sweepCommits } from '../src/index';
import { jsonSchemaOf } from '../src/json-schemas';

describe('checkSweepInput', () => {
  it('fills in the defaults and resolves a preset to its numbers', () => {
    expect(checkSweepInput({ operation: 'append-row' })).toEqual({
      ok: true,
      value: {
        writers: [1, 2, 4, 8, 16, 32, 64],
        commitsPerWriter: 10,
        operation: 'append-row',
        policy: { name: 'delta-rs', maxCommitRetries: 15, appTries: 1, backoff: null },
        seed: 1,
      },
    });
    const pyiceberg = checkSweepInput({ operation: 'compaction', writers: [2], policy: 'pyiceberg-like' });
    expect(pyiceberg).toMatchObject({
      ok: true,
      value: {
        appendRatePerSec: 1,
        policy: { maxCommitRetries: 0, appTries: 5, backoff: { baseMs: 100, capMs: 60_000, jitter: 'full' } },
      },
    });
    expect(RETRY_POLICIES['spark-like'].maxCommitRetries).toBe(10_000_000);
  });

  it('takes custom numbers within the bounds', () => {
    const policy = {
      name: 'custom',
      maxCommitRetries: 3,
      appTries: 4,
      backoff: { baseMs: 10, capMs: 80, jitter: 'equal' },
    };
    expect(checkSweepInput({ operation: 'update-overlap', writers: [4], commitsPerWriter: 2, policy })).toMatchObject({
      ok: true,
      value: { policy },
    });
  });

  it('refuses beyond the bounds, naming every problem at once', () => {
    const r = checkSweepInput({
      writers: [0, 65, 2, 2],
      commitsPerWriter: 51,
      operation: 'append',
      policy: {
        name: 'custom',
        maxCommitRetries: 10_000_001,
        appTries: 0,
        backoff: { baseMs: 50, capMs: 10, jitter: 'full' },
      },
      appendRatePerSec: 3,
      seed: -1,
    });
    expect(r).toEqual({
      ok: false,
      problems: [
        'writers[0] must be a whole number from 1 to 64, got 0',
        'writers[1] must be a whole number from 1 to 64, got 65',
        'writers: 2 is given twice',
        'commitsPerWriter must be a whole number from 1 to 50, got 51',
        "operation must be one of append-row, append-day, update-disjoint, update-overlap, compaction, got 'append'",
        'policy.maxCommitRetries must be a whole number from 0 to 10000000, got 10000001',
        'policy.appTries must be a whole number from 1 to 1000, got 0',
        'policy.backoff.capMs must be at least baseMs',
        'seed must be a whole number from 0 to 4294967295, got -1',
        'appendRatePerSec applies to compaction only',
      ],
    });
  });

  it('refuses more than 2,000 commits over the points, the compactor counted', () => {
    const input = { writers: [64, 32, 16, 4], commitsPerWriter: 17, operation: 'compaction' };
    expect(sweepCommits(input)).toBe((64 + 32 + 16 + 4 + 4) * 17);
    expect(checkSweepInput(input)).toEqual({
      ok: false,
      problems: [
        `the sweep makes 2040 commits (N x K over the points, plus the compactor); at most ${MAX_SWEEP_COMMITS}`,
      ],
    });
    expect(checkSweepInput({ ...input, operation: 'append-row' })).toMatchObject({ ok: true });
  });

  it("refuses a preset's name with other numbers, and a policy of neither form", () => {
    const changed = { name: 'delta-rs', maxCommitRetries: 3, appTries: 1, backoff: null };
    expect(checkSweepInput({ operation: 'append-row', policy: changed })).toEqual({
      ok: false,
      problems: ['policy delta-rs is a preset; give name custom for numbers of your own'],
    });
    expect(checkSweepInput({ operation: 'append-row', policy: 'fast' })).toEqual({
      ok: false,
      problems: ["policy must be one of delta-rs, pyiceberg-like, spark-like, none (or custom numbers), got 'fast'"],
    });
    expect(checkSweepInput({ operation: 'append-row', policy: 5 })).toEqual({
      ok: false,
      problems: ["policy must be a preset's name or { name, maxCommitRetries, appTries, backoff }, got 5"],
    });
  });

  it('the generated schema takes a preset or custom numbers and refuses an unknown operation or N > 64', () => {
    const schema = new Ajv2020({ strict: false }).compile(jsonSchemaOf('sweep-input.schema.json'));
    expect(schema({ operation: 'append-row', writers: [1, 2], policy: 'none' })).toBe(true);
    expect(
      schema({
        operation: 'append-row',
        policy: { name: 'custom', maxCommitRetries: 1, appTries: 2, backoff: { baseMs: 1, capMs: 2, jitter: 'none' } },
      }),
    ).toBe(true);
    expect(schema({ operation: 'append' })).toBe(false);
    expect(schema({ operation: 'append-row', writers: [65] })).toBe(false);
  });
});
