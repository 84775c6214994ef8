/**
 * The processes `npm start` runs (API, workers, dashboard server): each is plain node on a script, its
 * output prefixed with its name on the progress board. When one exits on its own, everything stops.
 *
 * A stop goes from the front to the back, so nothing loses what it leans on while it still runs: the
 * dashboard (it calls the API), then the API (it hands work to the workers), then the workers, each signalled
 * by PID and waited for; then what the launcher itself holds (the database, stopped last). It ends with the
 * line `racelab stopped`. A stop signal that comes a second or more after the first forces the stop: the
 * processes still running are killed, and the database told to stop at once. Signals that come together are
 * one request: a terminal's Ctrl-C reaches npm and the launcher at once, and npm passes its own on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { ProgressBoard } from '@racelab/lab';

export interface StopHooks {
  /** Runs first, before any process is signalled (ends the work not held as a process, such as a build). */
  stopping(): void;
  /** Runs once every process has exited (stops the database). */
  stopped(): Promise<void>;
  /** A forced stop: ends at once what `stopped` would end gracefully (the database's immediate shutdown). */
  forced(): void;
}

/** The processes stopped first, by name prefix, in order; a name matching none is stopped after these. */
const STOP_ORDER = ['web', 'api', 'worker'];
/** How much later a stop signal must come than the first to force the stop, ms. */
export const FORCE_AFTER_MS = 1_000;

/** Where `name` stands in the stop order. */
const stopRank = (name: string) => {
  const i = STOP_ORDER.findIndex((prefix) => name.startsWith(prefix));
  return i < 0 ? STOP_ORDER.length : i;
};

export class Children {
  private readonly running = new Map<string, ChildProcess>();
  /** When the stop began (ms since the epoch), or null while running. */
  private stoppingSince: number | null = null;
  private forcedStop = false;

  constructor(
    private readonly board: ProgressBoard,
    private readonly hooks: StopHooks,
  ) {}

  /** True once a stop has begun, for whatever reason. */
  get stopping(): boolean {
    return this.stoppingSince !== null;
  }

  /** Starts `node args…` in `cwd` as `name`, with `env` over the launcher's own environment; refused once stopping. */
  start(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
    if (this.stopping) throw new Error(`${name} not started: stopping`);
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

  /**
   * A stop signal (SIGINT, SIGTERM, the end of `npm start`'s process): the first stops everything and exits 0;
   * one that comes FORCE_AFTER_MS or more after the stop began forces it.
   */
  signalled(why: string): void {
    if (this.stoppingSince === null) {
      void this.stop(0, why);
      return;
    }
    if (this.forcedStop || Date.now() - this.stoppingSince < FORCE_AFTER_MS) return;
    this.forcedStop = true;
    this.board.log(`${why} again: forcing the stop (killing what still runs)`);
    for (const c of this.running.values()) c.kill('SIGKILL');
    this.hooks.forced();
  }

  /** Stops every process in order, then the rest, and exits with `code` (1 when forced); later calls do nothing. */
  async stop(code: number, why?: string): Promise<void> {
    if (this.stoppingSince !== null) return;
    this.stoppingSince = Date.now();
    this.hooks.stopping();
    this.board.close();
    if (why) this.board.log(`${why}: stopping ${this.order().join(', ') || 'the steps under way'}, then the database`);
    for (const rank of new Set(this.order().map(stopRank))) {
      const layer = [...this.running].filter(([name]) => stopRank(name) === rank);
      await Promise.all(layer.map(([, child]) => stopped(child)));
    }
    await this.hooks.stopped();
    this.board.log(this.forcedStop ? 'racelab stopped (forced)' : 'racelab stopped');
    process.exit(this.forcedStop ? 1 : code);
  }

  /** The running processes' names in stop order. */
  private order(): string[] {
    return [...this.running.keys()].sort((a, b) => stopRank(a) - stopRank(b));
  }
}

/** Sends `child` SIGTERM and resolves once it has exited. */
function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
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
