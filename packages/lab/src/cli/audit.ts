/**
 * npm run audit -- FILE [--format text|sarif|junit] [--out REPORT] [--json OUT]
 *
 * Audits the jobs in a manifest (YAML or JSON): findings with their evidence and fix, then, per
 * table, the forecast for every pair of jobs in both orders. The report goes to stdout in the chosen
 * format, or to REPORT with the text report on stdout. Exit codes, for a CI gate
 * (docs/jobs-audit.md): 0 no error finding, 1 error findings, 2 an unusable manifest or bad flags,
 * 3 the audit itself failed. A failure prints one line, never a stack trace.
 */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jobLines } from '../audit/formats/job-lines';
import { toJunit } from '../audit/formats/junit';
import { toSarif } from '../audit/formats/sarif';
import { toText } from '../audit/formats/text';
import { auditJobs, type JobAudit, type Manifest } from '../audit/index';
import { ManifestError, parseManifest, readManifestText } from '../audit/manifest';
import { locationConfigFromEnv } from '../tables/locations';
import { parseArgs, REPO, runCommand, UsageError, userPath } from './args';

const USAGE = 'usage: npm run audit -- FILE [--format text|sarif|junit] [--out REPORT] [--json OUT]';
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
  const { positionals, options } = parseArgs(argv, { options: ['format', 'out', 'json'], flags: [] });
  const [file] = positionals;
  if (file === undefined || positionals.length > 1) throw new UsageError(USAGE);
  const format = formatOption(options.format);
  const out = options.out === undefined ? undefined : await outputPath('--out', options.out);
  const json = options.json === undefined ? undefined : await outputPath('--json', options.json);

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
  const report = render(format, audit, manifest, { path, text });
  if (out === undefined) process.stdout.write(report);
  else {
    await writeFile(out, report);
    process.stdout.write(format === 'text' ? report : toText(audit, manifest.jobs.length));
  }
  if (json !== undefined) await writeFile(json, `${JSON.stringify(audit, null, 2)}\n`);
  return audit.failed ? EXIT.errorFindings : EXIT.clean;
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
  return { manifest, text, audit: await auditJobs(manifest, locationConfigFromEnv(REPO)) };
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
