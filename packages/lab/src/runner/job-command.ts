/**
 * How a command writer's job runs: its own program (checked against LAB_JOB_ROOTS before the race: see
 * cases/job-roots.ts), in its own process group, with the barrier on fd 3 (transport.ts). It learns its writer
 * name and its table copy from RACELAB_WRITER and RACELAB_TABLE, and finds the helper module `racelab_barrier`
 * through PYTHONPATH. Its outcome is what it did: a job may say `done` with some of the outcome's fields (what it
 * read, what it saw), or simply exit 0 once its commit is in; a job that exits otherwise failed, with what it
 * printed. Whether it committed, and at which version, the table's log says (its tagged commit).
 */
import { delimiter, join } from 'node:path';
import type { WriterOperation } from '../cases/catalog';
import type { FromWriter, WriterJob, WriterOutcome } from './messages';
import { emptyOutcome } from './outcome';
import { fd3Transport, type WriterCommand, type WriterTransport } from './transport';

/** How long a job may run from its start to its end (the lab's default; LabOptions.jobTimeoutMs sets another). */
export const JOB_TIMEOUT_MS = 10 * 60_000;

type CommandOp = Extract<WriterOperation, { kind: 'command' }>;

/** The folder of the helper module a job imports (`import racelab_barrier`). */
export const helperPath = (repo: string) => join(repo, 'python');

/** The lab's own secrets (its database, its API token, anything named a secret), which a job is never given. */
const SECRET = /TOKEN|SECRET|PASSWORD|PASSWD|DATABASE_URL|POSTGRES_URL/i;

/**
 * The command a job writer runs: its program and arguments, its folder, and the lab's environment without its
 * secrets, with the lab's variables.
 */
export function jobCommand(job: WriterJob, repo: string, env: NodeJS.ProcessEnv = process.env): WriterCommand {
  const op = job.writer.operation as CommandOp;
  const [program, ...args] = op.command as [string, ...string[]];
  const pythonPath = [helperPath(repo), ...(env.PYTHONPATH ? [env.PYTHONPATH] : [])].join(delimiter);
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !SECRET.test(name)));
  return {
    command: program,
    args,
    cwd: op.cwd ?? repo,
    env: {
      ...kept,
      RACELAB_WRITER: job.writer.name,
      RACELAB_TABLE: job.table,
      PYTHONPATH: pythonPath,
      PYTHONUNBUFFERED: '1',
    },
  };
}

/** The outcome fields a job may say itself; the rest are the lab's to find out. */
const SAID = [
  'readVersion',
  'observed',
  'warnings',
  'attempts',
  'attemptErrors',
  'errorClass',
  'errorMessage',
] as const;

/**
 * A job's outcome, from what it said (maybe nothing): not committed until its tagged commit is found in the log
 * (see formats/delta/job-outcome.ts), one attempt, nothing else known.
 */
export function jobOutcome(said: Partial<WriterOutcome> = {}): WriterOutcome {
  const own = Object.fromEntries(SAID.filter((k) => said[k] !== undefined).map((k) => [k, said[k]]));
  return { ...emptyOutcome(), attempts: 1, ...own, run: 'real' };
}

/** The last lines of what a failed job printed, for its error message. */
const LAST_LINES = 10;

/**
 * A job over fd 3: a `done` it sends is read as a job's outcome (jobOutcome); a job that exits 0 without one is done
 * then; one that exits otherwise failed (JobFailed, or its Python exception's class and message), with its log.
 */
export function jobTransport(cmd: WriterCommand, name: string): WriterTransport {
  const inner = fd3Transport(cmd, name);
  const listeners: ((msg: FromWriter) => void)[] = [];
  const tell = (msg: FromWriter) => {
    for (const l of listeners) l(msg);
  };
  let released: number | undefined;
  let said = false;
  inner.onMessage((m) => {
    if (m.type !== 'done') return tell(m);
    said = true;
    tell({ ...m, outcome: jobOutcome(m.outcome) });
  });
  const closed = inner.closed.then(() => {
    if (said || inner.exitCode() !== 0) return;
    const now = Date.now();
    tell({ type: 'done', released: released ?? now, finished: now, outcome: jobOutcome() });
  });
  return {
    ...inner,
    send: (msg) => {
      if (msg.type === 'go') released = Date.now();
      inner.send(msg);
    },
    onMessage: (listener) => listeners.push(listener),
    closed,
    end: () => {
      const end = inner.end();
      if (end.errorClass !== 'WriterCrashed') return end;
      const lines = (end.log ?? '').trimEnd().split('\n').slice(-LAST_LINES).join('\n');
      const status = inner.exitCode();
      return {
        ...end,
        errorClass: 'JobFailed',
        errorMessage: `${name}'s job ${status === null ? 'was stopped' : `exited with status ${status}`}${lines ? `:\n${lines}` : ''}`,
      };
    },
  };
}
