/**
 * Races whose writers are threads of one host process (the Spark host's transport), against a fake host written
 * here in plain python3 that speaks the host protocol: `host-ready` once, then per writer (messages tagged "writer")
 * `ready`, `go`, `done`. One host serves every race of a session; a writer's failed `done` is its outcome; the host's
 * crash is each pending writer's failed outcome with the host's log, never the race's crash; a writer that never
 * answers stops the host by process group at the race's timeout (the next race starts another), as a cancel does; a
 * host that never gets ready is given up at its bound.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { WriterSpec } from '../src/cases/catalog';
import { SparkHosting } from '../src/real/spark-host';
import type { WriterJob } from '../src/runner/messages';
import { RaceCancelledError, race } from '../src/runner/race';
import type { WriterCommand } from '../src/runner/transport';

const dir = mkdtempSync(join(tmpdir(), 'racelab-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The fake host. Writers behave by name: `lose…` reports a failed commit, `crash…` kills the host after go, `silent…`
 * never answers after go; any other commits. With `NO_READY` set the host never says host-ready. It writes its pid,
 * and a child it started, to files, so that the test can see one host serve several races and the group stopped.
 */
const HOST = `
import json, os, socket, subprocess, sys, threading, time
out = sys.argv[1]
open(os.path.join(out, 'host.pid'), 'a').write(str(os.getpid()) + '\\n')
child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'])
open(os.path.join(out, 'host.child'), 'w').write(str(child.pid))
chan = socket.socket(fileno=3).makefile('rwb')
lock = threading.Lock()
def send(msg):
    with lock:
        chan.write((json.dumps(msg) + '\\n').encode())
        chan.flush()
now = lambda: int(time.time() * 1000)
print('session starting', file=sys.stderr)
if os.environ.get('NO_READY'):
    time.sleep(3600)
send({'type': 'host-ready', 'sparkVersion': '4.2.0', 'deltaVersion': '4.4.0'})
jobs = {}
while True:
    line = chan.readline()
    if not line:
        break
    msg = json.loads(line)
    if msg['type'] == 'shutdown':
        print('shutting down', file=sys.stderr)
        break
    name = msg['writer']
    if msg['type'] == 'job':
        print('job for', name)
        jobs[name] = msg['job']
        send({'type': 'ready', 'writer': name, 'opened': now(), 'prepared': now()})
    elif msg['type'] == 'go':
        released = now()
        if name.startswith('silent'):
            continue
        if name.startswith('crash'):
            raise RuntimeError('the JVM went away')
        lost = name.startswith('lose')
        if lost:
            print('ConcurrentAppendException for', name, file=sys.stderr)
        send({'type': 'done', 'writer': name, 'released': released, 'finished': now(), 'outcome': {
            'committed': not lost, 'version': None if lost else 1, 'readVersion': 0, 'attempts': 1,
            'commitRetries': None if lost else 0, 'attemptErrors': [],
            'errorClass': 'ConcurrentAppendException' if lost else None,
            'errorMessage': '[DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected.' if lost else None,
            'warnings': [], 'filesWritten': 1, 'bytesWritten': 10,
            'library': 'delta-spark', 'libraryVersion': '4.4.0', 'run': 'real'}})
`;

const hostFile = join(dir, 'host.py');
writeFileSync(hostFile, HOST);
const command = (env: Record<string, string> = {}): WriterCommand => ({
  command: 'python3',
  args: [hostFile, dir],
  cwd: dir,
  env: { PATH: process.env.PATH ?? '', PYTHONUNBUFFERED: '1', ...env },
});

const spec = (name: string): WriterSpec => ({ name, operation: { kind: 'append', day: '2025-02-01' } });
const job = (name: string): WriterJob => ({ kind: 'race', format: 'delta', table: dir, writer: spec(name) });
const hostPids = () => readFileSync(join(dir, 'host.pid'), 'utf8').trim().split('\n').map(Number);

function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}
const lastHostGone = () =>
  expect
    .poll(() => gone(hostPids().at(-1) as number) && gone(Number(readFileSync(join(dir, 'host.child'), 'utf8'))), {
      timeout: 3000,
    })
    .toBe(true);

