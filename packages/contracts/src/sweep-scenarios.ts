/**
 * A sweep's scenarios: a named setting that fixes the writers, the commits per writer and the operation, so a
 * published report can be run as it was described; the retry policy stays the sweep's own. A scenario given with
 * one of those fields is refused when the field says otherwise (the same value is accepted), every field at once.
 */

/** The fields a scenario fixes, as a sweep's input names them. */
export interface SweepScenario {
  writers: readonly number[];
  commitsPerWriter: number;
  operation: 'append-row';
  /** What the scenario reproduces, in a sentence. */
  about: string;
}

export const SWEEP_SCENARIOS = {
  'delta-rs-3736': {
    writers: [10],
    commitsPerWriter: 50,
    operation: 'append-row',
    about:
      'a delta-rs user reported 142 of 2,000 one-row appends dropped by 10 concurrent writers on the default retries; 10 appenders x 50 commits',
  },
} as const satisfies Record<string, SweepScenario>;

export type SweepScenarioName = keyof typeof SWEEP_SCENARIOS;
export const SWEEP_SCENARIO_NAMES = Object.keys(SWEEP_SCENARIOS) as SweepScenarioName[];

const FIXED = ['writers', 'commitsPerWriter', 'operation'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The input with its scenario's fields filled in, and a problem for each field given otherwise. An input without a
 * known scenario is returned as it is (the schema names an unknown scenario).
 */
export function withScenario(input: unknown): { input: unknown; problems: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { input, problems: [] };
  const given = input as Record<string, unknown>;
  const name = given.scenario;
  if (typeof name !== 'string' || !Object.hasOwn(SWEEP_SCENARIOS, name)) return { input, problems: [] };
  const scenario: SweepScenario = SWEEP_SCENARIOS[name as SweepScenarioName];
  const fixed = FIXED.map((f) => `${f} ${JSON.stringify(scenario[f])}`).join(', ');
  const problems = FIXED.filter((f) => given[f] != null && !same(given[f], scenario[f])).map(
    (f) =>
      `scenario ${name} fixes ${fixed}: ${f} ${JSON.stringify(given[f])} conflicts with it (leave it out, or run without the scenario)`,
  );
  return {
    input: {
      ...given,
      writers: [...scenario.writers],
      commitsPerWriter: scenario.commitsPerWriter,
      operation: scenario.operation,
    },
    problems,
  };
}
