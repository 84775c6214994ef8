/**
 * One process that runs many writers: a host (the Spark host, whose writers must be threads of one JVM because
 * Delta's local log store excludes concurrent writers only inside one JVM). It speaks the fd-3 JSON lines of
 * transport.ts with every message tagged by `"writer"`, says `host-ready` once it can take jobs, and stays up across
 * races. Each writer of a race gets a WriterTransport view of it, so the race never knows it shares a process.
 *
 * The host's stdout and stderr are its log, kept here. A writer's `done` ends its view; the host's exit ends every
 * pending view with the host's log (never the race's crash). A view stopped before its `done` (timeout, cancel) stops
 * the whole host by process group: a thread cannot be stopped alone, and the next race starts a new host.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { FromWriter, ToWriter } from './messages';
import { MAX_WRITER_LOG, pythonException, type WriterCommand, type WriterEnd, type WriterTransport } from './transport';

/** What the host says once its session is up: the versions it runs. */
export interface HostReady {
  type: 'host-ready';
  [version: string]: string;
}

type Tagged = FromWriter & { writer?: string };

class HostStartError extends Error {
  override name = 'HostStartError';
}

interface View {
  listeners: ((msg: FromWriter) => void)[];
  done: boolean;
  close: () => void;
  closed: Promise<void>;
  /** Where the host's log stood when this writer's job was sent: its log is what the host printed since. */
  logFrom: number;
}

/**
 * A started host process. `ready` settles once it said `host-ready` (rejects with HostStartError when it exits or
 * `readyTimeoutMs` passes first, the host then stopped).
 */
export class WriterHost {
  readonly ready: Promise<HostReady>;
  /** Settles once the process has exited and everything it sent has been heard. */
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private readonly channel: Socket;
  private readonly output: string[] = [];
  private outputLength = 0;
  private readonly views = new Map<string, View>();
  private readonly garbled: string[] = [];
  private spawnError: Error | null = null;
  private failure: string | null = null;

  constructor(
    cmd: WriterCommand,
    private readonly label: string,
    readyTimeoutMs: number,
  ) {
    this.child = spawn(cmd.command, [...cmd.args], {
      cwd: cmd.cwd,
      env: cmd.env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (b: Buffer) => {
      const text = b.toString();
      this.output.push(text);
      this.outputLength += text.length;
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.channel = this.child.stdio[3] as Socket;
    this.channel.on('error', () => {});
    let onReady: (r: HostReady) => void = () => {};
    const said = new Promise<HostReady>((resolve) => {
      onReady = resolve;
    });
    let pending = '';
    this.channel.on('data', (b: Buffer) => {
      pending += b.toString();
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (line !== '') this.heard(line, onReady);
        nl = pending.indexOf('\n');
      }
    });
    // What the host started outlives it holding its log's pipes open: once the host exits, its group goes too.
    this.child.on('exit', () => this.killGroup());
    this.exited = new Promise<void>((resolve) => {
      this.child.on('close', () => resolve());
      this.child.on('error', (e) => {
        this.spawnError = e;
        resolve();
      });
    });
    // Every writer still waiting hears of the exit, after every message the host sent before it.
    void this.exited.then(() => {
      for (const v of this.views.values()) v.close();
    });
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new HostStartError(`${label} was not ready within ${readyTimeoutMs / 1000} s`)),
        readyTimeoutMs,
      );
    });
    const gone = this.exited.then(() => {
      throw new HostStartError(`${label} ended before it was ready (${this.exitText()})`);
    });
    this.ready = Promise.race([said, bound, gone]).finally(() => clearTimeout(timer));
    this.ready.catch(async (e: Error) => {
      this.failure = e.message;
      await this.stop();
    });
  }

  private heard(line: string, onReady: (r: HostReady) => void): void {
    let msg: Tagged | HostReady;
    try {
      msg = JSON.parse(line) as Tagged | HostReady;
    } catch {
      this.garbled.push(line);
      return;
    }
    if (msg.type === 'host-ready') {
      onReady(msg as HostReady);
      return;
    }
    const view = this.views.get((msg as Tagged).writer ?? '');
    if (!view || view.done) return;
    const { writer: _, ...untagged } = msg as Tagged;
    if (msg.type !== 'done') {
      for (const l of view.listeners) l(untagged as FromWriter);
      return;
    }
    view.done = true;
    // After this turn's reads: what the host printed before it said done (stderr is another pipe) is in the log.
    setImmediate(() => {
      for (const l of view.listeners) l(untagged as FromWriter);
      view.close();
    });
  }

  private exitText(): string {
    if (this.spawnError) return String(this.spawnError);
    return `exit ${this.child.exitCode ?? this.child.signalCode}`;
  }

  /** Whether the process still runs. */
  running(): boolean {
    return this.spawnError === null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the host printed from `from` on (its end when long). */
  log(from = 0): string {
    const text = this.output.join('').slice(from);
    return text.length > MAX_WRITER_LOG ? text.slice(-MAX_WRITER_LOG) : text;
  }

  /** Why the host could not give `name` a result. */
  private end(name: string, from: number): WriterEnd {
    const log = this.log(from);
    const crash = pythonException(this.log());
    const said =
      this.garbled.length > 0 ? `; it sent lines that are not JSON: ${this.garbled.slice(0, 3).join(' | ')}` : '';
    const why = this.failure ?? `${this.label} ended (${this.exitText()})`;
    return {
      errorClass: 'WriterHostCrashed',
      errorMessage: `writer ${name} has no result: ${why}${crash ? `: ${crash.errorClass}: ${crash.errorMessage}` : ''}${said}`,
      log,
    };
  }

  /**
   * The view of writer `name`: its job waits for `ready` (a host that never gets ready ends the writer with why). A
   * race's writers have distinct names; a name is taken again only by a later race, its view then replaced.
   */
  writer(name: string): WriterTransport {
    let close: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      close = resolve;
    });
    const view: View = { listeners: [], done: false, close, closed, logFrom: this.outputLength };
    this.views.set(name, view);
    if (!this.running()) close();
    this.ready.catch(() => close());
    const host = this;
    return {
      send(msg: ToWriter) {
        void host.ready.then(
          () => {
            if (view.done || !host.channel.writable) return;
            if (msg.type === 'job') view.logFrom = host.outputLength;
            host.channel.write(`${JSON.stringify({ ...msg, writer: name })}\n`);
          },
          () => {},
        );
      },
      onMessage: (listener) => view.listeners.push(listener),
      closed,
      running: () => !view.done && host.running(),
      end: () => host.end(name, view.logFrom),
      log: () => host.log(view.logFrom),
      stop: async () => {
        if (view.done) return;
        // A writer thread cannot be stopped alone: the host goes, and with it this race's other writers.
        await host.stop();
      },
    };
  }

  /** Stops the host's process group (what it started goes with it) and resolves once it has exited. */
  async stop(): Promise<void> {
    this.killGroup();
    await this.exited;
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  }

  /** Says `shutdown` and waits up to `graceMs` for the host to exit by itself, then stops its group. */
  async shutdown(graceMs: number): Promise<void> {
    if (this.running() && this.channel.writable) {
      this.channel.write(`${JSON.stringify({ type: 'shutdown' })}\n`);
      this.channel.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    }
    await this.stop();
  }
}
