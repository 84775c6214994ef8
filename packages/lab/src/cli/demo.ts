/**
 * `npm run demo`: the command-line demos in a row: the engine on a small taxi-like table (src/demo.ts), then the
 * lesson's two rounds (demo-rounds.ts).
 */
import { resolve } from 'node:path';
import { REPO_ROOT } from '../build/repo-root';
import { runDemo } from '../demo';
import { type CommandSpec, readCommand, runCommand, UsageError } from '../terminal/command-line';
import { DEMO_ROUND_OPTIONS, demoFailure, demoRounds } from './demo-rounds';

const DEMO_COMMAND: CommandSpec = {
  usage: ['npm run demo [-- --scale S] [--data-dir DIR] [--work-dir DIR]'],
  about:
    'The engine on a small taxi-like table (create, append, overwrite, time travel, its log) under the first\n' +
    "LAB_ROOTS entry (default var/tables), then the lesson's two rounds as `npm run lab:demo`.",
  options: DEMO_ROUND_OPTIONS,
  examples: ['npm run demo', 'npm run demo -- --scale 0.1'],
};

await runCommand(async (argv) => {
  const { positionals, options } = readCommand(argv, DEMO_COMMAND);
  if (positionals.length > 0) throw new UsageError(`demo takes options only, got '${positionals[0]}'`);
  // The repo's var/tables unless LAB_ROOTS names another root (its first entry).
  const root = process.env.LAB_ROOTS?.split(',')[0] || resolve(REPO_ROOT, 'var/tables');
  await runDemo(resolve(root, 'demo'));
  return demoRounds(options);
}, demoFailure('demo'));
