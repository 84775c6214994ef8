/**
 * How a race talks to one writer process, whatever the process is: the race sends `job` and `go` (ToWriter), hears
 * `ready`, `committed` and `done` (FromWriter), and learns when the process is gone and why. Two ways in: Node's IPC
 * channel (the lab's own writer processes, which the warm pool starts ahead of their race), and JSON lines on fd 3,
 * which any program can speak (the real libraries' Python writers). The race never asks which one it has.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { FromWriter, ToWriter } from './messages';
import type { StartedWriter } from './writer-pool';

/** Why a writer process ended without a result, as its result keeps it. */
export interface WriterEnd {
  errorClass: string;
  errorMessage: string;
  /** What the process printed (stdout and stderr), when the transport keeps it apart from the lab's own output. */
  log?: string;
}

export interface WriterTransport {
  send(msg: ToWriter): void;
  /** Every message the writer sends, in order. */
  onMessage(listener: (msg: FromWriter) => void): void;
  /** Settles once the process has exited and every message it sent has been heard. */
  readonly closed: Promise<void>;
  /** Whether the process still runs. */
  running(): boolean;
  /** Why it ended without a result; asked once `closed` has settled. */
  end(): WriterEnd;
  /**
   * What the process printed, when the transport keeps it apart from the lab's output (its end when long); asked
   * once `closed` has settled. Undefined for a transport that leaves the output to the lab's stderr.
   */
  log(): string | undefined;
  /** Stops the process (and whatever it started) and resolves once it is gone. */
  stop(): Promise<void>;
}

const exitText = (c: ChildProcess) => `exit ${c.exitCode ?? c.signalCode}`;

/** A lab writer process over Node IPC; whatever it prints goes to the lab's stderr, its crash text from there. */
export function ipcTransport(writer: StartedWriter, name: string): WriterTransport {
  const { child, stderr } = writer;
  // 'close' comes after the IPC channel is drained, so a result the writer sent is never lost to it.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    send: (msg) => {
      if (child.connected) child.send(msg, () => {});
    },
    onMessage: (listener) => child.on('message', listener),
    closed,
    running,
    log: () => undefined,
    end: () => ({
      errorClass: 'WriterCrashed',
      errorMessage: `writer ${name} ended without a result (${exitText(child)}): ${stderr.join('').trim()}`,
    }),
    stop: async () => {
      if (running()) child.kill('SIGKILL');
      await closed;
    },
  };
}

/** A program run as a writer: the lab speaks the protocol to it on fd 3. */
export interface WriterCommand {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The most of a writer's log a result keeps (its end: a traceback's last lines are the ones that say why). */
export const MAX_WRITER_LOG = 16_000;

/**
 * The exception a Python traceback ends with: its class (without the module) and its text, which runs from the
 * exception's line to the end. Null when the log holds no traceback.
 */
export function pythonException(log: string): { errorClass: string; errorMessage: string } | null {
  const at = log.lastIndexOf('Traceback (most recent call last):');
  if (at < 0) return null;
  const lines = log.slice(at).split('\n');
  // Frames are indented; the exception is the first line after them that is not.
  const i = lines.findIndex((l, k) => k > 0 && /^[A-Za-z_][\w.]*(:|$)/.test(l));
  if (i < 0) return null;
  const text = lines.slice(i).join('\n').trimEnd();
  const head = /^([A-Za-z_][\w.]*)(?::\s?)?/.exec(text) as RegExpExecArray;
  const qualified = head[1] as string;
  return { errorClass: qualified.slice(qualified.lastIndexOf('.') + 1), errorMessage: text.slice(head[0].length) };
}

/**
 * A writer program speaking JSON lines on fd 3 (one object per line, each way), started in a process group of its
 * own so that stopping it stops everything it started. Its stdout and stderr are its log, kept here and never
 * printed: the lab's stdout may be a command's JSON.
 */
export function fd3Transport(cmd: WriterCommand, name: string): WriterTransport & { exitCode(): number | null } {
  const child = spawn(cmd.command, [...cmd.args], {
    cwd: cmd.cwd,
    env: cmd.env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  child.stdout?.on('data', (b: Buffer) => output.push(b.toString()));
  child.stderr?.on('data', (b: Buffer) => output.push(b.toString()));
  const channel = child.stdio[3] as Socket;
  const listeners: ((msg: FromWriter) => void)[] = [];
  const garbled: string[] = [];
  let pending = '';
  channel.on('data', (b: Buffer) => {
    pending += b.toString();
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (line !== '') {
        try {
          const msg = JSON.parse(line) as FromWriter;
          for (const l of listeners) l(msg);
        } catch {
          garbled.push(line);
        }
      }
      nl = pending.indexOf('\n');
    }
  });
  // A writer that has gone leaves writes unread; that is its end, reported by its exit.
  channel.on('error', () => {});
  let spawnError: Error | null = null;
  // 'close' comes after fd 3 and both logs are drained.
  const closed = new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.on('error', (e) => {
      spawnError = e;
      resolve();
    });
  });
  const running = () => spawnError === null && child.exitCode === null && child.signalCode === null;
  const kept = () => {
    const text = output.join('');
    return text.length > MAX_WRITER_LOG ? text.slice(-MAX_WRITER_LOG) : text;
  };
  const group = (signal: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  return {
    send: (msg) => {
      if (channel.writable) channel.write(`${JSON.stringify(msg)}\n`);
    },
    onMessage: (listener) => listeners.push(listener),
    closed,
    running,
    exitCode: () => child.exitCode,
    log: kept,
    end: () => {
      const text = output.join('');
      const crash = pythonException(text);
      if (spawnError)
        return { errorClass: 'WriterCrashed', errorMessage: `writer ${name}: ${spawnError}`, log: kept() };
      const said = garbled.length > 0 ? `; it sent lines that are not JSON: ${garbled.slice(0, 3).join(' | ')}` : '';
      return crash
        ? { ...crash, log: kept() }
        : {
            errorClass: 'WriterCrashed',
            errorMessage: `writer ${name} ended without a result (${exitText(child)})${said}: ${text.trim().slice(-2000)}`,
            log: kept(),
          };
    },
    stop: async () => {
      // The whole group, even when the writer itself has exited: what it started may still run.
      group('SIGKILL');
      await closed;
    },
  };
}
