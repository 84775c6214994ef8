/** `npm run lab:demo`: the lesson's two demo rounds, A1 and B1 once each (demo-rounds.ts). */
import { type CommandSpec, readCommand, runCommand, UsageError } from '../terminal/command-line';
import { DEMO_ROUND_OPTIONS, demoFailure, demoRounds } from './demo-rounds';

const LAB_DEMO_COMMAND: CommandSpec = {
  usage: ['npm run lab:demo [-- --scale S] [--data-dir DIR] [--work-dir DIR]'],
  about:
    "The lesson's demo: two writer processes append Feb 1 and Feb 2 at once; then, on a fresh table, two add 1\n" +
    "to the tips of VendorID 1 and VendorID 2 at once. Prints who committed, the loser's error and the table.",
  options: DEMO_ROUND_OPTIONS,
  examples: ['npm run lab:demo -- --scale 0.1'],
};

await runCommand(async (argv) => {
  const { positionals, options } = readCommand(argv, LAB_DEMO_COMMAND);
  if (positionals.length > 0) throw new UsageError(`lab:demo takes options only, got '${positionals[0]}'`);
  return demoRounds(options);
}, demoFailure('lab:demo'));
