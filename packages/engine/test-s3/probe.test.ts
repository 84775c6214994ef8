/**
 * The store probe against radosgw (safe) and against each lying mode of the fault proxy in front of
 * it (unsafe, naming the check), and a bucket that does not exist (could not run). Every run's
 * scratch prefix must be empty afterwards. Small rounds: the defaults (200 x 8) are measured by
 * the CLI, not here.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DecidingCheckId, type ProbeReport, parseS3Url, probeStore, s3ConfigFromEnv } from '../src/index';
import { type LyingMode, type S3FaultProxy, startS3FaultProxy } from '../test/helpers/s3-fault-proxy';
import { s3Env, s3Root } from './env';

const root = s3Root('engine-probe');
const SMALL = { writers: 4, rounds: 10, readAfterWrite: 3 };
let proxy: S3FaultProxy;
beforeAll(async () => {
  proxy = await startS3FaultProxy(s3Env().endpoint);
});
afterAll(async () => {
  await proxy.stop();
});

/** Every key under `root` (the probes' parent prefix): the probes must leave none behind. */
async function keysUnderRoot(): Promise<string[]> {
  const { bucket, prefix } = parseS3Url(root);
  const r = await new S3Client(s3ConfigFromEnv()).send(
    new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }),
  );
  return (r.Contents ?? []).map((o) => o.Key ?? '');
}

const outcomes = (r: ProbeReport) => Object.fromEntries(r.checks.map((c) => [c.id, c.outcome]));
const failed = (r: ProbeReport) => r.checks.filter((c) => c.outcome === 'failed').map((c) => c.id);

describe('the store probe', () => {
  it('probe on radosgw: safe, every check passed, the prefix empty afterwards', async () => {
    const lines: string[] = [];
    const report = await probeStore(`${root}/radosgw`, { ...SMALL, onProgress: (l) => lines.push(l) });
    expect(report.verdict, report.summary).toBe('safe');
    expect(failed(report)).toEqual([]);
    expect(report.checks.map((c) => c.tries)).toEqual([1, 10, 11, 3]);
    // radosgw 16 matches If-Match only without the ETag's quotes and, as the issue says, ignores
    // If-None-Match on multipart completion.
    expect(Object.fromEntries(report.informational.map((c) => [c.id, c.outcome]))).toEqual({
      'if-match': 'non-standard',
      'conditional-multipart': 'ignored',
    });
    expect(report.latency.map((l) => l.call)).toEqual(
      expect.arrayContaining(['put', 'conditional-put-won', 'conditional-put-refused', 'get', 'list', 'delete']),
    );
    expect(report.cleanup).toEqual({ removed: expect.any(Number), leftover: 0 });
    expect(lines.at(-1)).toBe(`removing ${report.scratch}`);
    expect(await keysUnderRoot()).toEqual([]);
  });

  const expected: Record<LyingMode, DecidingCheckId[]> = {
    'ignore-if-none-match': ['existing-key-refused', 'one-winner', 'refused-put-keeps-bytes'],
    'precondition-failed-as-ok': ['existing-key-refused', 'one-winner'],
    'lose-answer-after-write': ['existing-key-refused', 'one-winner'],
  };
  for (const [mode, checks] of Object.entries(expected) as [LyingMode, DecidingCheckId[]][]) {
    it(`probe through the lying proxy (${mode}): unsafe, names ${checks.join(', ')}`, async () => {
      proxy.lie(mode);
      try {
        const report = await probeStore(`${root}/${mode}`, { ...SMALL, s3: { endpoint: proxy.endpoint } });
        expect(report.verdict).toBe('unsafe');
        expect(failed(report)).toEqual(checks);
        for (const id of checks) expect(report.summary).toContain(` ${id} failed: `);
        expect(outcomes(report)['read-after-write']).toBe('passed');
        // No writer is ever answered: the rounds stop early instead of waiting through all of them.
        if (mode === 'lose-answer-after-write') {
          expect(report.checks[1]?.detail).toContain('stopped after 3 rounds: 3 rounds in a row had no 200 or 412');
        }
        expect(report.cleanup.leftover).toBe(0);
      } finally {
        proxy.lie(null);
      }
      expect(await keysUnderRoot()).toEqual([]);
    });
  }

  it('probe on a bucket that does not exist: could not run, one line naming it', async () => {
    const report = await probeStore(`s3://no-such-bucket-${process.pid}/x`, SMALL);
    expect(report.verdict).toBe('could-not-run');
    expect(report.summary).toMatch(/^could not run: writing .*: bucket 'no-such-bucket-\d+' does not exist at /);
    expect(report.checks.every((c) => c.outcome === 'not-run')).toBe(true);
  });

  it('refuses numbers beyond its bounds before any request', async () => {
    const before = proxy.requests.length;
    await expect(probeStore(`${root}/x`, { rounds: 5000, s3: { endpoint: proxy.endpoint } })).rejects.toThrow(
      'rounds must be a whole number from 1 to 1000, got 5000',
    );
    await expect(probeStore('/local/path', {})).rejects.toThrow(/not an S3 location/);
    expect(proxy.requests.length).toBe(before);
  });
});
