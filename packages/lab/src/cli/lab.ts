/**
 * `npm run lab -- …`: the lesson's cases by id, or a race on copies of the user's own table (LAB_COMMAND is its
 * help); `npm run lab -- sweep …` is cli/sweep.ts, `npm run lab -- compare …` cli/compare.ts. With --table, the
 * writers of FILE (a custom race, `{ writers: [...], properties? }`) race copies of the table at LOCATION (a path under LAB_ROOTS, or
 * s3://bucket/path in LAB_S3_BUCKETS); a refusal exits 2 with every problem.
 * `npm run lab -- --list` prints every case, the lesson's then the store cases, with the store each store case needs.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { DeltaTable } from '@racelab/engine';
import type { LabCase, TableAt } from '../cases/catalog';
import type { CustomCaseInput } from '../cases/custom';
import { type CaseGroup, caseGroup, storeNeed } from '../cases/groups';
import { locationCase } from '../cases/location';
import { noMatchWarnings } from '../cases/no-match';
import { labCases } from '../formats/registry';
import { runLab } from '../lab';
import { caseVerdict } from '../oracle/index';
import { caseOutcome, loserErrors, tableAfter } from '../results/summary';
import { locationConfigFromEnv } from '../tables/locations';
import {
  type CommandSpec,
  commandOutput,
  numberOption,
  readCommand,
  runCommand,
  UsageError,
  userPath,
} from '../terminal/command-line';
import { progressBar } from '../terminal/progress-board';
import { REPO, workDirOption } from './args';
import { compareCommand } from './compare';
import { labFailure } from './lab-failure';
import { sweepCommand, sweepFailure } from './sweep';

const LAB_COMMAND: CommandSpec = {
  usage: [
    'npm run lab -- [CASE…] [--runs N] [--scale S] [--json FILE|-] [--real [--library delta-rs|pyiceberg]] [--library delta-spark] [options]',
    'npm run lab -- --table LOCATION --writers FILE.json [--properties k=v,…] [--runs N] [--json FILE|-]',
    'npm run lab -- sweep …   (npm run lab -- sweep --help)',
    'npm run lab -- compare CASE… …   (npm run lab -- compare --help)',
  ],
  about:
    "Races the lesson's cases (every case when none is named) with real writer processes behind a barrier, or\n" +
    'the writers of FILE.json on fresh copies of your own table, and prints each verdict, outcome and table.',
  options: {
    '--runs N': 'runs per case, 1 to 50 (default 5)',
    '--scale S': "the lab data set's scale, 0.01 to 1 (default 1)",
    '--json FILE|-': 'the results as JSON to FILE, or to standard output with - (the report then goes to stderr)',
    '--table LOCATION': 'race copies of this Delta table (under LAB_ROOTS, or s3://… in LAB_S3_BUCKETS)',
    '--writers FILE.json':
      "with --table: the race's writers, { writers: [...], properties? }; a writer { name, command: [...], cwd? } runs a job of your own (LAB_JOB_ROOTS)",
    '--properties k=v,…': "with --table: table properties for the copies (added to the file's)",
    '--job-timeout S': 'with command writers: seconds a job may run before it is stopped (default 600)',
    '--data-dir DIR': 'where the NYC TLC files may be (LAB_DATA_DIR, default ~/lab-data/de)',
    '--work-dir DIR': 'where the data set, base tables and runs live (LAB_WORK_DIR, default var/lab)',
    '--table-root s3://…': 'run tables on S3 (endpoint and keys from the AWS environment)',
    '--keep-runs': "keep each run's table folder afterwards",
    '--real':
      'run the writers in the real library (delta-rs 1.6.6, pyiceberg 0.12.0, Delta Spark 4.4.0 via Python; npm run setup:python installs it)',
    '--library NAME':
      "the real library, delta-rs, pyiceberg or delta-spark (default: the case's format's); delta-spark implies --real (its writers are threads of one Spark host)",
    '--list': "list every case, the lesson's then the store cases, and run none",
  },
  examples: [
    'npm run lab -- A1 B1 --runs 2',
    'npm run lab -- --list',
    'npm run lab -- A1 B1 --real --runs 1',
    'npm run lab -- B1 C1 --library delta-spark --runs 1 --scale 0.05',
    'npm run lab -- --table dv --writers two-updates.json --runs 2',
    'LAB_JOB_ROOTS=examples/jobs:/usr/bin npm run lab -- --table flat-copy --writers examples/jobs/e1-jobs.json --runs 1',
    'npm run -s lab -- A1 --runs 1 --json - | jq .cases[0].runs[0].verdict',
  ],
};

async function labCommand(argv: string[]): Promise<number> {
  const { positionals, options, flags } = readCommand(argv, LAB_COMMAND);
  const out = commandOutput(options.json);
  // Parsed checkpoints kept outside every table (the engine's checkpoint-cache.ts); forked writers inherit it.
  process.env.RACELAB_CACHE_DIR ||= join(REPO, 'var/cache');
  if (flags.has('list')) {
    printCaseList(out.say);
    return 0;
  }
  // The writers file names no table of its own: without --table it would race nothing it describes.
  if (options.writers !== undefined && options.table === undefined) {
    throw new UsageError('--writers FILE.json needs --table LOCATION: the table whose copies its writers race');
  }
  const own = options.table !== undefined ? await ownTableCase(options, positionals) : null;
  // Said before anything runs: a writer whose predicate matches nothing will have nothing to commit.
  for (const w of own?.warnings ?? []) process.stderr.write(`lab: warning: ${w}\n`);
  const bar = progressBar();
  const results = await runLab({
    cases: own ? [own.case] : positionals,
    ...(own && { roots: own.roots }),
    ...(numberOption(options, 'runs') !== undefined && { runs: numberOption(options, 'runs') }),
    ...(numberOption(options, 'scale') !== undefined && { scale: numberOption(options, 'scale') }),
    workDir: workDirOption(options),
    ...(options['data-dir'] && { dataDir: userPath(options['data-dir']) }),
    ...(flags.has('keep-runs') && { keepRuns: true }),
    // Delta run tables on S3 (endpoint and keys from the AWS environment); checked by runLab.
    ...(options['table-root'] && { tableRoot: options['table-root'] }),
    // Refused by runLab with every reason when the cases or settings cannot run for real.
    ...(flags.has('real') && { real: true }),
    ...(options.library !== undefined && { library: options.library }),
    ...(numberOption(options, 'job-timeout') !== undefined && {
      jobTimeoutMs: (numberOption(options, 'job-timeout') as number) * 1000,
    }),
    onProgress: (p) => {
      if (p.kind === 'setup') bar.note(`preparing ${p.message}…`);
      else if (p.kind === 'run') bar.update(p.done, p.total, `${p.caseId} run ${p.run}/${p.runs}`);
    },
  });
  bar.end();
  // The data set's folder relative to the file (or to where the command ran), so it can be checked on another clone.
  const from = out.jsonFile === undefined ? userPath('.') : dirname(out.jsonFile);
  await out.writeJson({ ...results, dataDir: relative(from, results.dataDir) });
  // A race on the user's own table takes no data from the lab's data set: its line names the table instead.
  const versions = Object.entries(results.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  out.say(
    `racelab: ${own ? `copies of ${options.table}` : `${results.dataSource} data at scale ${results.scale}`}; ${versions}`,
  );
  for (const c of results.cases) {
    out.say(`\n${c.id}  ${c.title ?? ''}`);
    out.say(`    verdict: ${caseVerdict(c)}`);
    const verdict = c.runs.at(-1)?.verdict;
    for (const f of [...(verdict?.failedWriters ?? []), ...(verdict?.nothingToCommit ?? [])])
      out.say(`             ${f.summary}`);
    out.say(`    outcome: ${caseOutcome(c)}`);
    for (const e of loserErrors(c)) out.say(`    loser:   ${e.replaceAll('\n', '\n             ')}`);
    out.say(`    table:   ${tableAfter(c.runs.at(-1))}`);
  }
  if (out.jsonFile !== undefined) out.say(`\nresults written to ${out.jsonFile}`);
  return 0;
}

/** `--list`: the one case list, by group, a store case with the store it needs. */
function printCaseList(say: (line: string) => void): void {
  const groups: [CaseGroup, string][] = [
    ['lesson', "the lesson's cases (npm run lab with no case runs them all)"],
    ['store', 'the store cases (each runs only when named)'],
  ];
  for (const [group, heading] of groups) {
    say(`${heading}:`);
    for (const c of labCases().filter((x) => caseGroup(x) === group)) {
      say(`  ${c.id}  ${c.title}`);
      const need = storeNeed(c);
      if (need) say(`      ${need.says}`);
    }
  }
}

