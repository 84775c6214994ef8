import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
/** A small argument parser for the lab's commands: positionals and `--name value` options. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgs(argv: string[], known: { options: string[]; flags: string[] }) {
  const positionals: string[] = [];
  const options: Record<string, string> = {};
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (known.flags.includes(name)) flags.add(name);
    else if (known.options.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
    } else throw new UsageError(`unknown option --${name}`);
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

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** npm runs scripts in the package folder; paths the user typed are relative to where they typed them. */
export function userPath(p: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

/** The lab's working folder: --work-dir, else LAB_WORK_DIR, else var/lab in the repository. */
export function workDirOption(options: Record<string, string>): string {
  return userPath(options['work-dir'] ?? process.env.LAB_WORK_DIR ?? resolve(REPO, 'var/lab'));
}
