/**
 * `npm run lab -- compare CASE… …` (COMPARE_COMMAND is its help): the differential. Each named case runs emulated
 * (the engine) and real (the library itself) on identical copies, at the same scale with the same data set, and
 * compare/ sets the two side by side: who commits, attempts, losers' exceptions and messages, the table
 * afterwards and every commit's actions, up to renaming symmetric writers. Exit 0 when every case agrees, 1 when
 * any differs, 2 for usage errors and refusals (a case that cannot run for real, the Python side missing).
 */
import { dirname, join, relative } from 'node:path';
import type { LabCase } from '../cases/catalog';
import { type CaseVerdict, compareCase } from '../compare/index';
import { selectCases } from '../formats/registry';
import { runLab, validateLabOptions } from '../lab';
import { pythonEnv } from '../real/python-env';
import type { LabResults } from '../results/types';
import {
  type CommandSpec,
  commandOutput,
  numberOption,
  readCommand,
  UsageError,
  userPath,
} from '../terminal/command-line';
import { progressBar } from '../terminal/progress-board';
import { REPO, workDirOption } from './args';

const COMPARE_COMMAND: CommandSpec = {
  usage: ['npm run lab -- compare CASE… [--library delta-rs] [--runs N] [--scale S] [--json FILE|-] [options]'],
  about:
    'Runs each case emulated by the engine and real in the library, on identical copies, and compares the\n' +
    "outcomes seen (up to renaming symmetric writers): who commits, each writer's attempts, each loser's exception\n" +
    "and message (ids masked), the table afterwards, and every commit's actions as parsed values. Exit 0 when\n" +
    'every case agrees, 1 when any differs.',
  options: {
    '--library NAME': 'the real library, delta-rs (the default)',
    '--runs N': 'runs per case on each side, 1 to 50 (default 5)',
    '--scale S': "the lab data set's scale, 0.01 to 1 (default 1)",
    '--json FILE|-': '{ verdicts, emulated, real } as JSON to FILE, or to standard output with -',
    '--data-dir DIR': 'where the NYC TLC files may be (LAB_DATA_DIR, default ~/lab-data/de)',
    '--work-dir DIR': 'where the data set, base tables and runs live (LAB_WORK_DIR, default var/lab)',
  },
  examples: [
    'npm run lab -- compare A1 B1 E1 --scale 0.05 --runs 2',
    'npm run -s lab -- compare B2 --runs 3 --json - | jq .verdicts',
  ],
};

/** The writers a case's runs race: what symmetry is read from. */
const writersOf = (c: LabCase) => ('writers' in c ? c.writers : []);

export async function compareCommand(argv: string[]): Promise<number> {
  const { positionals, options } = readCommand(argv, COMPARE_COMMAND);
  const out = commandOutput(options.json);
  process.env.RACELAB_CACHE_DIR ||= join(REPO, 'var/cache');
  if (positionals.length === 0) throw new UsageError('compare needs the cases to compare, e.g. compare A1 B1');
  const runs = numberOption(options, 'runs');
  const scale = numberOption(options, 'scale');
  const common = {
    cases: positionals,
    ...(runs !== undefined && { runs }),
    ...(scale !== undefined && { scale }),
    workDir: workDirOption(options),
    ...(options['data-dir'] && { dataDir: userPath(options['data-dir']) }),
  };
  const real = { ...common, real: true, ...(options.library !== undefined && { library: options.library }) };
  // Refused before either side runs: a case the library cannot run, or the Python side missing.
  const { libraries } = validateLabOptions(real);
  for (const library of new Set(libraries?.values())) await pythonEnv(library);
  const cases = new Map(selectCases(positionals).map((c) => [c.id, c]));
  const side = async (name: string, o: Parameters<typeof runLab>[0]): Promise<LabResults> => {
    const bar = progressBar();
    try {
      return await runLab({
        ...o,
        onProgress: (p) => {
          if (p.kind === 'setup') bar.note(`${name}: preparing ${p.message}…`);
          else if (p.kind === 'run') bar.update(p.done, p.total, `${name} ${p.caseId} run ${p.run}/${p.runs}`);
        },
      });
    } finally {
      bar.end();
    }
  };
  const emulated = await side('emulated', common);
  const realResults = await side('real', real);
  const verdicts: CaseVerdict[] = emulated.cases.map((e) => {
    const r = realResults.cases.find((x) => x.id === e.id) ?? { id: e.id, runs: [] };
    return compareCase(writersOf(cases.get(e.id) as LabCase), e, r);
  });
  const from = out.jsonFile === undefined ? userPath('.') : dirname(out.jsonFile);
  const relativeData = (r: LabResults) => ({ ...r, dataDir: relative(from, r.dataDir) });
  await out.writeJson({ verdicts, emulated: relativeData(emulated), real: relativeData(realResults) });
  const versions = Object.entries(realResults.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  out.say(`racelab compare: ${emulated.dataSource} data at scale ${emulated.scale}; ${versions}`);
  for (const v of verdicts) {
    out.say(`\n${v.id}  ${v.agree ? 'agree' : 'differs'}`);
    for (const d of v.differences) out.say(`    ${d.replaceAll('\n', '\n    ')}`);
    for (const t of v.timing) out.say(`    timing: ${t}`);
  }
  const differing = verdicts.filter((v) => !v.agree).map((v) => v.id);
  out.say(
    differing.length === 0
      ? `\nevery case agrees (${verdicts.length})`
      : `\n${differing.length} of ${verdicts.length} cases differ: ${differing.join(', ')}`,
  );
  if (out.jsonFile !== undefined) out.say(`results written to ${out.jsonFile}`);
  return differing.length === 0 ? 0 : 1;
}
