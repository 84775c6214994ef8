/**
 * The jobs manifest's contention fields: a job's commit rate, its instances and its retry policy (a preset's name
 * or numbers), accepted as given and refused with the job and the field named.
 */
import { describe, expect, it } from 'vitest';
import { checkJobsManifest } from '../src/index';

const job = (fields: object) => ({
  name: 'ingest',
  table: 's3://lake/t',
  engine: 'delta-rs 1.6.6',
  operation: 'append',
  ...fields,
});
const check = (fields: object) => checkJobsManifest({ jobs: [job(fields)] });

describe('commitsPerHour, concurrency, retryPolicy', () => {
  it('keeps what a team states', () => {
    const custom = {
      name: 'custom',
      maxCommitRetries: 3,
      appTries: 4,
      backoff: { baseMs: 50, capMs: 5000, jitter: 'equal' },
    };
    expect(check({ commitsPerHour: 0.5, concurrency: 8, retryPolicy: custom })).toEqual({
      ok: true,
      value: { jobs: [job({ commitsPerHour: 0.5, concurrency: 8, retryPolicy: custom })] },
    });
    expect(check({ retryPolicy: 'pyiceberg-like' })).toMatchObject({
      ok: true,
      value: { jobs: [{ retryPolicy: 'pyiceberg-like' }] },
    });
  });

  it('refuses rates, instances and policies that cannot be forecast, naming each', () => {
    expect(check({ commitsPerHour: 0, concurrency: 0, retryPolicy: 'fast' })).toEqual({
      ok: false,
      problems: [
        "job 'ingest': commitsPerHour must be a number above 0, at most 360000, got 0",
        "job 'ingest': concurrency must be an integer from 1 to 1000, got 0",
        "job 'ingest': retryPolicy must be one of delta-rs, pyiceberg-like, spark-like, none (or custom numbers), got 'fast'",
      ],
    });
    expect(check({ retryPolicy: { name: 'custom', maxCommitRetries: -1, appTries: 1, backoff: null } })).toEqual({
      ok: false,
      problems: ["job 'ingest': retryPolicy.maxCommitRetries must be a whole number from 0 to 10000000, got -1"],
    });
    expect(check({ commitsPerHour: '60' })).toMatchObject({ ok: false });
  });
});
