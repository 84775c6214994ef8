/**
 * `npm run probe`'s exit codes against a real store: 0 on radosgw, 1 through a lying mode of the
 * fault proxy in front of it (the CLI reads AWS_ENDPOINT_URL like any user's run), 2 on a bucket
 * that does not exist; the JSON report is written, and the prefix is empty afterwards.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type ProbeReport, parseS3Url, s3ConfigFromEnv } from '@racelab/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3FaultProxy, startS3FaultProxy } from '../../engine/test/helpers/s3-fault-proxy';
import { s3Env, s3Root } from '../../engine/test-s3/env';
import { noise, runProbe } from '../test/helpers/probe-cli';

const root = s3Root('probe-cli');
const SMALL = ['--rounds', '5', '--writers', '4', '--read-after-write', '2'];
let proxy: S3FaultProxy;
beforeAll(async () => {
  proxy = await startS3FaultProxy(s3Env().endpoint);
});
afterAll(() => proxy.stop());

async function keysUnderRoot(): Promise<string[]> {
  const { bucket, prefix } = parseS3Url(root);
  const r = await new S3Client(s3ConfigFromEnv()).send(
    new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }),
  );
  return (r.Contents ?? []).map((o) => o.Key ?? '');
}

describe('npm run probe against a real store', () => {
  it('exit 0 on radosgw, with the JSON report', async () => {
    const json = join(tmpdir(), `probe-cli-${process.pid}.json`);
    const r = await runProbe([`${root}/radosgw`, ...SMALL, '--json', json]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^safe for concurrent Delta writers: all 4 checks passed$/m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as ProbeReport;
    expect([report.verdict, report.settings]).toEqual(['safe', { writers: 4, rounds: 5, readAfterWrite: 2 }]);
    expect(noise(r)).toBe(false);
    expect(await keysUnderRoot()).toEqual([]);
  });

  it('exit 1 through the lying proxy (ignore-if-none-match), the failed checks named', async () => {
    proxy.lie('ignore-if-none-match');
    try {
      const r = await runProbe([`${root}/lying`, ...SMALL], { AWS_ENDPOINT_URL: proxy.endpoint });
      expect(r.status, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^FAIL {2}A conditional PUT on an existing key is refused/m);
      expect(r.stdout).toMatch(/^unsafe for concurrent Delta writers\. existing-key-refused failed: a second writer/m);
    } finally {
      proxy.lie(null);
    }
    expect(await keysUnderRoot()).toEqual([]);
  });

  it('exit 2 on a bucket that does not exist, in one line', async () => {
    const r = await runProbe([`s3://no-such-bucket-${process.pid}/x`, ...SMALL]);
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/^could not run: writing .*: bucket 'no-such-bucket-\d+' does not exist at /m);
    expect(noise(r)).toBe(false);
  });
});