let hosting: SparkHosting | null = null;
afterEach(async () => {
  await hosting?.close();
  hosting = null;
  rmSync(join(dir, 'host.pid'), { force: true });
});

describe('writers as threads of one host process', () => {
  it('serves every race from one host, barrier held, a failed done being the loser’s outcome with the host’s log', async () => {
    hosting = new SparkHosting(command());
    const events: string[] = [];
    const first = await race([job('A'), job('lose')], Date.now(), {
      host: hosting,
      onEvent: (w, e) => events.push(`${w}:${e}`),
    });
    const firstRelease = events.findIndex((e) => e.endsWith(':released'));
    expect(events.slice(0, firstRelease).sort()).toEqual(['A:ready', 'lose:ready']);
    expect(first[0]).toMatchObject({ committed: true, version: 1, library: 'delta-spark', run: 'real' });
    expect(first[0]?.log).toBeUndefined();
    expect(first[1]).toMatchObject({ committed: false, errorClass: 'ConcurrentAppendException' });
    // Its log is the host's, from its job on: not what the host printed before it.
    expect(first[1]?.log).toContain('ConcurrentAppendException for lose');
    expect(first[1]?.log).not.toContain('session starting');
    const second = await race([job('A'), job('B')], Date.now(), { host: hosting });
    expect(second.map((w) => w.committed)).toEqual([true, true]);
    expect(hostPids()).toHaveLength(1);
    expect(hosting.starts.startsMs).toHaveLength(1);
    expect(hosting.starts.versions).toEqual({ sparkVersion: '4.2.0', deltaVersion: '4.4.0' });
    await hosting.close();
    await lastHostGone();
  });

  it("makes the host's crash every pending writer's failed outcome, with the host's log, never the race's crash", async () => {
    hosting = new SparkHosting(command());
    const [a, crash] = await race([job('silentA'), job('crash')], Date.now(), { host: hosting });
    for (const w of [a, crash]) {
      expect(w).toMatchObject({ committed: false, errorClass: 'WriterHostCrashed' });
      expect(w?.errorMessage).toContain('RuntimeError: the JVM went away');
      expect(w?.log).toContain('Traceback (most recent call last)');
    }
    // The next race starts another host.
    const [b] = await race([job('B')], Date.now(), { host: hosting });
    expect(b?.committed).toBe(true);
    expect(hostPids()).toHaveLength(2);
  });

  it('stops the host by process group when a writer does not finish within the race timeout, and starts another after', async () => {
    hosting = new SparkHosting(command());
    const [ok, stuck] = await race([job('A'), job('silent')], Date.now(), { host: hosting, timeoutMs: 2000 });
    expect(ok?.committed).toBe(true);
    expect(stuck).toMatchObject({
      committed: false,
      errorClass: 'WriterTimedOut',
      errorMessage: 'writer silent did not finish within 2 s and was stopped',
    });
    await lastHostGone();
    const [again] = await race([job('A')], Date.now(), { host: hosting });
    expect(again?.committed).toBe(true);
    expect(hostPids()).toHaveLength(2);
  });

  it('stops the host by process group when the race is cancelled', async () => {
    hosting = new SparkHosting(command());
    const abort = new AbortController();
    const raced = race([job('silent1'), job('silent2')], Date.now(), {
      host: hosting,
      signal: abort.signal,
      onEvent: (_, e) => e === 'released' && abort.abort(),
    });
    await expect(raced).rejects.toBeInstanceOf(RaceCancelledError);
    await lastHostGone();
  });

  it('gives up a host that is not ready within its bound: each writer fails with why, the host stopped', async () => {
    hosting = new SparkHosting(command({ NO_READY: '1' }), 1500);
    const results = await race([job('A'), job('B')], Date.now(), { host: hosting });
    for (const w of results) {
      expect(w).toMatchObject({ committed: false, errorClass: 'WriterHostCrashed' });
      expect(w.errorMessage).toContain('the Spark host was not ready within 1.5 s');
    }
    await lastHostGone();
    expect(hosting.starts.startsMs).toEqual([]);
  });
});
