/**
 * npm run lab -- [CASE…] [--runs N] [--scale S] [--json FILE] [--data-dir DIR] [--work-dir DIR] [--table-root s3://…] [--keep-runs]
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { runLab } from '../lab';
import { caseOutcome, loserErrors, tableAfter } from '../results/summary';
import { caseVerdict } from '../verdict/index';
import { numberOption, parseArgs, userPath, workDirOption } from './args';
import { progressBar } from './progress';

async function main(): Promise<void> {
  const { positionals, options, flags } = parseArgs(process.argv.slice(2), {
    options: ['runs', 'scale', 'json', 'data-dir', 'work-dir', 'table-root'],
    flags: ['keep-runs'],
  });
  const bar = progressBar();
  const results = await runLab({
    cases: positionals,
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
    for (const f of c.runs.at(-1)?.verdict?.failedWriters ?? []) console.log(`             ${f.summary}`);
    console.log(`    outcome: ${caseOutcome(c)}`);
    for (const e of loserErrors(c)) console.log(`    loser:   ${e.replaceAll('\n', '\n             ')}`);
    console.log(`    table:   ${tableAfter(c.runs.at(-1))}`);
  }
  if (options.json) console.log(`\nresults written to ${userPath(options.json)}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`\nlab: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(
    e instanceof Error && ['UsageError', 'LabInputError', 'UnknownCaseError', 'DatasetError'].includes(e.name) ? 2 : 1,
  );
});
