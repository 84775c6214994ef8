/** The one conflict simulation (pure, browser-safe): two writers on one snapshot, FIRST commits, SECOND's fate. */

export { nearestRank, quantilesOf } from '../statistics/quantiles';
export {
  type ConflictForecast,
  type ConflictInput,
  type EngineForecast,
  MODELLED_NOT_MEASURED,
  type Refusal,
  simulateConflict,
  type WriterForecast,
} from './conflict-forecast';
/** Many writers' commit loops, simulated: success per attempt, retry exhaustion and throughput (contention.ts). */
export {
  backoffPause,
  CONFLICT_REFUSAL,
  type CompactionForecast,
  type CompactionInput,
  type ContentionForecast,
  type ContentionInput,
  type ContentionModel,
  type ContentionOutcome,
  type ContentionPolicy,
  forecastCompaction,
  forecastContention,
  type GroupOutcome,
  MAX_SIMULATED_ATTEMPTS_PER_COMMIT,
  type Quantiles,
  quantileSampler,
  STILL_TRYING,
  seededRandom,
  simulateContention,
  type WriterGroup,
} from './contention';
export {
  type ForecastPoint,
  forecastPoint,
  forecastSweep,
  latenciesAt,
  type SweepForecast,
  type SweepForecastInput,
} from './contention-sweep';
export { type AppendedFile, factsNeeded, type SimulationFacts, type TableSnapshot } from './facts';
export { ForecastError, type SimulatedWriter, type WriterChange, writerExpressionError } from './writers';
