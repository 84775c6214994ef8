/**
 * The processes `npm start` runs (API, workers, dashboard server): each is plain node on a script, its
 * output prefixed with its name on the progress board. When one exits on its own, everything stops; a stop
 * signals each by PID, waits for every one to exit, then runs what the launcher still holds (the database).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { ProgressBoard } from '@racelab/lab';

export interface StopHooks {
  /** Runs first, before any process is signalled (ends the work not held as a process, such as a build). */
  stopping(): void;
  /** Runs once every process has exited (stops the database). */
  stopped(): Promise<void>;
}

export class Children {
  private readonly running = new Map<string, ChildProcess>();
  private stopping = false;

  constructor(
    private readonly board: ProgressBoard,
    private readonly hooks: StopHooks,
  ) {}

  /** Starts `node args…` in `cwd` as `name`, with `env` over the launcher's own environment. */
  start(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
    // Plain node on a compiled script, no loader and no CLI wrapper: the PID we hold is the process that
    // runs the code, so stopping or killing it really stops that code.
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = (b: Buffer) =>
      b
        .toString()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => `[${name}] ${l}\n`)
        .join('');
    child.stdout?.on('data', (b: Buffer) => this.board.log(prefix(b)));
    child.stderr?.on('data', (b: Buffer) => this.board.log(prefix(b), process.stderr));
    this.running.set(name, child);
    child.on('exit', (code, signal) => {
      this.running.delete(name);
      if (this.stopping) return;
      this.board.log(`${name} exited (${signal ?? code}); stopping everything`, process.stderr);
      void this.stop(1);
    });
    return child;
  }

  /** Stops every process and then the rest, and exits with `code`; later calls do nothing. */
  async stop(code: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.hooks.stopping();
    this.board.close();
    const waits = [...this.running.values()].map(
      (c) =>
        new Promise<void>((resolve) =>
          c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve()),
        ),
    );
    for (const c of this.running.values()) c.kill('SIGTERM');
    await Promise.all(waits);
    await this.hooks.stopped();
    process.exit(code);
  }
}

/** Resolves when `child` prints a line matching `line`; rejects if it exits first. */
export function printedBy(child: ChildProcess, line: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (b: Buffer) => {
      seen += b.toString();
      if (!line.test(seen)) return;
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      resolve();
    };
    const onExit = () => reject(new Error(`${what} exited while starting`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Resolves when `url` answers 2xx; rejects if `child` exits first. */
export async function ready(url: string, child: ChildProcess, what: string): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', () => reject(new Error(`${what} exited while starting`))),
  );
  exited.catch(() => {});
  for (;;) {
    const ok = await Promise.race([
      fetch(url).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (ok) return;
    await Promise.race([new Promise((r) => setTimeout(r, 250)), exited]);
  }
}
