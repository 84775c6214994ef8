/**
 * `npm run probe` as a user runs it: a real process through the root package's script, with the
 * environment given (an endpoint, credentials) over the test's own.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../../../..');

export interface ProbeRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Asynchronous, so a fault proxy living in the test's own process keeps answering while it runs. */
export function runProbe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ProbeRun> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'probe', '--', ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** Neither stream holds a stack frame, a Node error dump or a line of npm's own. */
export const noise = (r: ProbeRun) =>
  [r.stdout, r.stderr].some(
    (out) => /^\s+at .+(:\d+:\d+\)?|\(node:.+\))$/m.test(out) || /^node:internal|^npm (error|ERR!|warn)/m.test(out),
  );
