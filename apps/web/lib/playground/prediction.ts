/**
 * The playground's prediction, computed in the browser: the engine's one conflict simulation (`simulateConflict`
 * from `@racelab/engine/conflict`, the same the lab's forecasts and the API run), on facts taken from the
 * layout: the per-file match counts of each writer's predicate (never min/max alone) and the stats of the rows
 * each day's append would write.
 */
import {
  type ConflictForecast,
  type FileStats,
  type Protocol,
  parseStats,
  type SimulationFacts,
  type StructType,
  simulateConflict,
} from '@racelab/engine/conflict';
import { addsOf, type PlaygroundLayout, recordOf } from './lab-tables';
import { menuWriter, PlaygroundError, simulatedWriter } from './writer-menu';

/** Rows matching `predicate` per file path (files with none left out), from the layout's counts. */
export function matchesFor(layout: PlaygroundLayout, predicate: string): Map<string, number> {
  const at = layout.predicates.indexOf(predicate);
  if (at < 0) {
    throw new PlaygroundError(
      `the layout has no per-file counts for '${predicate}'; a prediction never guesses them from min/max`,
    );
  }
  const out = new Map<string, number>();
  for (const f of layout.files) {
    const n = f.matches?.[at];
    if (n === undefined) {
      throw new PlaygroundError(`file ${f.path} has no count for '${predicate}'; a prediction never guesses it`);
    }
    if (n > 0) out.set(f.path, n);
  }
  return out;
}

/** The layout as the simulation's facts: its snapshot, its per-file counts, its previews of each day's append. */
export function layoutFacts(layout: PlaygroundLayout): SimulationFacts {
  return {
    snapshot: {
      version: layout.version,
      files: addsOf(layout),
      protocol: JSON.parse(layout.protocol) as Protocol,
      schema: JSON.parse(layout.schema) as StructType,
      partitionColumns: layout.partitionColumns,
      configuration: recordOf(layout.configuration),
    },
    matches: (predicate) => matchesFor(layout, predicate),
    appended: (day) => {
      const preview = layout.appends.find((a) => a.day === day);
      if (!preview) throw new PlaygroundError(`the layout has no preview of appending ${day}`);
      return preview.files.map((f) => {
        const stats = parseStats(f.stats);
        return {
          partitionValues: recordOf(f.partitionValues),
          ...(typeof stats?.numRecords === 'number' && { stats: stats as FileStats }),
        };
      });
    },
  };
}

/** The engine's forecast, its writers named 'first' and 'second'. */
export type PlaygroundPrediction = ConflictForecast;

/** Both writers read the same snapshot; FIRST commits; does SECOND commit, and if not, why? */
export function predict(layout: PlaygroundLayout, firstKey: string, secondKey: string): PlaygroundPrediction {
  return simulateConflict({
    facts: layoutFacts(layout),
    first: simulatedWriter('first', menuWriter(firstKey)),
    second: simulatedWriter('second', menuWriter(secondKey)),
  });
}
