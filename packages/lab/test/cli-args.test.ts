/**
 * The lab's commands' argument reader: what each command accepts, and the one-line error it gives
 * for what it does not (the commands print it and exit 2).
 */
import { describe, expect, it } from 'vitest';
import { numberOption, parseArgs, UsageError } from '../src/terminal/command-line';

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
    expect(usageError(['--json', '--runs', '2'])).toBe('--json needs a value');
    expect(usageError(['--json=--runs'])).toBe('--json needs a value');
  });

  it('refuses a value given to a flag', () => {
    expect(usageError(['--keep-runs=no'])).toBe('--keep-runs takes no value');
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
