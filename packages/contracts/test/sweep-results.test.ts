/** A sweep's results document: the check and the generated JSON Schema take a whole one and name what is wrong. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkSweepResults } from '../src/index';
import { jsonSchemaOf } from '../src/json-schemas';

const q = { p10: 1, p50: 2, p90: 3, p99: 4 };
const RESULTS = {
  kind: 'racelab-sweep',
  formatVersion: 1,
  startedAt: '2026-12-02T05:00:00.000Z',
  finishedAt: '2026-12-02T05:01:00.000Z',
  machine: { cores: 2, platform: 'linux', node: 'v20.20.2' },
  input: {
    writers: [4],
    commitsPerWriter: 5,
    operation: 'compaction',
    appendRatePerSec: 2,
    policy: { name: 'none', maxCommitRetries: 0, appTries: 1, backoff: null },
    seed: 1,
  },
  store: 'local',
  points: [
    {
      writers: 4,
      durationMs: 2500,
      commits: { acknowledged: 18, failed: 2, intended: 20 },
      failures: [{ message: 'Failed to commit transaction: 0', count: 2 }],
      attempts: { total: 20, successPerAttempt: 0.9, histogram: [{ attempts: 1, commits: 18 }] },
      commitsPerSec: 7.2,
      latencyMs: { p50: 8, p99: 30, mean: 10 },
      wasted: { bytes: 900, files: 2, orphanFiles: 2 },
      checks: {
        versionsContiguous: true,
        exactlyOnce: true,
        lost: 0,
        duplicated: 0,
        verdict: 'serial',
        verdictNote: 'computed replay',
      },
      compactor: { acknowledged: 3, attempts: 5, successPerAttempt: 0.6, failures: [] },
      measured: { attemptMs: q, prepareMs: q, appPauseMs: { p10: 0, p50: 0, p90: 0, p99: 0 } },
    },
  ],
  forecast: null,
};

describe('checkSweepResults', () => {
  it('takes a whole document, with and without a forecast', () => {
    expect(checkSweepResults(RESULTS)).toMatchObject({ ok: true });
    const forecast = {
      model: 'commit-loop-simulation',
      curve: [{ writers: 1, successPerAttempt: 1, exhaustion: 0, commitsPerSec: 50 }],
      atPoints: [{ writers: 4, successPerAttempt: 0.8, exhaustion: 0.1, commitsPerSec: 7 }],
      error: { successPerAttemptMeanAbs: 0.1, commitsPerSecMeanRel: 0.03 },
    };
    expect(checkSweepResults({ ...RESULTS, forecast })).toMatchObject({ ok: true });
    const schema = new Ajv2020({ strict: false, validateFormats: false }).compile(
      jsonSchemaOf('sweep-results.schema.json'),
    );
    expect(schema(RESULTS), JSON.stringify(schema.errors)).toBe(true);
    expect(schema({ ...RESULTS, forecast }), JSON.stringify(schema.errors)).toBe(true);
    expect(schema({ ...RESULTS, store: 'gcs' })).toBe(false);
  });

  it('names every wrong field by its path', () => {
    const [point] = RESULTS.points;
    const broken = {
      ...RESULTS,
      store: 'gcs',
      points: [{ ...point, attempts: { ...point?.attempts, successPerAttempt: 1.5 }, checks: { verdict: 'maybe' } }],
    };
    const r = checkSweepResults(broken, 'sweep.json');
    expect(r.ok).toBe(false);
    const problems = r.ok ? [] : r.problems;
    expect(problems).toContain("sweep.json: store must be local or s3, got 'gcs'");
    expect(problems).toContain('sweep.json: points[0].attempts.successPerAttempt must be from 0 to 1');
    expect(problems).toContain("sweep.json: points[0].checks.verdict must be serial or not-serial, got 'maybe'");
    expect(problems).toContain('sweep.json: points[0].checks.exactlyOnce must be a boolean, got nothing');
  });
});
