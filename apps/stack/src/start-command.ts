/**
 * `npm start`'s command line: it takes no arguments (settings come from the environment), and answers `--help`,
 * `-h` and `--version` as every racelab command does. Loaded only when arguments are given, so a plain start does
 * not load the lab before the supervisor does.
 */
import { type CommandSpec, noArguments } from '@racelab/lab';

const START_COMMAND: CommandSpec = {
  usage: ['npm start'],
  about:
    'The whole product on one machine: Postgres, migrations and tokens, then the API, the race worker(s) and the\n' +
    'dashboard; prints their URLs and the sign-in link. Settings come from the environment (docs/api.md:\n' +
    'API_PORT, WEB_PORT, DATABASE_URL, LAB_WORKERS, LAB_NO_WEB=1, LAB_FIRST_RACES=0, …). Ctrl-C, or SIGINT or\n' +
    "SIGTERM to npm start's PID, stops it all, Postgres last.",
  options: {},
  examples: ['npm start', 'API_PORT=4100 WEB_PORT=3100 LAB_WORKERS=2 npm start'],
};

/** Answers `--help`, `-h` and `--version`, or refuses any other argument (exit 2). */
export function readStartArguments(argv: readonly string[]): void {
  noArguments(argv, START_COMMAND, 'npm start');
}
