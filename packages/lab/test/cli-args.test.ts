/**
 * The lab's commands' argument reader: what each command accepts, and the one-line error it gives
 * for what it does not (the commands print it and exit 2).
 */
import { describe, expect, it } from 'vitest';
import {
  CommandAnswer,
  type CommandSpec,
  numberOption,
  parseArgs,
  productVersion,
  readCommand,
  UsageError,
} from '../src/terminal/command-line';

const LAB = { options: ['runs', 'json', 'work-dir'], flags: ['keep-runs'] };

function usageError(argv: string[]): string {
  try {
    parseArgs(argv, LAB);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).name).toBe('UsageError');
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`);
}

describe('parseArgs', () => {
  it('reads positionals, options as --name value or --name=value, and flags, in any order', () => {
    const { positionals, options, flags } = parseArgs(
      ['A1', '--runs', '3', 'B1', '--json=out.json', '--keep-runs', '--work-dir', '-tmp'],
      LAB,
    );
    expect(positionals).toEqual(['A1', 'B1']);
    expect(options).toEqual({ runs: '3', json: 'out.json', 'work-dir': '-tmp' });
    expect([...flags]).toEqual(['keep-runs']);
    expect(parseArgs([], LAB)).toEqual({ positionals: [], options: {}, flags: new Set() });
  });

  it('lets a repeated option keep its last value, and reads everything after -- as positionals', () => {
    expect(parseArgs(['--runs', '1', '--runs=2'], LAB).options).toEqual({ runs: '2' });
    expect(parseArgs(['A1', '--', '--runs', '-x'], LAB).positionals).toEqual(['A1', '--runs', '-x']);
  });

  it('refuses an option it does not know, long or short', () => {
    expect(usageError(['A1', '--rnus', '3'])).toBe('unknown option --rnus');
    expect(usageError(['--rnus=3'])).toBe('unknown option --rnus');
    expect(usageError(['-r', '3'])).toBe('unknown option -r');
  });

  it('refuses an option without its value, whether last or followed by another option', () => {
    expect(usageError(['A1', '--runs'])).toBe('--runs needs a value');
    expect(usageError(['--json', '--runs', '2'])).toBe('--json needs a value: a file, or - for standard output');
    expect(usageError(['--json=--runs'])).toBe('--json needs a value: a file, or - for standard output');
    expect(usageError(['A1', '--json'])).toBe('--json needs a value: a file, or - for standard output');
  });

  it('takes - as a value: --json - is standard output', () => {
    expect(parseArgs(['A1', '--json', '-'], LAB).options).toEqual({ json: '-' });
  });

  it('refuses a value given to a flag', () => {
    expect(usageError(['--keep-runs=no'])).toBe('--keep-runs takes no value');
  });
});

describe('readCommand', () => {
  const SPEC: CommandSpec = {
    usage: ['npm run thing -- CASE… [--runs N]', 'npm run thing -- other'],
    about: 'Does a thing.',
    options: { '--runs N': 'runs per case', '--keep-runs': 'keep them' },
    examples: ['npm run thing -- A1 --runs 2'],
  };
  const answer = (argv: string[]): string => {
    try {
      readCommand(argv, SPEC);
    } catch (e) {
      if (e instanceof CommandAnswer) return e.text;
      throw e;
    }
    throw new Error(`expected ${JSON.stringify(argv)} to be answered`);
  };

  it('reads the options its help lists: a second word takes a value, one word is a flag', () => {
    expect(readCommand(['A1', '--runs', '2', '--keep-runs'], SPEC)).toEqual({
      positionals: ['A1'],
      options: { runs: '2' },
      flags: new Set(['keep-runs']),
    });
    expect(() => readCommand(['--json', 'x'], SPEC)).toThrow(new UsageError('unknown option --json'));
  });

  it('answers --help and -h with the usage, the options (with its own) and the examples, whatever else is typed', () => {
    const help = answer(['A1', '--bogus', '-h']);
    expect(answer(['--help'])).toBe(help);
    expect(help).toBe(
      [
        'usage: npm run thing -- CASE… [--runs N]',
        '       npm run thing -- other',
        '',
        'Does a thing.',
        '',
        'options:',
        '  --runs N     runs per case',
        '  --keep-runs  keep them',
        '  -h, --help   print this help and exit',
        "  --version    print racelab's version and exit",
        '',
        'example:',
        '  npm run thing -- A1 --runs 2',
        '',
      ].join('\n'),
    );
  });

  it("answers --version with the root package.json's version; after -- neither is an option", () => {
    expect(answer(['--version'])).toBe(`${productVersion()}\n`);
    expect(readCommand(['--', '--help', '--version'], SPEC).positionals).toEqual(['--help', '--version']);
  });
});

describe('numberOption', () => {
  it('reads a number, leaves an absent option undefined and refuses what is not a number', () => {
    expect(numberOption({ runs: '3', scale: '0.5' }, 'scale')).toBe(0.5);
    expect(numberOption({ runs: '-1' }, 'runs')).toBe(-1);
    expect(numberOption({}, 'runs')).toBeUndefined();
    expect(() => numberOption({ runs: 'many' }, 'runs')).toThrow(new UsageError("--runs must be a number, got 'many'"));
  });
});
