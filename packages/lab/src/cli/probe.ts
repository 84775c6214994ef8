/**
 * `npm run probe -- s3://bucket/prefix …` (PROBE_COMMAND is its help). Is this object store safe for concurrent Delta
 * writers? Runs the engine's store probe with the usual AWS environment (AWS_ENDPOINT_URL, AWS_REGION, credentials),
 * under a fresh sub-prefix of the given prefix that it removes afterwards (docs/s3.md). Progress goes to stderr, the
 * checks and the verdict to stdout, the whole report to FILE with --json (with `--json -` to stdout, the checks then to
 * stderr).
 *
 * Exit codes: 0 safe, 1 unsafe, 2 could not run (bad flags or location, no credentials, the store unreachable, the
 * bucket missing). A failure prints one line, never a stack trace. Ctrl-C stops the probe between calls and still
 * removes its objects.
 */
import { plural } from '@racelab/contracts';
import { PROBE_DEFAULTS, ProbeInputError, type ProbeReport, probeSettings, probeStore } from '@racelab/engine';
import {
  type CommandSpec,
  commandOutput,
  numberOption,
  readCommand,
  runCommand,
  UsageError,
  usageLine,
} from '../terminal/command-line';

const PROBE_COMMAND: CommandSpec = {
  usage: ['npm run probe -- s3://bucket/prefix [--json FILE|-] [--rounds R] [--writers N] [--read-after-write K]'],
  about:
    'Is this object store safe for concurrent Delta writers? Probes it under a fresh sub-prefix of the given one,\n' +
    'removed afterwards (AWS_ENDPOINT_URL, AWS_REGION and credentials from the environment; docs/s3.md).\n' +
    'Exit 0: safe; 1: unsafe; 2: could not run.',
  options: {
    '--rounds R': `rounds of writers racing for one key (default ${PROBE_DEFAULTS.rounds})`,
    '--writers N': `writers racing in each round (default ${PROBE_DEFAULTS.writers})`,
    '--read-after-write K': `new keys each listed and read right after its put (default ${PROBE_DEFAULTS.readAfterWrite})`,
    '--json FILE|-': 'the whole report as JSON to FILE, or to standard output with - (the checks then go to stderr)',
  },
  examples: [
    'npm run probe -- s3://my-bucket/some/prefix --rounds 200',
    'npm run -s probe -- s3://my-bucket/some/prefix --json - | jq .verdict',
  ],
};
const EXIT = { safe: 0, unsafe: 1, couldNotRun: 2 } as const;

const MARK = { passed: 'PASS', failed: 'FAIL', 'not-run': '----' } as const;

/** The report as a person reads it on a terminal; a probe that could not start is its one line. */
function toText(r: ProbeReport): string {
  if (r.checks.every((c) => c.outcome === 'not-run') && r.cleanup.leftover <= 0) return `${r.summary}\n`;
  const lines = [
    `${r.location} at ${r.endpoint}: ${plural(r.settings.rounds, 'round')} of ${r.settings.writers} writers, ${(r.durationMs / 1000).toFixed(1)} s`,
    '',
    ...r.checks.flatMap((c) => [`${MARK[c.outcome]}  ${c.title}`, `      ${c.detail}`]),
    '',
    'informational:',
    ...r.informational.map((c) => `  ${c.outcome.padEnd(13)} ${c.title}: ${c.detail}`),
    '',
    'latency (ms):       calls     p50     p99',
    ...r.latency.map(
      (l) =>
        `  ${l.call.padEnd(24)}${String(l.count).padStart(5)}${l.p50Ms.toFixed(1).padStart(8)}${l.p99Ms.toFixed(1).padStart(8)}`,
    ),
    '',
    r.cleanup.leftover === 0
      ? `cleaned up: ${plural(r.cleanup.removed, 'object')} removed, nothing left under ${r.scratch}`
      : `CLEAN-UP INCOMPLETE under ${r.scratch}: ${r.cleanup.error ?? `${plural(r.cleanup.leftover, 'object')} left`}`,
    '',
    r.summary,
  ];
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, options } = readCommand(argv, PROBE_COMMAND);
  const [location] = positionals;
  if (location === undefined || positionals.length > 1) throw new UsageError(usageLine(PROBE_COMMAND));
  const numbers = {
    rounds: numberOption(options, 'rounds') ?? PROBE_DEFAULTS.rounds,
    writers: numberOption(options, 'writers') ?? PROBE_DEFAULTS.writers,
    readAfterWrite: numberOption(options, 'read-after-write') ?? PROBE_DEFAULTS.readAfterWrite,
  };
  // Refused here, before a request or a Ctrl-C handler exists.
  probeSettings(location, numbers);
  const out = commandOutput(options.json);

  const stop = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('probe: stopping; removing its objects\n');
    stop.abort();
  });
  const report = await probeStore(location, {
    ...numbers,
    signal: stop.signal,
    onProgress: (line) => process.stderr.write(`probe: ${line}\n`),
  });
  out.text.write(toText(report));
  await out.writeJson(report);
  return report.verdict === 'safe' ? EXIT.safe : report.verdict === 'unsafe' ? EXIT.unsafe : EXIT.couldNotRun;
}

/** One line: a bad flag or location, or what stopped the probe. */
function failure(error: unknown): number {
  const e = error instanceof Error ? error : new Error(String(error));
  const reason = e.message.split('\n')[0]?.trim() || 'no reason given';
  const known = e instanceof UsageError || e instanceof ProbeInputError;
  console.error(known ? `probe: ${reason}` : `probe: could not run: ${e.name}: ${reason}`);
  return EXIT.couldNotRun;
}

await runCommand(main, failure);
