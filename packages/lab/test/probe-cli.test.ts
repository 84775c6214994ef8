/**
 * `npm run probe`'s "could not run" (exit 2) without an S3 server: bad flags and locations are
 * refused before any request, and an endpoint nobody listens on is one line, not a stack trace.
 * Exits 0 and 1 need a store: packages/lab/test-s3/probe-cli.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noise, runProbe } from './helpers/probe-cli';

/** A loopback port that was free a moment ago: nothing answers there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const tempHome = mkdtempSync(join(tmpdir(), 'probe-cli-home-'));
afterAll(() => rmSync(tempHome, { recursive: true, force: true }));
const credentials = { AWS_ACCESS_KEY_ID: 'probe-test', AWS_SECRET_ACCESS_KEY: 'probe-test', AWS_REGION: 'us-east-1' };

describe('npm run probe: exit 2 when it could not run', () => {
  it('no location, a local path, rounds out of bounds: one line each', async () => {
    const runs = await Promise.all([
      runProbe([]),
      runProbe(['/tmp/table']),
      runProbe(['s3://bucket/prefix', '--rounds', '100000']),
      runProbe(['s3://bucket/prefix', '--writers', 'many']),
    ]);
    expect(runs.map((r) => r.status)).toEqual([2, 2, 2, 2]);
    expect(runs.map((r) => r.stderr.trim())).toEqual([
      'probe: usage: npm run probe -- s3://bucket/prefix [--json FILE|-] [--rounds R] [--writers N] [--read-after-write K]',
      "probe: '/tmp/table' is not an S3 location: write s3://bucket/path/to/table",
      'probe: rounds must be a whole number from 1 to 1000, got 100000',
      "probe: --writers must be a number, got 'many'",
    ]);
    expect(runs.some(noise)).toBe(false);
  });

  it('an endpoint nobody answers on, or no credentials: could not run, one line on stdout, no stack trace', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const [unreachable, anonymous] = await Promise.all([
      runProbe(['s3://bucket/prefix', '--rounds', '2'], { ...credentials, AWS_ENDPOINT_URL: endpoint }),
      // No keys in the environment and a home without ~/.aws: the SDK finds none before sending anything.
      runProbe(['s3://bucket/prefix'], {
        AWS_ACCESS_KEY_ID: '',
        AWS_SECRET_ACCESS_KEY: '',
        AWS_PROFILE: '',
        HOME: tempHome,
        AWS_ENDPOINT_URL: endpoint,
      }),
    ]);
    expect([unreachable.status, anonymous.status]).toEqual([2, 2]);
    expect(unreachable.stdout).toMatch(
      new RegExp(
        `^could not run: writing prefix/racelab-probe-[^/]+/hello: cannot reach ${endpoint}: .*ECONNREFUSED.*\n$`,
      ),
    );
    expect(anonymous.stdout).toMatch(
      /^could not run: writing prefix\/racelab-probe-[^/]+\/hello: no S3 credentials found \(set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE\)\n$/,
    );
    expect(noise(unreachable) || noise(anonymous)).toBe(false);
  });
});
