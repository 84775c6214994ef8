/**
 * `npm run lab -- …` as a process, the way the tests race tables of their own through the command line: node with
 * tsx as a loader on the lab's CLI entry, the test's environment under `env`, output kept as text.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const LAB_CLI = fileURLToPath(new URL('../../src/cli/lab.ts', import.meta.url));

/** Runs `lab` with `args` to its end (at most `timeoutMs`). */
export function runLab(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', LAB_CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: timeoutMs,
  });
}
