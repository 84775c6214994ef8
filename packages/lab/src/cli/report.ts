/**
 * npm run lab:report FILE [--cases-doc PATH]: the lesson's report checker over a lab results file.
 * Exit 0: every check passed; 1: a mismatch; 2: unusable input (file, JSON, shape, data set, cases document).
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { checkResults, formatReport, UnusableInputError, validateResults } from '../report/index';

const USAGE = 'usage: npm run lab:report FILE [--cases-doc PATH]';

function parseArgs(argv: string[]): { file: string; casesDoc?: string } {
  const positional: string[] = [];
  let casesDoc: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--cases-doc') {
      casesDoc = argv[++i];
      if (casesDoc === undefined) throw new UnusableInputError(`--cases-doc needs a path; ${USAGE}`);
    } else if (a.startsWith('--cases-doc=')) {
      casesDoc = a.slice('--cases-doc='.length);
    } else if (a.startsWith('-')) {
      throw new UnusableInputError(`unknown option ${a}; ${USAGE}`);
    } else {
      positional.push(a);
    }
  }
  const [file, ...rest] = positional;
  if (file === undefined || rest.length > 0) throw new UnusableInputError(USAGE);
  return casesDoc === undefined ? { file } : { file, casesDoc };
}

async function main(): Promise<number> {
  // npm runs the script in packages/lab; paths on the command line are the caller's.
  const cwd = process.env.INIT_CWD || process.cwd();
  const args = parseArgs(process.argv.slice(2));
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
