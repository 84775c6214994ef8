/**
 * `npm run audit -- FILE`, `npm run audit -- code PATH…`, `npm run audit -- history LOCATION` (their help:
 * JOBS_COMMAND, CODE_COMMAND, history-audit.ts's HISTORY_COMMAND). Audits the jobs in a manifest (YAML or JSON):
 * findings with their evidence and fix, then, per table, the forecast for every pair of jobs in both orders. With
 * `code`, audits the team's code instead (each PATH a folder or a file): every setting that decides concurrency, where
 * it is written, and the findings about it. With `history`, audits what a table's own log says happened
 * (history-audit.ts). The report goes to stdout in the chosen format, or to REPORT with the text report on stdout;
 * `--json -` puts the JSON on stdout and the text report on stderr, and is refused beside a SARIF or JUnit report on
 * stdout. Exit codes, for a CI gate (docs/jobs-audit.md): 0 no error finding, 1 error findings, 2 an unusable manifest,
 * a PATH that is not there or bad flags, 3 the audit itself failed. A failure prints one line, never a stack trace.
 */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { auditCode, type CodeAudit } from '../audit/code-scan/index';
import { toCodeJunit } from '../audit/formats/code-junit';
import { toCodeSarif } from '../audit/formats/code-sarif';
import { toCodeText } from '../audit/formats/code-text';
import { jobLines } from '../audit/formats/job-lines';
import { toJunit } from '../audit/formats/junit';
import { toSarif } from '../audit/formats/sarif';
import { toText } from '../audit/formats/text';
import { auditJobs, type JobAudit, type Manifest } from '../audit/index';
import { ManifestError, parseManifest, readManifestText } from '../audit/manifest';
import { locationConfigFromEnv } from '../tables/locations';
import {
  type CommandOutput,
  type CommandSpec,
  commandOutput,
  readCommand,
  runCommand,
  UsageError,
  usageLine,
  userPath,
} from '../terminal/command-line';
import { REPO } from './args';
import { historyAudit } from './history-audit';

const REPORT_OPTIONS = {
  '--format text|sarif|junit': 'the report on standard output (default text)',
  '--out REPORT': 'the report to REPORT instead, the text report on standard output',
  '--json FILE|-': 'the audit as JSON to FILE, or to standard output with - (the text report then goes to stderr)',
};
const JOBS_COMMAND: CommandSpec = {
  usage: [
    'npm run audit -- FILE [--format text|sarif|junit] [--out REPORT] [--json FILE|-]',
    'npm run audit -- code PATH… [--format text|sarif|junit] [--out REPORT] [--json FILE|-]',
    'npm run audit -- history LOCATION [--since T] [--key COL,…] [--at-version N] [--json FILE|-]',
  ],
  about:
    'Audits the jobs in a manifest (YAML or JSON): findings with their evidence and fix, and per table the\n' +
    "forecast for every pair of jobs. `code` audits your code, `history` a table's own log (each has --help).\n" +
    'Exit 0: no error finding; 1: error findings; 2: an unusable input or bad flags; 3: the audit failed.',
  options: REPORT_OPTIONS,
  examples: [
    'npm run audit -- jobs.yaml --format sarif --out audit.sarif',
    'npm run -s audit -- jobs.yaml --json - | jq .findings',
  ],
};
const CODE_COMMAND: CommandSpec = {
  usage: ['npm run audit -- code PATH… [--format text|sarif|junit] [--out REPORT] [--json FILE|-]'],
  about:
    'Audits the code under each PATH (a folder or a file): every setting that decides concurrency, where it is\n' +
    "written, and the findings about it. Exit codes as the jobs audit's.",
  options: REPORT_OPTIONS,
  examples: ['npm run audit -- code src/ --format junit --out audit.xml'],
};
/** A scan of more files than this shows its progress on a terminal's stderr. */
const PROGRESS_FROM = 2000;
const FORMATS = ['text', 'sarif', 'junit'] as const;
type Format = (typeof FORMATS)[number];

/** Exit codes a CI can tell apart (docs/jobs-audit.md). */
const EXIT = { clean: 0, errorFindings: 1, unusable: 2, failed: 3 } as const;

/** Why a manifest file cannot be read, in words; other codes are shown as they are. */
const UNREADABLE: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'a folder, not a file',
  EACCES: 'permission denied',
};

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'history') return historyAudit(argv.slice(1), EXIT, (value) => outputPath('--json', value));
  const { positionals, options } = readCommand(argv, argv[0] === 'code' ? CODE_COMMAND : JOBS_COMMAND);
  const [file, ...paths] = positionals;
  if (file === 'code') {
    if (paths.length === 0) throw new UsageError(usageLine(CODE_COMMAND));
    return codeAudit(paths, await reportOptions(options));
  }
  if (file === undefined || positionals.length > 1) throw new UsageError(usageLine(JOBS_COMMAND));
  const reports = await reportOptions(options);

  const path = userPath(file);
  let audited: Audited;
  try {
    audited = await readAndAudit(path);
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    console.error(`${file}: the manifest is not usable:\n${e.problems.map((p) => `  - ${p}`).join('\n')}`);
    return EXIT.unusable;
  }
  const { manifest, text, audit } = audited;
  const report = render(reports.format, audit, manifest, { path, text });
  await writeReports(reports, report, () => toText(audit, manifest.jobs.length), audit);
  return audit.failed ? EXIT.errorFindings : EXIT.clean;
}

interface ReportOptions {
  format: Format;
  out: string | undefined;
  output: CommandOutput;
}

