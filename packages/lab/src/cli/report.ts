/**
 * npm run lab:report FILE [--cases-doc PATH]: the lesson's report checker over a lab results file.
 * Exit 0: every check passed; 1: a mismatch; 2: unusable input (file, JSON, shape, data set, cases document).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkResults, formatReport, UnusableInputError, validateResults } from '../report/index';
import { type CommandSpec, readCommand, runCommand, UsageError, usageLine, userPath } from '../terminal/command-line';

const REPORT_COMMAND: CommandSpec = {
  usage: ['npm run lab:report FILE [--cases-doc PATH]'],
  about:
    "The lesson's report checker over a lab results file (npm run lab -- … --json FILE), independent of the lab.\n" +
    'Exit 0: every check passed; 1: a mismatch; 2: unusable input (file, JSON, shape, data set, cases document).',
  options: { '--cases-doc PATH': 'the cases document whose figures are checked (default docs/lab-cases.md)' },
  examples: ['npm run lab -- --runs 5 --json results.json && npm run lab:report results.json'],
};

async function main(argv: string[]): Promise<number> {
  const { positionals, options } = readCommand(argv, REPORT_COMMAND);
  const [given, ...rest] = positionals;
  if (given === undefined || rest.length > 0) throw new UsageError(usageLine(REPORT_COMMAND));
  // npm runs the script in packages/lab; paths on the command line are the caller's.
  const file = userPath(given);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UnusableInputError(`${given}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UnusableInputError(`${given}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const results = validateResults(json, given);
  const casesDoc = options['cases-doc'];
  const report = await checkResults(results, {
    baseDir: dirname(file),
    ...(casesDoc && { casesDoc: userPath(casesDoc) }),
  });
  for (const line of formatReport(report, given)) console.log(line);
  return report.ok ? 0 : 1;
}

/** Exit 2 for unusable input or bad usage (the message alone), 1 never: a failure to check is unusable input too. */
function failure(e: unknown): number {
  if (e instanceof UnusableInputError) console.error(e.message);
  else if (e instanceof UsageError) console.error(`lab:report: ${e.message}; ${usageLine(REPORT_COMMAND)}`);
  else console.error(`lab:report failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  return 2;
}

await runCommand(main, failure);
