/**
 * npm run lab:demo [-- --scale S]: the lesson's demo. Two writer processes append Feb 1 and Feb 2 at
 * once; then, on a fresh table, two add 1 to the tips of VendorID 1 and VendorID 2 at once. Prints
 * who committed, the loser's error, and the table afterwards.
 */

import { plural } from '@racelab/contracts';
import { runLab } from '../lab';
import { progressBar } from '../terminal/progress-board';
import { numberOption, parseArgs, userPath, workDirOption } from './args';

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2), { options: ['scale', 'data-dir', 'work-dir'], flags: [] });
  const bar = progressBar();
  const results = await runLab({
    cases: ['A1', 'B1'],
    runs: 1,
    ...(numberOption(options, 'scale') !== undefined && { scale: numberOption(options, 'scale') }),
    workDir: workDirOption(options),
    ...(options['data-dir'] && { dataDir: userPath(options['data-dir']) }),
    onProgress: (p) => {
      if (p.kind === 'setup') bar.note(`preparing ${p.message}…`);
      else if (p.kind === 'run') bar.update(p.done, p.total, p.caseId);
    },
  });
  bar.end();
  const titles: Record<string, string> = { A1: 'Round 1: two appends at once', B1: 'Round 2: two updates at once' };
  for (const c of results.cases) {
    const run = c.runs[0];
    if (!run) continue;
    console.log(`\n${titles[c.id] ?? c.id}`);
    for (const w of [...run.writers].sort((a, b) => (a.version ?? 99) - (b.version ?? 99))) {
      const what = w.committed
        ? `committed version ${w.version}`
        : `${w.errorClass}: ${w.errorMessage?.split('\n')[0]}`;
      console.log(`  ${w.name.padEnd(8)} ${what}`);
    }
    console.log(
      `  table: ${plural(run.table.rows, 'row')}; ${plural(run.table.dataFilesOnDisk ?? 0, 'data file')} on disk, ${run.table.dataFilesInLog} in the log`,
    );
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`\nlab:demo: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
