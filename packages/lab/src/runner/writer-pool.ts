/**
 * Writer processes, started from compiled JavaScript and, with a pool, ahead of the race that uses them.
 *
 * A writer process spends most of its start loading modules (DuckDB's bindings, the AWS SDK, pg); a race
 * waiting on that measures the machine's module loading, not the writers. A pool starts processes that
 * load everything and wait for their job (`{ type: 'job' }`), refilled while the previous run is checked.
 * Each process still takes exactly one job and exits after it: a fresh DuckDB, a fresh table snapshot,
 * fresh S3 clients and caches per writer, as a process started for the job would have. Nothing of a
 * previous race can leak into the next one, so no argument about reuse being safe is needed.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { compiledEntry } from '../build/compiled-entry';
import { REPO_ROOT } from '../build/repo-root';
import type { ToWriter } from './messages';

/** The writer's source; bundles are named from it (see compiledEntry), never from this module's own URL. */
export const WRITER_SOURCE = join(REPO_ROOT, 'packages/lab/src/processes/writer-process.ts');

/** The runnable writer bundle, built on first use and whenever a source it was built from changed. */
export const writerEntry = (): Promise<string> => compiledEntry(WRITER_SOURCE);

export interface StartedWriter {
  child: ChildProcess;
  /** Everything the process wrote to stderr so far (and later). */
  stderr: string[];
}

/**
 * A writer process with no job yet. Plain `node`: no `--import tsx`, and none of this process's own flags
 * (a test runner's or tsx's loaders) either, so the writer runs the bundle and nothing else.
 */
export function startWriterProcess(entry: string): StartedWriter {
  // Whatever a writer prints goes to this process's stderr (fd 2): stdout may be a command's JSON (`--json -`).
  const child = fork(entry, [], { execArgv: [], stdio: ['ignore', 2, 'pipe', 'ipc'] });
  const stderr: string[] = [];
  child.stderr?.on('data', (b: Buffer) => stderr.push(b.toString()));
  return { child, stderr };
}

/**
 * Gives a started writer its job: always as its first message, whether the process was started for it or waited in
 * a pool. A process that died before its job arrived is reported by its exit, as any crash is.
 */
export function giveJob<J>({ child }: StartedWriter, job: J): void {
  if (child.connected) child.send({ type: 'job', job } satisfies ToWriter<J>, () => {});
}

/** The environment a process inherits: a warm process made before it changed must not serve a job. */
const environment = () => JSON.stringify(process.env);

interface Warm extends StartedWriter {
  env: string;
}

const alive = (c: ChildProcess) => c.connected && c.exitCode === null && c.signalCode === null;

export class WriterPool {
  private idle: Warm[] = [];
  private closed = false;

  private constructor(
    private readonly entry: string,
    /** How many processes wait at most: the most writers a race of the session has. */
    readonly size: number,
  ) {}

  /** A pool of `size` waiting processes, started now. */
  static async open(size: number): Promise<WriterPool> {
    const pool = new WriterPool(await writerEntry(), size);
    pool.fill();
    return pool;
  }

  /** A waiting process started under today's environment, or a new one (which then loads while its job waits). */
  take(): StartedWriter {
    const env = environment();
    while (this.idle.length > 0) {
      const w = this.idle.shift() as Warm;
      if (alive(w.child) && w.env === env) return w;
      w.child.kill('SIGKILL');
    }
    return startWriterProcess(this.entry);
  }

  /** Starts processes until `size` wait for a job. */
  fill(): void {
    if (this.closed) return;
    this.idle = this.idle.filter((w) => alive(w.child));
    const env = environment();
    while (this.idle.length < this.size) this.idle.push({ ...startWriterProcess(this.entry), env });
  }

  /** Number of processes waiting for a job. */
  get waiting(): number {
    return this.idle.filter((w) => alive(w.child)).length;
  }

  /** The waiting processes' ids, oldest first. */
  pids(): number[] {
    return this.idle.flatMap((w) => (alive(w.child) && w.child.pid !== undefined ? [w.child.pid] : []));
  }

  /** Stops every waiting process and waits until each has exited. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle;
    this.idle = [];
    await Promise.all(
      idle.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.child.exitCode !== null || w.child.signalCode !== null) return resolve();
            // 'exit', not 'close': a channel the parent closes never counts as closed, so 'close' would never come.
            w.child.once('exit', () => resolve());
            // A waiting process holds nothing yet (no table, no file), so killing it loses nothing.
            w.child.kill('SIGKILL');
          }),
      ),
    );
  }
}
