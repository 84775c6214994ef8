/**
 * `npm start` (`node --import tsx apps/stack/src/index.ts`): starts the supervisor (supervisor.ts), which runs
 * the whole product, and passes it the stop signals meant for `npm start`.
 *
 * The supervisor runs in a session of its own, and so do the processes it starts, embedded Postgres among them:
 * a terminal's Ctrl-C, which signals the terminal's whole process group, reaches this process (directly and
 * through npm) but never Postgres or the API directly, so the supervisor stops them in its own order, Postgres
 * last. SIGINT or SIGTERM to this process, or to npm (which passes it on), is passed to the supervisor, which
 * treats signals that come together as one request. The supervisor's stdin is a pipe from this process: if this
 * process dies however hard, the pipe's end tells the supervisor to stop everything. Should the supervisor die
 * first, what it started gets SIGTERM here, through its process group.
 *
 * Small on purpose (node built-ins only, the command line's module only when arguments are given): it is started
 * before anything else, and must not load what the supervisor loads.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

// Arguments are only ever --help, -h or --version (answered, exit 0) or a mistake (exit 2): nothing starts.
if (process.argv.length > 2) (await import('./start-command')).readStartArguments(process.argv.slice(2));

const supervisor = spawn(
  process.execPath,
  ['--import', import.meta.resolve('tsx'), join(import.meta.dirname, 'supervisor.ts')],
  {
    detached: true,
    stdio: ['pipe', 'inherit', 'inherit'],
  },
);
/** The last stop signal passed on. */
let forwarded: NodeJS.Signals | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    forwarded = signal;
    supervisor.kill(signal);
  });
}
supervisor.once('error', (e) => {
  console.error(`npm start: the supervisor did not start: ${e.message}`);
  process.exit(1);
});
supervisor.once('exit', (code, signal) => {
  if (code !== null) process.exit(code);
  // Killed: what it started would run on; they share its process group (Postgres's own processes end with it).
  try {
    process.kill(-(supervisor.pid as number), 'SIGTERM');
  } catch {
    // nothing of it is left
  }
  // Ended by the signal passed on before its handlers were in place, that is before it started anything.
  if (signal === forwarded) process.exit(0);
  console.error(`npm start: the supervisor was killed (${signal}); its processes were sent SIGTERM`);
  process.exit(1);
});
