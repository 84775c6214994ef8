/**
 * `npm run lab -- sweep …` (SWEEP_COMMAND is its help): N writers × K commits under a retry policy. The input is
 * checked against the bounds before any work (every problem, exit 2), and its duration estimated as the API
 * estimates it (printed first): above the limit (LAB_MAX_WORK_MINUTES, 30 minutes by default; --max-minutes
 * at one's own terminal goes beyond it) it is refused, exit 2, and a sweep still running at the limit is stopped.
 * Then a progress bar, and a table of each point's figures, with the forecast's beside them. A scenario
 * (--scenario) fixes the writers, commits and operation; --policies runs the sweep once per policy, one after the
 * other (each estimated and held to the limit), and prints them side by side.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  checkSweepInput,
  durationText,
  estimateSweep,
  plural,
  RETRY_POLICIES,
  type RetryPolicy,
  type StartSweepInput,
  SWEEP_SCENARIO_NAMES,
  type SweepInput,
  type SweepResults,
  workLimitOf,
  workRefusal,
} from '@racelab/contracts';
import { RaceCancelledError } from '../runner/race';
import {
  comparisonTable,
  POLICY_SPELLINGS,
  type PolicyRun,
  policySpelling,
  runSweep,
  SweepInputError,
  spelledPolicy,
  sweepTable,
} from '../sweep/index';
import { type CommandOutput, type CommandSpec, commandOutput, readCommand, UsageError } from '../terminal/command-line';
import { progressBar } from '../terminal/progress-board';
import { REPO, workDirOption } from './args';

const SWEEP_COMMAND: CommandSpec = {
  usage: [
    'npm run lab -- sweep --writers N,… --commits K --op OPERATION [--policy NAME] [--json FILE|-] [options]',
    'npm run lab -- sweep --scenario NAME [--policy NAME | --policies NAME,…] [options]',
  ],
  about:
    "Runs N writer processes × K commits each under a retry policy for every N, and prints each point's figures\n" +
    "beside the forecast's. The duration is estimated first; above the limit the sweep is refused (exit 2).",
  options: {
    '--writers N,…': 'the writer counts, one point each (e.g. 1,2,4,8)',
    '--commits K': 'commits per writer',
    '--op OPERATION': 'append-row, append-day, update-disjoint, update-overlap or compaction',
    '--scenario NAME': `a setting that fixes writers, commits and op: ${SWEEP_SCENARIO_NAMES.join(', ')}`,
    '--policy NAME': `the retry policy: ${POLICY_SPELLINGS}; or custom`,
    '--policies NAME,…': 'one sweep per policy (spelled as --policy), then a table of them side by side',
    '--max-commit-retries X': "the policy's commit retries (makes it custom)",
    '--app-tries Y': "the policy's application tries (makes it custom)",
    '--backoff-base-ms B': "the policy's backoff base (makes it custom)",
    '--backoff-cap-ms C': "the policy's backoff cap (makes it custom)",
    '--jitter full': "the policy's backoff jitter (makes it custom)",
    '--append-rate R': 'with compaction: appends per second beside it',
    '--seed S': 'the schedule seed',
    '--table-format delta|iceberg': 'the table format (default delta); iceberg takes --op append-row only',
    '--catalog sqlite|postgres': 'iceberg: the SQL catalog (default sqlite; postgres is refused: not supported yet)',
    '--json FILE|-': 'the results as JSON to FILE, or to standard output with - (the report then goes to stderr)',
    '--work-dir DIR': 'where the sweep tables live (LAB_WORK_DIR, default var/lab)',
    '--table-root s3://…': 'sweep tables on S3 (endpoint and keys from the AWS environment)',
    '--keep-tables': 'keep the tables afterwards',
    '--max-minutes M': 'the limit above which it is refused or stopped (LAB_MAX_WORK_MINUTES, default 30)',
  },
  examples: [
    'npm run lab -- sweep --writers 1,2,4,8 --commits 10 --op append-row --policy delta-rs',
    'npm run -s lab -- sweep --writers 2,4 --commits 5 --op update-overlap --json - | jq .points',
    'npm run lab -- sweep --scenario delta-rs-3736 --policies none,delta-rs,delta-rs:50,backoff-jitter',
    'npm run lab -- sweep --table-format iceberg --writers 2,4,8 --commits 5 --op append-row --policy none',
  ],
};
const POLICY_NUMBERS = ['max-commit-retries', 'app-tries', 'backoff-base-ms', 'backoff-cap-ms', 'jitter'];

/** A number as typed; text that is no number stays NaN, which the input's check names with its field. */
const num = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * The policy the options give: a preset's name, or (when any number is given) `custom` from the named preset's
 * numbers (delta-rs's by default) with the given ones in place.
 */
function policyOf(options: Record<string, string>): StartSweepInput['policy'] {
  const named = options.policy;
  if (!POLICY_NUMBERS.some((o) => options[o] !== undefined)) {
    // A preset goes by name (the input's check names a wrong one); another spelling as its numbers.
    const spelled = named === undefined || Object.hasOwn(RETRY_POLICIES, named) ? undefined : spelledPolicy(named);
    return spelled ?? (named as StartSweepInput['policy']);
  }
  const from: RetryPolicy =
    named !== undefined && Object.hasOwn(RETRY_POLICIES, named)
      ? RETRY_POLICIES[named as keyof typeof RETRY_POLICIES]
      : RETRY_POLICIES['delta-rs'];
  if (named !== undefined && named !== 'custom' && !Object.hasOwn(RETRY_POLICIES, named)) {
    throw new UsageError(`--policy must be one of ${Object.keys(RETRY_POLICIES).join(', ')} or custom, got '${named}'`);
  }
  const backoffGiven = ['backoff-base-ms', 'backoff-cap-ms', 'jitter'].some((o) => options[o] !== undefined);
  const base = options['backoff-base-ms'];
  const cap = options['backoff-cap-ms'];
  return {
    name: 'custom',
    maxCommitRetries:
      options['max-commit-retries'] !== undefined ? num(options['max-commit-retries']) : from.maxCommitRetries,
    appTries: options['app-tries'] !== undefined ? num(options['app-tries']) : from.appTries,
    backoff: backoffGiven
      ? {
          baseMs: base !== undefined ? num(base) : (from.backoff?.baseMs ?? 100),
          capMs: cap !== undefined ? num(cap) : (from.backoff?.capMs ?? 60_000),
          jitter: (options.jitter ?? from.backoff?.jitter ?? 'full') as 'full',
        }
      : from.backoff,
  };
}

/** `--table-format` and `--catalog` as the input's fields (`--format` is a report's output format elsewhere). */
const tableFormatOf = (options: Record<string, string>) => ({
  ...(options['table-format'] !== undefined && { tableFormat: options['table-format'] }),
  ...(options.catalog !== undefined && { catalog: options.catalog }),
});

/** The sweep input the options give (unchecked: runSweep checks it against the bounds first). */
export function sweepInputOf(options: Record<string, string>): StartSweepInput {
  const input: Record<string, unknown> = { operation: options.op };
  if (options.scenario !== undefined) input.scenario = options.scenario;
  if (options.writers !== undefined) input.writers = options.writers.split(',').map(num);
  if (options.commits !== undefined) input.commitsPerWriter = num(options.commits);
  if (options['append-rate'] !== undefined) input.appendRatePerSec = num(options['append-rate']);
  if (options.seed !== undefined) input.seed = num(options.seed);
  const policy = policyOf(options);
  if (policy !== undefined) input.policy = policy;
  Object.assign(input, tableFormatOf(options));
  if (options.op === undefined && options.scenario === undefined)
    throw new UsageError(
      `sweep needs --op (append-row, append-day, update-disjoint, update-overlap, compaction) or --scenario (${SWEEP_SCENARIO_NAMES.join(', ')})`,
    );
  return input as StartSweepInput;
}

/** The limit: --max-minutes when given, else LAB_MAX_WORK_MINUTES, else 30 minutes. */
function limitOf(options: Record<string, string>): { minutes: number; by: string } {
  const [text, by] =
    options['max-minutes'] !== undefined
      ? [options['max-minutes'], '--max-minutes']
      : [process.env.LAB_MAX_WORK_MINUTES, 'LAB_MAX_WORK_MINUTES'];
  try {
    return { minutes: workLimitOf(text, by), by };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The sweep's estimate, printed; refused (exit 2) above the limit. */
function estimated(
  input: SweepInput,
  options: Record<string, string>,
  limit: { minutes: number; by: string },
  out: CommandOutput,
) {
  const estimate = estimateSweep(input, {
    store: options['table-root'] ? 's3' : 'local',
    cores: availableParallelism(),
  });
  const refused = workRefusal('sweep', estimate, limit.minutes);
  if (refused !== null) {
    throw new SweepInputError([`${refused.message}. At your own terminal, --max-minutes M goes beyond it`]);
  }
  out.say(
    `estimate: about ${durationText(estimate.minutes * 60_000)} (${estimate.field} drives it: ${estimate.why}); stopped at ${limit.minutes} min (${limit.by})\n`,
  );
}

/**
 * The sweeps the options ask for: one, or with --policies one per policy (each spelled as --policy), labelled as
 * spelled. --policies with --policy or a policy number is refused: which would apply is not for the CLI to guess.
 */
function sweepsOf(options: Record<string, string>): { label: string; input: StartSweepInput }[] {
  const input = sweepInputOf(options);
  if (options.policies === undefined) return [{ label: options.policy ?? 'delta-rs', input }];
  const given = ['policy', ...POLICY_NUMBERS].filter((o) => options[o] !== undefined);
  if (given.length > 0) throw new UsageError(`--policies names every policy: leave out --${given.join(', --')}`);
  return options.policies.split(',').map((label) => {
    const policy = spelledPolicy(label);
    if (!policy) throw new UsageError(`--policies: '${label}' is no policy; spell each as ${POLICY_SPELLINGS}`);
    return { label: label.trim(), input: { ...input, policy } };
  });
}

/** One sweep run to its end, or stopped at the limit. */
async function runOne(
  input: StartSweepInput,
  options: Record<string, string>,
  flags: Set<string>,
  limit: { minutes: number; by: string },
): Promise<SweepResults> {
  // The deadline is the guarantee: a sweep that overruns its estimate stops at the limit all the same.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limit.minutes * 60_000);
  const bar = progressBar();
  const results = await runSweep(input, {
    workDir: workDirOption(options),
    signal: deadline.signal,
    ...(options['table-root'] && { tableRoot: options['table-root'] }),
    ...(flags.has('keep-tables') && { keepTables: true }),
    onProgress: (p) => {
      if (p.kind === 'point-start')
        bar.note(`N=${p.writers}: starting ${plural(p.writers, 'writer process', 'writer processes')}…`);
      // Every commit on a terminal (redrawn in place); in a log, a line per twentieth of the sweep.
      else if (process.stderr.isTTY || p.done === p.total || p.done % Math.ceil(p.total / 20) === 0) {
        bar.update(p.done, p.total, `N=${p.writers}`);
      }
    },
  })
    .catch((e: unknown) => {
      if (e instanceof RaceCancelledError && deadline.signal.aborted) {
        throw new Error(
          `stopped at the ${limit.minutes}-minute limit (${limit.by}); the sweep's writer processes were killed`,
        );
      }
      throw e;
    })
    .finally(() => clearTimeout(timer));
  bar.end();
  return results;
}

/** A sweep's own report: its setting, the table of its points, the forecast's. */
function report(results: SweepResults, out: CommandOutput) {
  const { policy, scenario } = results.input;
  out.say(
    `sweep: ${scenario ? `scenario ${scenario}, ` : ''}${results.input.tableFormat === 'iceberg' ? `Iceberg (${results.input.catalog} catalog) ` : ''}${results.input.operation}, K=${results.input.commitsPerWriter}, policy ${policySpelling(policy)} (maxCommitRetries ${policy.maxCommitRetries}, appTries ${policy.appTries}, backoff ${policy.backoff ? `${policy.backoff.baseMs}-${policy.backoff.capMs} ms ${policy.backoff.jitter} jitter` : 'none'}), ${results.store} tables, ${results.machine.cores} cores\n`,
  );
  out.say(sweepTable(results));
  if (!results.forecast) out.say('forecast: none (the engine exports no forecastSweep)');
}

export async function sweepCommand(argv: string[]): Promise<number> {
  const { positionals, options, flags } = readCommand(argv, SWEEP_COMMAND);
  const out = commandOutput(options.json);
  process.env.RACELAB_CACHE_DIR ||= join(REPO, 'var/cache');
  if (positionals.length > 0) throw new UsageError(`sweep takes options only, got '${positionals[0]}'`);
  const sweeps = sweepsOf(options);
  const checked = sweeps.map(({ input }) => checkSweepInput(input));
  const problems = [...new Set(checked.flatMap((c) => (c.ok ? [] : c.problems)))];
  if (problems.length > 0) throw new SweepInputError(problems);
  const limit = limitOf(options);
  for (const c of checked) if (c.ok) estimated(c.value, options, limit, out);
  const runs: PolicyRun[] = [];
  for (const { label, input } of sweeps) {
    const results = await runOne(input, options, flags, limit);
    runs.push({ label, results });
    if (sweeps.length > 1) out.say(`\n${label}:`);
    report(results, out);
  }
  // One sweep's results file as ever; several policies' as a list of them, in the order given.
  await out.writeJson(runs.length === 1 ? runs[0]?.results : runs.map((r) => r.results));
  if (runs.length > 1)
    out.say(`\npolicies side by side (dropped: commits that failed after every retry):\n${comparisonTable(runs)}`);
  if (out.jsonFile !== undefined) out.say(`\nresults written to ${out.jsonFile}`);
  return 0;
}

/** Exit 2 for what the user can fix (every problem listed), 1 otherwise. */
export function sweepFailure(e: unknown): number {
  if (e instanceof SweepInputError) {
    process.stderr.write(`\nlab sweep: refused:\n${e.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 2;
  }
  process.stderr.write(`\nlab sweep: ${e instanceof Error ? e.message : String(e)}\n`);
  return e instanceof UsageError ? 2 : 1;
}
