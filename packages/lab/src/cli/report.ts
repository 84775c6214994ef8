/**
 * npm run lab:report FILE [--cases-doc PATH]: the lesson's report checker over a lab results file.
 * Exit 0: every check passed; 1: a mismatch; 2: unusable input (file, JSON, shape, data set, cases document).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { checkResults, formatReport, UnusableInputError, validateResults } from '../report/index';
import { parseArgs, UsageError } from './args';

const USAGE = 'usage: npm run lab:report FILE [--cases-doc PATH]';

function reportArgs(argv: string[]): { file: string; casesDoc?: string } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(argv, { options: ['cases-doc'], flags: [] });
  } catch (e) {
    if (e instanceof UsageError) throw new UnusableInputError(`${e.message}; ${USAGE}`);
    throw e;
  }
  const [file, ...rest] = parsed.positionals;
  if (file === undefined || rest.length > 0) throw new UnusableInputError(USAGE);
  const casesDoc = parsed.options['cases-doc'];
  return casesDoc === undefined ? { file } : { file, casesDoc };
}

async function main(): Promise<number> {
  // npm runs the script in packages/lab; paths on the command line are the caller's.
  const cwd = process.env.INIT_CWD || process.cwd();
  const args = reportArgs(process.argv.slice(2));
  const file = resolve(cwd, args.file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UnusableInputError(`${args.file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UnusableInputError(`${args.file}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const results = validateResults(json, args.file);
  const opts = { baseDir: dirname(file), ...(args.casesDoc ? { casesDoc: resolve(cwd, args.casesDoc) } : {}) };
  const report = await checkResults(results, opts);
  for (const line of formatReport(report, args.file)) console.log(line);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UnusableInputError) console.error(e.message);
    else console.error(`lab:report failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    process.exit(2);
  },
);