/** `--properties a=b,c=d` as a map; a pair without `=` is the user's to fix. */
function propertiesOption(text: string | undefined): Record<string, string> | undefined {
  if (text === undefined) return undefined;
  const pairs = text.split(',').filter((p) => p.trim() !== '');
  const bad = pairs.filter((p) => !p.includes('='));
  if (bad.length > 0) throw new UsageError(`--properties takes key=value pairs separated by commas, got '${bad[0]}'`);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')).trim(), p.slice(p.indexOf('=') + 1).trim()]));
}

/** The race of `--writers FILE` on copies of `--table LOCATION`, refused (exit 2) with every problem. */
async function ownTableCase(
  options: Record<string, string>,
  positionals: string[],
): Promise<{ case: LabCase; roots: string[]; warnings: string[] }> {
  if (positionals.length > 0)
    throw new UsageError('--table races the writers of --writers FILE; name no cases with it');
  if (options.writers === undefined) throw new UsageError('--table needs --writers FILE.json (a custom race)');
  let race: unknown;
  try {
    race = JSON.parse(await readFile(userPath(options.writers), 'utf8'));
  } catch (e) {
    throw new UsageError(`--writers ${options.writers}: not a readable JSON file (${(e as Error).message})`);
  }
  if (race === null || typeof race !== 'object' || Array.isArray(race)) {
    throw new UsageError(`--writers ${options.writers}: must hold an object { writers: [...], properties? }`);
  }
  const given = propertiesOption(options.properties);
  const file = race as { properties?: Record<string, string> };
  const input = {
    ...file,
    location: options.table,
    ...(given && { properties: { ...file.properties, ...given } }),
  } as CustomCaseInput;
  const cfg = { ...locationConfigFromEnv(REPO), workDir: workDirOption(options) };
  const tableRoot = options['table-root'];
  // A command writer's relative cwd is taken from the writers file's folder.
  const jobBase = dirname(userPath(options.writers));
  const c = await locationCase(input, cfg, { jobBase, ...(tableRoot && { tableRoot }) });
  const table = await DeltaTable.open((c.table as TableAt).location, { roots: cfg.roots });
  return { case: c, roots: cfg.roots, warnings: await noMatchWarnings(table, c.writers) };
}

// `lab sweep …`: many writers under a retry policy, with its own options and exit codes (cli/sweep.ts);
// `lab compare …`: cases emulated and real, side by side (cli/compare.ts).
const sub = process.argv[2];
if (sub === 'sweep') await runCommand((argv) => sweepCommand(argv.slice(1)), sweepFailure);
else if (sub === 'compare') await runCommand((argv) => compareCommand(argv.slice(1)), labFailure);
else await runCommand(labCommand, labFailure);
