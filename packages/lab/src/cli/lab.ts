/**
 * npm run lab -- [CASE…] [--runs N] [--scale S] [--json FILE] [--data-dir DIR] [--work-dir DIR] [--table-root s3://…] [--keep-runs]
 * npm run lab -- --table LOCATION --writers FILE.json [--properties k=v,…] [--runs N] [--json FILE] …
 *
 * npm run lab -- --list: every case, the lesson's then the store cases, with the store each store case needs
 *
 * npm run lab -- sweep … (cli/sweep.ts)
 *
 * With --table, the writers of FILE (a custom race, `{ writers: [...], properties? }`) race copies of the table at
 * LOCATION (a path under LAB_ROOTS, or s3://bucket/path in LAB_S3_BUCKETS); a refusal exits 2 with every problem.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { DeltaTable } from '@racelab/engine';
import type { LabCase, TableAt } from '../cases/catalog';
import { CaseInputError, type CustomCaseInput } from '../cases/custom';
import { type CaseGroup, caseGroup, storeNeed } from '../cases/groups';
import { locationCase } from '../cases/location';
import { noMatchWarnings } from '../cases/no-match';
import { labCases } from '../formats/registry';
import { runLab } from '../lab';
import { caseVerdict } from '../oracle/index';
import { caseOutcome, loserErrors, tableAfter } from '../results/summary';
import { CopyRefusedError } from '../tables/copy-refusals';
import { locationConfigFromEnv } from '../tables/locations';
import { progressBar } from '../terminal/progress-board';
import { numberOption, parseArgs, REPO, UsageError, userPath, workDirOption } from './args';
import { sweepCommand, sweepFailure } from './sweep';

async function main(): Promise<void> {
  // `lab sweep …`: many writers under a retry policy, with its own options and exit codes (cli/sweep.ts).
  if (process.argv[2] === 'sweep') {
    // Explicitly: a module the lab loads (pg-server's) ends the process with 0 on exit, whatever exitCode says.
    process.exit(await sweepCommand(process.argv.slice(3)).catch(sweepFailure));
  }
  // Parsed checkpoints kept outside every table (the engine's checkpoint-cache.ts); forked writers inherit it.
  process.env.RACELAB_CACHE_DIR ||= join(REPO, 'var/cache');
  const { positionals, options, flags } = parseArgs(process.argv.slice(2), {
    options: ['runs', 'scale', 'json', 'data-dir', 'work-dir', 'table-root', 'table', 'writers', 'properties'],
    flags: ['keep-runs', 'list'],
  });
  if (flags.has('list')) {
    printCaseList();
    return;
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
    onProgress: (p) => {
      if (p.kind === 'setup') bar.note(`preparing ${p.message}…`);
      else if (p.kind === 'run') bar.update(p.done, p.total, `${p.caseId} run ${p.run}/${p.runs}`);
    },
  });
  bar.end();
  if (options.json) {
    // Written aside and renamed: a half-written results file never exists.
    const out = userPath(options.json);
    await mkdir(dirname(out), { recursive: true });
    // The data set's folder relative to the file, so the file can be checked on another clone.
    const portable = { ...results, dataDir: relative(dirname(out), results.dataDir) };
    await writeFile(`${out}.tmp`, `${JSON.stringify(portable, null, 2)}\n`);
    await rename(`${out}.tmp`, out);
  }
  console.log(
    `racelab: ${results.dataSource} data at scale ${results.scale}; ${Object.entries(results.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  for (const c of results.cases) {
    console.log(`\n${c.id}  ${c.title ?? ''}`);
    console.log(`    verdict: ${caseVerdict(c)}`);
    const verdict = c.runs.at(-1)?.verdict;
    for (const f of [...(verdict?.failedWriters ?? []), ...(verdict?.nothingToCommit ?? [])])
      console.log(`             ${f.summary}`);
    console.log(`    outcome: ${caseOutcome(c)}`);
    for (const e of loserErrors(c)) console.log(`    loser:   ${e.replaceAll('\n', '\n             ')}`);
    console.log(`    table:   ${tableAfter(c.runs.at(-1))}`);
  }
  if (options.json) console.log(`\nresults written to ${userPath(options.json)}`);
}

/** `--list`: the one case list, by group, a store case with the store it needs. */
function printCaseList(): void {
  const groups: [CaseGroup, string][] = [
    ['lesson', "the lesson's cases (npm run lab with no case runs them all)"],
    ['store', 'the store cases (each runs only when named)'],
  ];
  for (const [group, heading] of groups) {
    console.log(`${heading}:`);
    for (const c of labCases().filter((x) => caseGroup(x) === group)) {
      console.log(`  ${c.id}  ${c.title}`);
      const need = storeNeed(c);
      if (need) console.log(`      ${need.says}`);
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
  const c = await locationCase(input, cfg, tableRoot ? { tableRoot } : {});
  const table = await DeltaTable.open((c.table as TableAt).location, { roots: cfg.roots });
  return { case: c, roots: cfg.roots, warnings: await noMatchWarnings(table, c.writers) };
}

main().catch((e: unknown) => {
  if (e instanceof CaseInputError || e instanceof CopyRefusedError) {
    process.stderr.write(`\nlab: the race was refused:\n${e.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(2);
  }
  process.stderr.write(`\nlab: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(
    e instanceof Error &&
      ['UsageError', 'LabInputError', 'UnknownCaseError', 'StoreNeededError', 'DatasetError'].includes(e.name)
      ? 2
      : 1,
  );
});
