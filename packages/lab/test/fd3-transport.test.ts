/**
 * The race over fd 3 with writers that are not Node: small Python programs written here (plain python3, no venv)
 * speak the protocol (read job, say ready, read go, say done). The race's barrier holds for them as for the lab's
 * own writers; a crash is the writer's failed outcome named by its traceback, never the race's crash; a writer
 * that never answers is stopped by process group, with what it started, at the race's timeout or cancel.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { WriterSpec } from '../src/cases/catalog';
import type { WriterJob } from '../src/runner/messages';
import { RaceCancelledError, race } from '../src/runner/race';
import { pythonException, type WriterCommand } from '../src/runner/transport';

const dir = mkdtempSync(join(tmpdir(), 'racelab-fd3-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The protocol's common part: fd 3 as a line file, and one JSON object per line each way. */
const PRELUDE = `
import json, os, socket, sys, time
chan = socket.socket(fileno=3).makefile('rwb')
def send(msg):
    chan.write((json.dumps(msg) + '\\n').encode())
    chan.flush()
def read():
    line = chan.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)
now = lambda: int(time.time() * 1000)
job = read()['job']
name = job['writer']['name']
out = sys.argv[1]
`;

function script(file: string, body: string): WriterCommand {
  const path = join(dir, file);
  writeFileSync(path, PRELUDE + body);
  // Unbuffered, as the lab runs its real writers: what a stopped writer printed is in its log.
  return {
    command: 'python3',
    args: [path, dir],
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', PYTHONUNBUFFERED: '1' },
  };
}

/**
 * One program, its behaviour chosen by the writer's name: `crash…` raises after go, `early…` raises before ready,
 * `silent…` starts a child of its own (its pid in a file), says ready and then never answers, `lose…` reports a
 * failed commit; any other name writes down when it was released and reports a commit. Each prints to stdout and stderr, which must stay its log.
 */
const WRITER = script(
  'writer.py',
  `
print('hello from', name)
print('a warning', file=sys.stderr)
class CommitFailedError(Exception):
    pass
def commit():
    raise CommitFailedError('Commit failed: a concurrent transaction deleted data this operation read.\\nsecond line')
if name.startswith('early'):
    raise FileNotFoundError('no table here')
if name.startswith('silent'):
    import subprocess
    child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(3600)'])
    open(os.path.join(out, name + '.child'), 'w').write(str(child.pid))
opened = now()
send({'type': 'ready', 'opened': opened, 'prepared': now()})
assert read()['type'] == 'go'
released = now()
if name.startswith('silent'):
    time.sleep(3600)
if name.startswith('crash'):
    commit()
open(os.path.join(out, name + '.released'), 'w').write(str(released))
lost = name.startswith('lose')
if lost:
    print('commit failed, as the library logged it', file=sys.stderr)
else:
    send({'type': 'committed', 'version': 1})
send({'type': 'done', 'released': released, 'finished': now(), 'outcome': {
    'committed': not lost, 'version': None if lost else 1, 'readVersion': 0, 'attempts': 1,
    'commitRetries': None if lost else 0, 'attemptErrors': [],
    'errorClass': 'CommitFailedError' if lost else None, 'errorMessage': 'Failed to commit transaction: 0' if lost else None,
    'warnings': ['logged'], 'filesWritten': 1, 'bytesWritten': 10,
    'library': 'delta-rs', 'libraryVersion': '1.6.6', 'run': 'real'}})
print('bye', file=sys.stderr)
`,
);

const spec = (name: string, extra: Partial<WriterSpec> = {}): WriterSpec => ({
  name,
  operation: { kind: 'append', day: '2025-02-01' },
  ...extra,
});
const job = (writer: WriterSpec): WriterJob => ({ kind: 'race', format: 'delta', table: dir, writer });

/** A process that has exited (or is only a zombie waiting to be reaped) is gone. */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

/**
 * The child a `silent` writer started is gone. Polled: the kernel closes a killed process's files (which ends the
 * race's wait) a moment before it marks the process exited.
 */
const expectGone = (writer: string) =>
  expect.poll(() => gone(Number(readFileSync(join(dir, `${writer}.child`), 'utf8'))), { timeout: 3000 }).toBe(true);

