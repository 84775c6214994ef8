/**
 * The one spelling to write for each isolation level, and what an unset level means, judged for
 * every engine the API reads for: the engine's recommendSpelling and readUnset, in the API's words
 * (its engine names, its readings).
 */
import {
  describeUnset,
  ISOLATION_LEVELS,
  type IsolationLevel,
  readUnset,
  recommendSpelling,
  spellingAdvice,
  unsetFix,
  WRITER_LIBRARIES,
} from '@racelab/engine';
import { type Interpretation, interpret, libraryName, toInterpretation } from './interpret';

export interface SpellingShape {
  level: IsolationLevel;
  value: string | null;
  candidate: string;
  advice: string;
  readings: Interpretation[];
  readDifferentlyBy: string[];
}

export interface UnsetShape {
  defaults: Interpretation[];
  flagged: boolean;
  summary: string;
  fix: string | null;
}

export interface IsolationAdviceShape {
  spellings: SpellingShape[];
  unset: UnsetShape;
}

export function isolationAdvice(): IsolationAdviceShape {
  const unset = readUnset(WRITER_LIBRARIES);
  return {
    spellings: ISOLATION_LEVELS.map((level) => {
      const rec = recommendSpelling(level, WRITER_LIBRARIES);
      return {
        level,
        value: rec.value,
        candidate: rec.candidate,
        advice: spellingAdvice(rec, libraryName),
        readings: rec.readings.map(toInterpretation),
        readDifferentlyBy: rec.readDifferently.map(libraryName),
      };
    }),
    unset: {
      defaults: interpret(null),
      flagged: unset.flagged,
      summary: describeUnset(unset, libraryName),
      fix: unsetFix(unset),
    },
  };
}
