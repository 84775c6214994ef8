/**
 * What the lab measured for a pair of menu writers (the measuredOutcome query and its one-line summary), and
 * the race that measures the pair in the predicted order.
 */
import { graphql, type ResultOf } from '../gql';
import { type RaceProperty, type StartRaceInput, settableProperties } from '../races';
import type { TableKind, TableLayout } from './lab-tables';
import { writerInput } from './writer-menu';

export const MEASURED_QUERY = graphql(`query PlaygroundMeasured(
  $table: String!, $first: WriterInput!, $second: WriterInput!, $tableProperties: [KeyValueInput!]
) {
  measuredOutcome(table: $table, first: $first, second: $second, tableProperties: $tableProperties) {
    runs caseIds neitherCommitted
    inOrder { runs firstCommitted secondCommitted secondNothingToCommit messages }
    otherOrder { runs }
  }
}`);

/**
 * The table properties of the layout that a race can set. A race's copy inherits them from the base table
 * anyway; naming them makes the race say what it ran under and the measured outcome count only such races.
 */
export const raceProperties = (layout: Pick<TableLayout, 'configuration'>): RaceProperty[] =>
  settableProperties(layout.configuration);

/** "delta.isolationLevel = Serializable", or "no table property". */
export const propertiesText = (properties: readonly RaceProperty[]): string =>
  properties.length === 0 ? 'no table property' : properties.map((p) => `${p.key} = ${p.value}`).join(', ');

export function measuredVariables(
  kind: TableKind,
  firstKey: string,
  secondKey: string,
  tableProperties: readonly RaceProperty[],
) {
  return {
    table: kind,
    first: writerInput(firstKey, 'first'),
    second: writerInput(secondKey, 'second'),
    tableProperties: [...tableProperties],
  };
}

export type Measured = ResultOf<typeof MEASURED_QUERY>['measuredOutcome'];

const runCount = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/**
 * What SECOND (and FIRST, when it did not always commit) did in the runs of one order; a run in which SECOND had
 * nothing to commit is no failure.
 */
function fates(o: Measured['inOrder']): string {
  const idle = o.secondNothingToCommit;
  const failed = o.runs - o.secondCommitted - idle;
  const said = [
    o.secondCommitted > 0 && `committed in ${o.secondCommitted}`,
    failed > 0 && `failed in ${failed}`,
    idle > 0 && `had nothing to commit in ${idle}`,
  ].filter((p): p is string => typeof p === 'string');
  const second = `SECOND ${said.length > 0 ? said.join(', ') : `committed in ${o.secondCommitted}`}`;
  return o.firstCommitted < o.runs ? `${second}; FIRST committed in only ${o.firstCommitted}` : second;
}

/**
 * "B1: 3 runs in this order: SECOND failed in 3; 2 more ran the other way", or null when the lab has not run
 * the pair. Only the runs in which FIRST went first compare with the prediction; the others are only counted.
 */
export function measuredSummary(m: Measured): string | null {
  if (m.runs === 0) return null;
  const cases = m.caseIds.length > 0 ? m.caseIds.join(', ') : 'custom races';
  const o = m.inOrder;
  const parts = [o.runs === 0 ? 'no run in this order' : `${runCount(o.runs)} in this order: ${fates(o)}`];
  if (m.otherOrder.runs > 0) parts.push(`${m.otherOrder.runs} ${o.runs === 0 ? '' : 'more '}ran the other way`);
  if (m.neitherCommitted > 0) parts.push(`in ${m.neitherCommitted} more neither committed`);
  return `${cases}: ${parts.join('; ')}`;
}

/** Runs of the race the playground starts for a pair: enough to see a pattern, short at a small scale. */
export const PAIR_RACE_RUNS = 3;

/**
 * startRace's input for "FIRST, then SECOND": both open the chosen table at the chosen scale, and SECOND
 * changes it only once FIRST has committed, so every run measures the order the prediction is about.
 */
export function pairRaceInput(
  kind: TableKind,
  scale: number,
  firstKey: string,
  secondKey: string,
  tableProperties: readonly RaceProperty[],
): StartRaceInput {
  const first = writerInput(firstKey, 'first');
  return {
    table: kind,
    scale,
    runs: PAIR_RACE_RUNS,
    tableProperties: [...tableProperties],
    writers: [first, { ...writerInput(secondKey, 'second'), startAfter: first.name }],
  };
}
