import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface WorkerResult {
  code: number | null;
  out: string[];
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  /** The first line the worker prints after "ready": its result. */
  firstResult: Promise<void>;
  result: Promise<WorkerResult>;
}

/** A node process running a TypeScript worker that prints "ready", then waits for "go" on stdin. */
function startWorker(script: string, args: string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out: string[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  let onReady = () => {};
  let onResult = () => {};
  const ready = new Promise<void>((r) => {
    onReady = r;
  });
  const firstResult = new Promise<void>((r) => {
    onResult = r;
  });
  lines.on('line', (l) => {
    if (l === 'ready') return onReady();
    out.push(l);
    onResult();
  });
  const result = new Promise<WorkerResult>((resolve) => child.on('close', (code) => resolve({ code, out })));
  return { child, ready, firstResult, result };
}

/**
 * Starts `n` workers; when every one is ready they are all released at once: a barrier made of
 * pipes, not of sleeps.
 */
export async function raceProcesses(
  script: string,
  argsFor: (i: number) => string[],
  n: number,
): Promise<WorkerResult[]> {
  const workers = Array.from({ length: n }, (_, i) => startWorker(script, argsFor(i)));
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.child.stdin?.end('go\n');
  return Promise.all(workers.map((w) => w.result));
}

/**
 * Like raceProcesses, but releases the workers one after another: each gets "go" only after the
 * previous one printed its result. All of them are prepared before the first is released.
 */
export async function releaseInOrder(
  script: string,
  argsFor: (i: number) => string[],
  n: number,
): Promise<WorkerResult[]> {
  const workers = Array.from({ length: n }, (_, i) => startWorker(script, argsFor(i)));
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) {
    w.child.stdin?.end('go\n');
    await w.firstResult;
  }
  return Promise.all(workers.map((w) => w.result));
}