async function reportOptions(options: Record<string, string>): Promise<ReportOptions> {
  const format = formatOption(options.format);
  const out = options.out === undefined ? undefined : await outputPath('--out', options.out);
  if (options.json !== undefined && options.json !== '-') await outputPath('--json', options.json);
  // A SARIF or JUnit report without --out is a document on stdout of its own.
  const output = commandOutput(options.json, format !== 'text' && out === undefined ? `--format ${format}` : undefined);
  return { format, out, output };
}

/** The report to stdout, or to --out with the text report on stdout (stderr with --json -); the audit as JSON to --json. */
async function writeReports(o: ReportOptions, report: string, text: () => string, audit: object): Promise<void> {
  if (o.out === undefined) o.output.text.write(report);
  else {
    await writeFile(o.out, report);
    o.output.text.write(o.format === 'text' ? report : text());
  }
  await o.output.writeJson(audit);
}

/** The code audit of `paths` (folders or files); one that is not there is a bad input (exit 2), found before the scan. */
async function codeAudit(paths: string[], o: ReportOptions): Promise<number> {
  const full = paths.map(userPath);
  for (const [i, p] of full.entries()) {
    if ((await stat(p).catch(() => null)) === null) {
      console.error(`audit: no such file or folder: ${paths[i]}`);
      return EXIT.unusable;
    }
  }
  const audit = await auditCode(full, { onProgress: progressLine() });
  const report = await renderCode(o.format, audit, full);
  await writeReports(o, report, () => toCodeText(audit), audit);
  return audit.failed ? EXIT.errorFindings : EXIT.clean;
}

async function renderCode(format: Format, audit: CodeAudit, paths: string[]): Promise<string> {
  switch (format) {
    case 'text':
      return toCodeText(audit);
    case 'junit':
      return toCodeJunit(audit);
    case 'sarif': {
      const [only] = paths;
      const sarif = toCodeSarif({
        audit,
        docsUri: pathToFileURL(join(REPO, 'docs/jobs-audit.md')).href,
        ...(paths.length === 1 && only !== undefined && { rootUri: await rootUriOf(only) }),
      });
      return `${JSON.stringify(sarif, null, 2)}\n`;
    }
  }
}

/** The scanned root as SARIF's SRCROOT: the folder, or a file's folder, as a file: URI ending in '/'. */
async function rootUriOf(path: string): Promise<string> {
  const folder = (await stat(path)).isDirectory() ? path : dirname(path);
  const href = pathToFileURL(folder).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/** On a terminal, a long scan's progress on one stderr line, rewritten in place and cleared at the end. */
function progressLine(): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (done, total) => {
    if (total < PROGRESS_FROM) return;
    if (done === total) process.stderr.write('\r\x1b[K');
    else if (done % 200 === 0) process.stderr.write(`\rreading files: ${done} of ${total}`);
  };
}

interface Audited {
  manifest: Manifest;
  /** The manifest's text, where SARIF finds each job's line. */
  text: string;
  audit: JobAudit;
}

/** Reads and audits the manifest: a ManifestError means the manifest cannot be used (exit 2), any other error exit 3. */
async function readAndAudit(path: string): Promise<Audited> {
  const { text, format } = await readManifestText(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === undefined) throw e;
    throw new ManifestError([`cannot read the file: ${UNREADABLE[e.code] ?? e.code}`]);
  });
  const manifest = parseManifest(text, format);
  return {
    manifest,
    text,
    audit: await auditJobs(manifest, locationConfigFromEnv(REPO), { manifestDir: dirname(path) }),
  };
}

function render(format: Format, audit: JobAudit, manifest: Manifest, source: { path: string; text: string }): string {
  switch (format) {
    case 'text':
      return toText(audit, manifest.jobs.length);
    case 'junit':
      return toJunit(
        audit,
        manifest.jobs.map((j) => j.name),
      );
    case 'sarif': {
      const sarif = toSarif({
        audit,
        manifestUri: manifestUri(source.path),
        jobPositions: jobLines(source.text),
        docsUri: pathToFileURL(join(REPO, 'docs/jobs-audit.md')).href,
      });
      return `${JSON.stringify(sarif, null, 2)}\n`;
    }
  }
}

function formatOption(value: string | undefined): Format {
  if (value === undefined) return 'text';
  const format = FORMATS.find((f) => f === value);
  if (format === undefined) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got '${value}'`);
  return format;
}

/** A report's path, refused before the audit runs when its folder is not there (a CI then learns at once). */
async function outputPath(flag: string, value: string): Promise<string> {
  const path = userPath(value);
  const folder = await stat(dirname(path)).catch(() => null);
  if (!folder?.isDirectory()) throw new UsageError(`${flag}: no folder ${dirname(value)} to write ${value} in`);
  if ((await stat(path).catch(() => null))?.isDirectory()) throw new UsageError(`${flag}: ${value} is a folder`);
  return path;
}

/**
 * The manifest as SARIF names it: relative to where the command ran (a CI's checkout, whose viewer
 * resolves it), or, for a file outside that folder, its file: URI.
 */
function manifestUri(path: string): string {
  const rel = relative(userPath('.'), path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return pathToFileURL(path).href;
  return rel.split(sep).map(encodeURIComponent).join('/');
}

/** One line for the person: a bad flag, or what stopped the audit. */
function failure(error: unknown): number {
  if (error instanceof UsageError) {
    console.error(`audit: ${error.message}`);
    return EXIT.unusable;
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const reason = e.message.split('\n')[0]?.trim() || 'no reason given';
  console.error(`audit: the audit failed: ${e.name}: ${reason}`);
  return EXIT.failed;
}

await runCommand(main, failure);
