import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { WorkerResult } from './processes';

/**
 * Like raceProcesses, but releases the workers one after another: each gets "go" only after the
 * previous one printed its result line. All of them are prepared (loaded) before the first is released.
 */
export async function releaseInOrder(
  script: string,
  argsFor: (i: number) => string[],
  n: number,
): Promise<WorkerResult[]> {
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const firstResult: Promise<void>[] = [];
  const results: Promise<WorkerResult>[] = [];
  for (let i = 0; i < n; i++) {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...argsFor(i)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const out: string[] = [];
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    let onReady = () => {};
    let onResult = () => {};
    ready.push(new Promise((r) => (onReady = r)));
    firstResult.push(new Promise((r) => (onResult = r)));
    lines.on('line', (l) => {
      if (l === 'ready') return onReady();
      out.push(l);
      onResult();
    });
    results.push(new Promise((resolve) => child.on('close', (code) => resolve({ code, out }))));
  }
  await Promise.all(ready);
  for (let i = 0; i < n; i++) {
    children[i]?.stdin?.end('go\n');
    await firstResult[i];
  }
  return Promise.all(results);
}
