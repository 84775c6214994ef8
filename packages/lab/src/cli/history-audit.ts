/**
 * `npm run audit -- history LOCATION …` (HISTORY_COMMAND is its help). What a table's own log says happened: its
 * commits as evidence, whom each was concurrent with, the findings. LOCATION is a path (relative to where the command
 * runs) under LAB_ROOTS, a lab alias, or s3://… in LAB_S3_BUCKETS. The text report goes to stdout, the whole history as
 * JSON to --json's file (contracts/table-history.schema.json), or with `--json -` to stdout and the text report to
 * stderr. Exit codes as the audit's: 0 no error finding, 1 error findings, 2 a bad flag or a location that is not a
 * readable table, 3 the audit could not run (a bound hit names the bound).
 */
import { isAbsolute } from 'node:path';
import { NotATableError } from '@racelab/engine';
import { toHistoryText } from '../audit/formats/history-text';
import { KeyColumnError } from '../audit/history/duplicates';
import { tableHistory } from '../audit/history/index';
import { LocationError, locationConfigFromEnv } from '../tables/locations';
import {
  type CommandSpec,
  commandOutput,
  readCommand,
  UsageError,
  usageLine,
  userPath,
} from '../terminal/command-line';
import { REPO } from './args';

const HISTORY_COMMAND: CommandSpec = {
  usage: ['npm run audit -- history LOCATION [--since T] [--key COL,…] [--at-version N] [--json FILE|-]'],
  about:
    "What a table's own log says happened: its commits as evidence, whom each was concurrent with, the findings.\n" +
    "LOCATION: a path under LAB_ROOTS, a lab alias, or s3://… in LAB_S3_BUCKETS. Exit codes as the jobs audit's.",
  options: {
    '--since T': 'only commits from this ISO 8601 date or time on (2026-12-01, 2026-12-01T08:00Z)',
    '--key COL,…': 'the columns that make a row unique: keys present more than once are findings',
    '--at-version N': 'the log up to this version',
    '--json FILE|-': 'the history as JSON to FILE, or to standard output with - (the text report then goes to stderr)',
  },
  examples: [
    'npm run audit -- history sales/orders --key order_id',
    'npm run -s audit -- history dv --json - | jq .commits',
  ],
};
/** A log of more commits than this shows its reading on a terminal's stderr. */
const PROGRESS_FROM = 2000;

export interface HistoryExit {
  clean: number;
  errorFindings: number;
  unusable: number;
}

export async function historyAudit(argv: string[], exit: HistoryExit, jsonPath: (v: string) => Promise<string>) {
  const { positionals, options } = readCommand(argv, HISTORY_COMMAND);
  const [location, ...rest] = positionals;
  if (location === undefined || rest.length > 0) throw new UsageError(usageLine(HISTORY_COMMAND));
  const since = options.since === undefined ? undefined : sinceOption(options.since);
  const atVersion = options['at-version'] === undefined ? undefined : versionOption(options['at-version']);
  const key = options.key === undefined ? undefined : keyOption(options.key);
  if (options.json !== undefined && options.json !== '-') await jsonPath(options.json);
  const out = commandOutput(options.json);
  let history: Awaited<ReturnType<typeof tableHistory>>;
  try {
    history = await tableHistory(locationArg(location), {
      locations: locationConfigFromEnv(REPO),
      ...(since !== undefined && { since }),
      ...(atVersion !== undefined && { atVersion }),
      ...(key !== undefined && { key }),
      ...(process.stderr.isTTY && { onProgress: progressLine }),
    });
  } catch (e) {
    if (!(e instanceof LocationError || e instanceof NotATableError || e instanceof KeyColumnError)) throw e;
    console.error(`audit: ${e.message}`);
    return exit.unusable;
  }
  out.text.write(toHistoryText(history));
  await out.writeJson(history);
  return history.failed ? exit.errorFindings : exit.clean;
}

/** A relative path is relative to where the command runs; an alias or a URL is passed on as written. */
function locationArg(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || isAbsolute(text)) return text;
  return userPath(text);
}

function sinceOption(value: string): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw new UsageError(`--since must be an ISO 8601 date or time (2026-12-01, 2026-12-01T08:00Z), got '${value}'`);
  }
  return ms;
}

function versionOption(value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--at-version must be a version number (0 or more), got '${value}'`);
  return Number(value);
}

function keyOption(value: string): string[] {
  const cols = value.split(',').map((c) => c.trim());
  if (cols.some((c) => c === '')) throw new UsageError(`--key must name columns separated by commas, got '${value}'`);
  return cols;
}

function progressLine(stage: 'log' | 'duplicates', done: number, total: number): void {
  if (total < PROGRESS_FROM) return;
  if (done === total) process.stderr.write('\r\x1b[K');
  else if (done % 500 === 0)
    process.stderr.write(`\r${stage === 'log' ? 'reading commits' : 'reading files'}: ${done} of ${total}`);
}
