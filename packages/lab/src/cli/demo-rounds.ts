/**
 * The lesson's demo rounds, shared by `npm run lab:demo` and `npm run demo`: two writer processes append Feb 1
 * and Feb 2 at once; then, on a fresh table, two add 1 to the tips of VendorID 1 and VendorID 2 at once. Prints
 * who committed, the loser's error, and the table afterwards.
 */

import { plural } from '@racelab/contracts';
import { runLab } from '../lab';
import { numberOption, userPath } from '../terminal/command-line';
import { progressBar } from '../terminal/progress-board';
import { workDirOption } from './args';

/** The rounds' options, in the commands' help. */
export const DEMO_ROUND_OPTIONS = {
  '--scale S': "the lab data set's scale, 0.01 to 1 (default 1)",
  '--data-dir DIR': 'where the NYC TLC files may be (LAB_DATA_DIR, default ~/lab-data/de)',
  '--work-dir DIR': 'where the data set, base tables and runs live (LAB_WORK_DIR, default var/lab)',
};

const TITLES: Record<string, string> = { A1: 'Round 1: two appends at once', B1: 'Round 2: two updates at once' };

export async function demoRounds(options: Record<string, string>): Promise<number> {
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
  for (const c of results.cases) {
    const run = c.runs[0];
    if (!run) continue;
    console.log(`\n${TITLES[c.id] ?? c.id}`);
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
  return 0;
}

/** One line, exit 2 for what the user can fix and 1 otherwise, as the lab's commands end. */
export function demoFailure(command: string) {
  return (e: unknown): number => {
    process.stderr.write(`\n${command}: ${e instanceof Error ? e.message : String(e)}\n`);
    return e instanceof Error && ['UsageError', 'LabInputError', 'DatasetError'].includes(e.name) ? 2 : 1;
  };
}
