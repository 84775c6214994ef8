/**
 * The one spelling to write for each isolation level, and what an unset level means, judged for
 * every engine the API reads for: the engine's recommendSpelling and readUnset, in the API's words
 * (its engine names, its readings).
 */
import {
  describeUnset,
  ENGINE_IDS,
  ISOLATION_LEVELS,
  type IsolationLevel,
  readUnset,
  recommendSpelling,
  spellingAdvice,
  unsetFix,
} from '@racelab/engine';
import { engineName, type Interpretation, interpret, toInterpretation } from './interpret';

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
  const unset = readUnset(ENGINE_IDS);
  return {
    spellings: ISOLATION_LEVELS.map((level) => {
      const rec = recommendSpelling(level, ENGINE_IDS);
      return {
        level,
        value: rec.value,
        candidate: rec.candidate,
        advice: spellingAdvice(rec, engineName),
        readings: rec.readings.map(toInterpretation),
        readDifferentlyBy: rec.readDifferently.map(engineName),
      };
    }),
    unset: {
      defaults: interpret(null),
      flagged: unset.flagged,
      summary: describeUnset(unset, engineName),
      fix: unsetFix(unset),
    },
  };
}
