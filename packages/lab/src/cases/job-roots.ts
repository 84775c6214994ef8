/**
 * Where a command writer's job may come from: only from LAB_JOB_ROOTS. The real path of the program, and for an
 * interpreter (python, node, a shell, …) the real path of the script it runs, must lie under a root; code given
 * on the command line (`python -c`, `node -e`, `sh -c`) or found at run time (`python -m`, a module looked up on
 * the import path) is refused, since no root can vouch for it. A checked command names its program, script and
 * working folder by absolute path, so that nothing at run time (PATH, the lab's own folder) picks another file.
 * Refusals name the writer, the item as given and the rule; never a real path the user did not give.
 */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join, resolve, sep } from 'node:path';
import type { DeltaCase, LabCase, WriterOperation } from './catalog';
import { CaseInputError } from './custom';

/** What checks a command writer: the job roots (absolute), and the folder relative `cwd`s are taken from. */
export interface JobPlaces {
  roots: readonly string[];
  /** The writers file's folder; without it a command writer's cwd must be given, as an absolute path. */
  base?: string;
  /** The PATH a bare program name is looked up on (the lab's own by default). */
  path?: string;
}

type CommandOp = Extract<WriterOperation, { kind: 'command' }>;

const CODE = 'runs code given on the command line';
const LOOKED_UP = 'loads a module looked up at run time';

/**
 * Interpreters whose first argument that is no option is the script they run, by family: the options of each that
 * run code not in a file under a root (and why each is refused), and those that take the next argument as value.
 */
const FAMILIES: { name: RegExp; inline: Record<string, string>; withValue?: readonly string[] }[] = [
  {
    name: /^(python|pypy)[\d.]*$/,
    inline: { '-c': CODE, '-m': 'runs a module looked up on the import path at run time' },
    withValue: ['-W', '-X'],
  },
  {
    name: /^node$/,
    inline: {
      '-e': CODE,
      '--eval': CODE,
      '-p': CODE,
      '--print': CODE,
      '-r': LOOKED_UP,
      '--require': LOOKED_UP,
      '--import': LOOKED_UP,
    },
  },
  { name: /^(bash|sh|dash|zsh|ksh)$/, inline: { '-c': CODE }, withValue: ['-o', '-O'] },
  { name: /^(ruby|perl)$/, inline: { '-e': CODE, '-E': CODE, '-r': LOOKED_UP, '-M': LOOKED_UP } },
  { name: /^Rscript$/, inline: { '-e': CODE } },
];

type Family = (typeof FAMILIES)[number];

/** The refusal of an interpreter's option, or null: clustered short options (`python -uc`) count too. */
function inlineOption(family: Family, arg: string): string | null {
  // Own keys only: an argument such as `constructor` is no option.
  if (Object.hasOwn(family.inline, arg)) return arg;
  if (!/^-[A-Za-z]{2,}$/.test(arg)) return null;
  const letter = [...arg.slice(1)].find((l) => Object.hasOwn(family.inline, `-${l}`));
  return letter ? `-${letter}` : null;
}

const under = (path: string, roots: readonly string[]) => roots.some((r) => path === r || path.startsWith(r + sep));

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() === true;
}

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    async () => (await stat(path)).isFile(),
    () => false,
  );
}

/** A program named without a folder, looked up on PATH as a shell would; null when no such program is there. */
async function onPath(name: string, path: string): Promise<string | null> {
  for (const dir of path.split(delimiter).filter((d) => isAbsolute(d))) {
    const at = join(dir, name);
    if (await executable(at)) return at;
  }
  return null;
}

/** The real paths of the roots that exist (a root that does not exist holds nothing). */
async function realRoots(roots: readonly string[]): Promise<string[]> {
  const real = await Promise.all(roots.map((r) => realpath(r).catch(() => null)));
  return real.filter((r): r is string => r !== null);
}

/** A command writer's operation with absolute paths, or every problem with it (each names the writer). */
export async function checkedJobCommand(name: string, op: CommandOp, places: JobPlaces): Promise<CommandOp | string[]> {
  const said = (problem: string) => [`writer ${name}: ${problem}`];
  if (places.roots.length === 0) {
    return said('a command writer runs only when LAB_JOB_ROOTS names the folders jobs may come from');
  }
  const roots = await realRoots(places.roots);
  const given = op.cwd;
  if (given !== undefined && !isAbsolute(given) && places.base === undefined)
    return said(`cwd '${given}' must be an absolute path`);
  if (given === undefined && places.base === undefined)
    return said('a command writer needs cwd, an absolute path: relative paths are taken from it');
  const cwd = resolve(places.base ?? '/', given ?? '.');
  if (!(await isDirectory(cwd))) return said(`cwd '${given ?? '.'}' is not a folder`);
  const [program, ...args] = op.command as [string, ...string[]];
  const found = program.includes('/')
    ? resolve(cwd, program)
    : await onPath(program, places.path ?? process.env.PATH ?? '');
  if (found === null || !(await executable(found))) return said(`the program '${program}' is not an executable file`);
  const inRoots = async (path: string) => under(await realpath(path), roots);
  if (!(await inRoots(found)))
    return said(`the program '${program}' lies outside LAB_JOB_ROOTS (its real path must be under a job root)`);
  const checked: CommandOp = { kind: 'command', command: [found, ...args], cwd };
  // An interpreter by the name it was given, or by the file it is (a link named otherwise).
  const names = [basename(program), basename(await realpath(found))];
  const runs = names.find((n) => FAMILIES.some((f) => f.name.test(n)));
  const family = FAMILIES.find((f) => runs !== undefined && f.name.test(runs));
  if (runs === undefined || family === undefined) return checked;
  // Every option before its script, then the script, which must be a file under a root.
  const shown = basename(program);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const inline = inlineOption(family, arg);
    if (inline) {
      return said(
        `'${shown} ${inline}' ${family.inline[inline]}, which no job root can vouch for: give a script file under LAB_JOB_ROOTS`,
      );
    }
    if (family.withValue?.includes(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    const script = resolve(cwd, arg);
    if (!(await stat(script).catch(() => null))?.isFile()) return said(`the script '${arg}' is not a file`);
    if (!(await inRoots(script)))
      return said(`the script '${arg}' lies outside LAB_JOB_ROOTS (its real path must be under a job root)`);
    return { ...checked, command: [found, ...args.slice(0, i), script, ...args.slice(i + 1)] };
  }
  return said(`'${shown}' is given no script file: a command writer runs a script under LAB_JOB_ROOTS`);
}

/** The case with its command writers checked and their paths made absolute, or a CaseInputError with every problem. */
export async function withJobCommands(c: DeltaCase, places: JobPlaces): Promise<DeltaCase> {
  const problems: string[] = [];
  const writers = [];
  for (const w of c.writers) {
    if (w.operation.kind !== 'command') {
      writers.push(w);
      continue;
    }
    const op = await checkedJobCommand(w.name, w.operation, places);
    if (Array.isArray(op)) problems.push(...op);
    else writers.push({ ...w, operation: op });
  }
  if (problems.length > 0) throw new CaseInputError(problems);
  return { ...c, writers };
}

/** Whether a case has a writer that runs a job of its own. */
export const hasJobCommands = (c: LabCase) => 'writers' in c && c.writers.some((w) => w.operation.kind === 'command');
