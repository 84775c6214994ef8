'use client';
/**
 * "Race FIRST then SECOND": a lab race of the pair on the chosen table, its scale and its table
 * properties, SECOND changing the table only after FIRST has committed, so that it measures the order
 * the prediction is about. The browser follows the race on its page, as with every race started here.
 */
import { labLocation, type TableKind } from '../../lib/playground/lab-tables';
import { PAIR_RACE_RUNS, pairRaceInput, propertiesText } from '../../lib/playground/measured';
import type { RaceProperty } from '../../lib/races';
import { useStartRace } from '../races/use-start-race';
import { Failed } from '../states';

export function RacePairButton({
  kind,
  scale,
  firstKey,
  secondKey,
  tableProperties,
}: {
  kind: TableKind;
  scale: number;
  firstKey: string;
  secondKey: string;
  tableProperties: readonly RaceProperty[];
}) {
  const race = useStartRace();
  return (
    <div className="stack">
      <div>
        <button
          type="button"
          className="secondary"
          disabled={race.isPending}
          onClick={() => race.mutate(pairRaceInput(kind, scale, firstKey, secondKey, tableProperties))}
        >
          {race.isPending ? 'Starting…' : 'Race FIRST then SECOND'}
        </button>
      </div>
      <p className="muted" style={{ margin: 0 }}>
        {PAIR_RACE_RUNS} runs on a copy of {labLocation(kind, scale)} ({propertiesText(tableProperties)}): both open the
        same version, and SECOND starts its change only once FIRST has committed.
      </p>
      {race.error && <Failed error={race.error} />}
    </div>
  );
}
