import { resolve } from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { REPO_ROOT } from '../build/repo-root';

/** The lab's commands' arguments, read by node:util: positionals, `--name value` options and flags. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(argv: string[], known: { options: string[]; flags: string[] }) {
  const spec = new Map<string, { type: 'string' | 'boolean' }>([
    ...known.options.map((name) => [name, { type: 'string' }] as const),
    ...known.flags.map((name) => [name, { type: 'boolean' }] as const),
  ]);
  // Not strict: strict mode's errors carry the option only inside their English text, and it refuses a
  // value that starts with '-' (`--scale -1`), which the commands' own range checks explain better.
  const { values, positionals, tokens } = parseArgv({
    args: argv,
    options: Object.fromEntries(spec),
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const type = spec.get(token.name)?.type;
    if (type === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    // Not strict, a string option takes the next argument whatever it is: `--json --runs 2` would name a file `--runs`.
    if (type === 'string' && (token.value === undefined || token.value.startsWith('--'))) {
      throw new UsageError(`${token.rawName} needs a value`);
    }
    if (type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
  }
  const options: Record<string, string> = {};
  const flags = new Set<string>();
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string') options[name] = value;
    else flags.add(name);
  }
  return { positionals, options, flags };
}

export function numberOption(options: Record<string, string>, name: string): number | undefined {
  const v = options[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got '${v}'`);
  return n;
}

export const REPO = REPO_ROOT;

/** npm runs scripts in the package folder; paths the user typed are relative to where they typed them. */
export function userPath(p: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

/** The lab's working folder: --work-dir, else LAB_WORK_DIR, else var/lab in the repository. */
export function workDirOption(options: Record<string, string>): string {
  return userPath(options['work-dir'] ?? process.env.LAB_WORK_DIR ?? resolve(REPO, 'var/lab'));
}

/**
 * Runs a command whose exit code says its outcome: `main`'s code, or `failure`'s for whatever it throws. Whatever
 * escapes `main` (a stream's error event, a rejected promise nobody awaited) also ends through `failure`, as one
 * line and its code, never as Node's stack trace.
 */
export async function runCommand(
  main: (argv: string[]) => Promise<number>,
  failure: (error: unknown) => number,
): Promise<void> {
  const crash = (e: unknown) => {
    process.exitCode = failure(e);
    process.exit();
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.exitCode = await main(process.argv.slice(2)).catch(failure);
}