describe('the race over fd 3 (python3 writers)', () => {
  it('holds the barrier: each writer is released only once every writer is ready, and its outcome is its own', async () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    const events: string[] = [];
    const started = Date.now();
    const results = await race([job(spec('A')), job(spec('B'))], started, {
      command: WRITER,
      onEvent: (w, e) => events.push(`${w}:${e}`),
    });
    const printed = stdout.mock.calls.length;
    stdout.mockRestore();
    expect(printed).toBe(0);
    // No release before both said ready.
    const firstRelease = events.findIndex((e) => e.endsWith(':released'));
    expect(events.slice(0, firstRelease).sort()).toEqual(['A:ready', 'B:ready']);
    for (const r of results) {
      expect(r).toMatchObject({
        committed: true,
        version: 1,
        library: 'delta-rs',
        libraryVersion: '1.6.6',
        run: 'real',
      });
      expect(r.warnings).toEqual(['logged']);
      expect(r.log).toBeUndefined();
      // The writer's own clock: released after both writers were ready.
      const released = Number(readFileSync(join(dir, `${r.name}.released`), 'utf8'));
      expect(released - started).toBeGreaterThanOrEqual(Math.max(...results.map((x) => x.timings?.prepared ?? 0)));
    }
  });

  it("makes a crash the writer's failed outcome, named by its traceback, while the others finish", async () => {
    const [ok, crashed, early] = await race([job(spec('A')), job(spec('crash')), job(spec('early'))], Date.now(), {
      command: WRITER,
    });
    expect(ok).toMatchObject({ committed: true, version: 1 });
    expect(crashed).toMatchObject({ committed: false, version: null, errorClass: 'CommitFailedError' });
    expect(crashed?.errorMessage).toBe(
      'Commit failed: a concurrent transaction deleted data this operation read.\nsecond line',
    );
    // Its log is what it printed, the traceback included.
    expect(crashed?.log).toContain('hello from crash');
    expect(crashed?.log).toContain('a warning');
    expect(crashed?.log).toMatch(/Traceback \(most recent call last\):[\s\S]*in commit/);
    // One that fails before it is ready fails alone: the others were released without it.
    expect(early).toMatchObject({ committed: false, errorClass: 'FileNotFoundError', errorMessage: 'no table here' });
  });

  it('keeps the log of a writer that reports a failure, whole to its exit, and of no writer that committed', async () => {
    const [won, lost] = await race([job(spec('A')), job(spec('lose'))], Date.now(), { command: WRITER });
    expect(won?.log).toBeUndefined();
    expect(lost).toMatchObject({ committed: false, errorClass: 'CommitFailedError', run: 'real' });
    // stdout and stderr are two pipes: their lines interleave as they arrive. `bye` came after the result.
    for (const line of ['hello from lose', 'a warning', 'commit failed, as the library logged it', 'bye'])
      expect(lost?.log?.split('\n')).toContain(line);
  });

  it('stops a writer that never answers, and the process it started, at the race timeout', async () => {
    const [ok, stuck] = await race([job(spec('A')), job(spec('silent'))], Date.now(), {
      command: WRITER,
      timeoutMs: 2000,
    });
    expect(ok?.committed).toBe(true);
    expect(stuck).toMatchObject({
      committed: false,
      errorClass: 'WriterTimedOut',
      errorMessage: 'writer silent did not finish within 2 s and was stopped',
    });
    expect(stuck?.log).toContain('hello from silent');
    await expectGone('silent');
  });

  it('stops every writer and what it started by process group when the race is cancelled', async () => {
    const abort = new AbortController();
    const raced = race([job(spec('silent1')), job(spec('silent2'))], Date.now(), {
      command: WRITER,
      signal: abort.signal,
      onEvent: (_, e) => e === 'released' && abort.abort(),
    });
    await expect(raced).rejects.toBeInstanceOf(RaceCancelledError);
    for (const w of ['silent1', 'silent2']) await expectGone(w);
  });
});

describe('pythonException', () => {
  it("reads the last traceback's exception: class without its module, the text to the end", () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "x.py", line 1, in <module>',
      'ValueError: first',
      'noise',
      'Traceback (most recent call last):',
      '  File "y.py", line 2, in <module>',
      '    raise deltalake.exceptions.CommitFailedError("a: b")',
      'deltalake.exceptions.CommitFailedError: a: b',
    ].join('\n');
    expect(pythonException(log)).toEqual({ errorClass: 'CommitFailedError', errorMessage: 'a: b' });
    expect(pythonException('KeyboardInterrupt')).toBeNull();
    expect(pythonException('Traceback (most recent call last):\n  File "z.py"\nKeyboardInterrupt\n')).toEqual({
      errorClass: 'KeyboardInterrupt',
      errorMessage: '',
    });
  });
});
