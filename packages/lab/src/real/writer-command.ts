/**
 * How a real writer runs: the repository's Python writer program (`python -m racelab_writer`) under the Python
 * side's interpreter, from the repository, with the protocol on fd 3 (runner/transport.ts). Unbuffered, so that
 * what a writer printed before it was stopped is in its log.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../build/repo-root';
import type { WriterCommand } from '../runner/transport';
import type { PythonEnv } from './python-env';

/** How long a real writer may take from its start to its result before the race stops it. */
export const REAL_WRITER_TIMEOUT_MS = 10 * 60_000;

export function realWriterCommand(env: PythonEnv, repo = REPO_ROOT): WriterCommand {
  return {
    command: env.python,
    args: ['-m', 'racelab_writer'],
    cwd: repo,
    env: { ...process.env, PYTHONPATH: join(repo, 'python'), PYTHONUNBUFFERED: '1' },
  };
}
