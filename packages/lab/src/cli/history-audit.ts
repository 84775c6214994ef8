/**
 * npm run audit -- history LOCATION [--since T] [--key COL[,COL…]] [--at-version N] [--json OUT]
 *
 * What a table's own log says happened: its commits as evidence, whom each was concurrent with, the findings.
 * LOCATION is a path (relative to where the command runs) under LAB_ROOTS, a lab alias, or s3://… in
 * LAB_S3_BUCKETS. The text report goes to stdout, the whole history as JSON to OUT
 * (contracts/table-history.schema.json). Exit codes as the audit's: 0 no error finding, 1 error findings, 2 a bad
 * flag or a location that is not a readable table, 3 the audit could not run (a bound hit names the bound).
 */
import { writeFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { NotATableError } from '@racelab/engine';
import { toHistoryText } from '../audit/formats/history-text';
import { KeyColumnError } from '../audit/history/duplicates';
import { tableHistory } from '../audit/history/index';
import { LocationError, locationConfigFromEnv } from '../tables/locations';
import { parseArgs, REPO, UsageError, userPath } from './args';

export const HISTORY_USAGE =
  'usage: npm run audit -- history LOCATION [--since T] [--key COL[,COL…]] [--at-version N] [--json OUT]';
/** A log of more commits than this shows its reading on a terminal's stderr. */
const PROGRESS_FROM = 2000;

export interface HistoryExit {
  clean: number;
  errorFindings: number;
  unusable: number;
}

export async function historyAudit(argv: string[], exit: HistoryExit, jsonPath: (v: string) => Promise<string>) {
  const { positionals, options } = parseArgs(argv, { options: ['since', 'key', 'at-version', 'json'], flags: [] });
  const [location, ...rest] = positionals;
  if (location === undefined || rest.length > 0) throw new UsageError(HISTORY_USAGE);
  const since = options.since === undefined ? undefined : sinceOption(options.since);
  const atVersion = options['at-version'] === undefined ? undefined : versionOption(options['at-version']);
  const key = options.key === undefined ? undefined : keyOption(options.key);
  const json = options.json === undefined ? undefined : await jsonPath(options.json);
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
  process.stdout.write(toHistoryText(history));
  if (json !== undefined) await writeFile(json, `${JSON.stringify(history, null, 2)}\n`);
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
