import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface WorkerResult {
  code: number | null;
  out: string[];
}

/**
 * Starts `n` node processes running a TypeScript worker; each prints "ready" once prepared and
 * then waits for "go" on stdin. When every one is ready they are all released at once: a barrier
 * made of pipes, not of sleeps.
 */
export async function raceProcesses(
  script: string,
  argsFor: (i: number) => string[],
  n: number,
): Promise<WorkerResult[]> {
  const children: ChildProcess[] = [];
  const results: Promise<WorkerResult>[] = [];
  const ready: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...argsFor(i)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const out: string[] = [];
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    ready.push(
      new Promise((resolve) => {
        lines.on('line', (l) => {
          if (l === 'ready') resolve();
          else out.push(l);
        });
      }),
    );
    results.push(new Promise((resolve) => child.on('close', (code) => resolve({ code, out }))));
  }
  await Promise.all(ready);
  for (const c of children) c.stdin?.end('go\n');
  return Promise.all(results);
}
