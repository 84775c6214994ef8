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
import { type LabOptions, runLab, validateLabOptions } from '../lab';
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
import { compareWithSpark } from './compare-spark';

const COMPARE_COMMAND: CommandSpec = {
  usage: [
    'npm run lab -- compare CASE… [--library delta-rs|pyiceberg] [--runs N] [--scale S] [--json FILE|-] [options]',
    'npm run lab -- compare CASE… --library delta-spark [--runs N] [--scale S] [--json FILE|-] [options]',
  ],
  about:
    'Runs each case emulated by the engine and real in the library, on identical copies, and compares the\n' +
    "outcomes seen (up to renaming symmetric writers): who commits, each writer's attempts, each loser's exception\n" +
    "and message (ids masked), the table afterwards, and every commit's actions as parsed values. Exit 0 when\n" +
    'every case agrees, 1 when any differs. With --library delta-spark (no emulated Spark writer exists) the real\n' +
    "Delta Spark runs are set against the engine's model of Delta Spark's conflict checker, B and C cases under\n" +
    'both WriteSerializable and Serializable: { verdicts, model, real }.',
  options: {
    '--library NAME': "the real library: delta-rs or pyiceberg (each case's format's by default), or delta-spark",
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

/** One side's runs, with a progress bar of its own. */
async function side(name: string, o: LabOptions): Promise<LabResults> {
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
}

type Output = ReturnType<typeof commandOutput>;

/** Each verdict in words, and the exit status: 0 when every case agrees. */
function sayVerdicts(out: Output, verdicts: readonly CaseVerdict[]): number {
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

const versionsText = (r: LabResults) =>
  Object.entries(r.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The Spark comparison: real Delta Spark against the engine's model of its conflict checker. */
async function compareSpark(cases: string[], common: Omit<LabOptions, 'cases'>, out: Output): Promise<number> {
  const { verdicts, model, real } = await compareWithSpark(cases, common, (o) => side('real Delta Spark', o));
  const from = out.jsonFile === undefined ? userPath('.') : dirname(out.jsonFile);
  await out.writeJson({ verdicts, model, real: { ...real, dataDir: relative(from, real.dataDir) } });
  out.say(
    `racelab compare: Delta Spark against the engine's model of it; ${real.dataSource} data at scale ${real.scale}; ${versionsText(real)}`,
  );
  return sayVerdicts(out, verdicts);
}

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
  if (options.library === 'delta-spark') return compareSpark(positionals, common, out);
  const real = { ...common, real: true, ...(options.library !== undefined && { library: options.library }) };
  // Refused before either side runs: a case the library cannot run, or the Python side missing.
  const { libraries } = validateLabOptions(real);
  for (const library of new Set(libraries?.values())) await pythonEnv(library);
  const cases = new Map(selectCases(positionals).map((c) => [c.id, c]));
  const emulated = await side('emulated', common);
  const realResults = await side('real', real);
  const verdicts: CaseVerdict[] = emulated.cases.map((e) => {
    const r = realResults.cases.find((x) => x.id === e.id) ?? { id: e.id, runs: [] };
    return compareCase(writersOf(cases.get(e.id) as LabCase), e, r);
  });
  const from = out.jsonFile === undefined ? userPath('.') : dirname(out.jsonFile);
  const relativeData = (r: LabResults) => ({ ...r, dataDir: relative(from, r.dataDir) });
  await out.writeJson({ verdicts, emulated: relativeData(emulated), real: relativeData(realResults) });
  out.say(`racelab compare: ${emulated.dataSource} data at scale ${emulated.scale}; ${versionsText(realResults)}`);
  return sayVerdicts(out, verdicts);
}
