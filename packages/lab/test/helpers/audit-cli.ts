/**
 * The jobs audit's command as a user runs it, for the tests of its exit codes and report formats: a
 * small Delta table of trips under a root of the test's own, and the command run as a real process,
 * through `npm run audit` or straight through tsx.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { field, writeDeltaTable } from '@racelab/engine';

export const REPO = resolve(import.meta.dirname, '../../../..');
const CLI = join(REPO, 'packages/lab/src/cli/audit.ts');

/** Writes the `trips` table (one file: every predicate's rows share it) under `<work>/tables`. */
export async function writeTripsTable(work: string): Promise<void> {
  const schema = { type: 'struct' as const, fields: [field('VendorID', 'integer'), field('tip_amount', 'double')] };
  const rows = [1, 2, 1, 2].map((v, i) => ({ VendorID: v, tip_amount: i }));
  await writeDeltaTable(join(work, 'tables', 'trips'), { kind: 'rows', rows, schema });
}

export interface AuditRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the audit with the tables of `work`. `npm: true` goes through the root package's script, as
 * the docs tell a user to (with `silent`, npm prints no banner to stdout); otherwise straight through
 * tsx, as if typed in the folder `from` (the repository unless given).
 */
export function runAudit(
  work: string,
  args: string[],
  how: { npm?: boolean; silent?: boolean; from?: string } = {},
): AuditRun {
  const [cmd, argv] = how.npm
    ? ['npm', ['run', ...(how.silent ? ['--silent'] : []), 'audit', '--', ...args]]
    : [process.execPath, ['--import', 'tsx', CLI, ...args]];
  const r = spawnSync(cmd, argv as string[], {
    cwd: REPO,
    encoding: 'utf8',
    // INIT_CWD as npm sets it: the folder the command was typed in, which the paths typed are relative to.
    env: { ...process.env, INIT_CWD: how.from ?? REPO, LAB_ROOTS: join(work, 'tables'), LAB_WORK_DIR: work },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
