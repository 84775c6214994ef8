/**
 * The store probe against endpoints that are not S3 at all, without an S3 server: one that closes
 * every connection and one that accepts and never answers. Both are "could not run", said in one
 * line, and neither holds the probe longer than its per-call timeout allows. Safe and unsafe stores
 * are in test-s3/probe.test.ts (radosgw and the lying proxy).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeStore } from '../src/index';

const servers: Server[] = [];
const held: Socket[] = [];
afterEach(async () => {
  for (const s of held.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A TCP server on loopback that does `onConnection` to every connection. */
async function endpoint(onConnection: (s: Socket) => void): Promise<string> {
  const server = createServer(onConnection);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const s3 = (url: string) => ({ endpoint: url, credentials: { accessKeyId: 'probe', secretAccessKey: 'probe' } });

describe('the store probe where no S3 answers', () => {
  it('an endpoint that closes every connection: could not run, every check not run', async () => {
    const url = await endpoint((s) => s.destroy());
    const r = await probeStore('s3://bucket/team', { rounds: 2, s3: s3(url) });
    expect(r.verdict).toBe('could-not-run');
    expect(r.summary).toMatch(
      new RegExp(`^could not run: writing team/racelab-probe-[^/]+/hello: cannot reach ${url}: `),
    );
    expect(r.checks.map((c) => c.outcome)).toEqual(['not-run', 'not-run', 'not-run', 'not-run']);
    expect(r.cleanup.leftover).toBe(-1);
  });

  it('an endpoint that never answers: could not run within the per-call timeout, not forever', async () => {
    const url = await endpoint((s) => {
      held.push(s);
      s.resume();
    });
    const r = await probeStore('s3://bucket/team', { rounds: 2, callTimeoutMs: 200, s3: s3(url) });
    expect(r.summary).toMatch(
      new RegExp(`^could not run: writing team/racelab-probe-[^/]+/hello: ${url} did not answer within 200 ms$`),
    );
    // The preflight put, then the clean-up's listing with the SDK's 3 attempts: a few timeouts, not a hang.
    expect(r.durationMs).toBeLessThan(5_000);
  });
});
