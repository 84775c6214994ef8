/** The one conflict simulation (pure, browser-safe): two writers on one snapshot, FIRST commits, SECOND's fate. */

export {
  type ConflictForecast,
  type ConflictInput,
  type EngineForecast,
  type Refusal,
  simulateConflict,
  type WriterForecast,
} from './conflict-forecast';
/** Many writers' commit loops, simulated: success per attempt, retry exhaustion and throughput (contention/). */
export {
  type CompactionForecast,
  type CompactionInput,
  type ContentionForecast,
  type ContentionInput,
  forecastCompaction,
  forecastContention,
} from './contention/contention-forecast';
export {
  FORECAST_RATE_TOLERANCE,
  FORECAST_SUCCESS_SLACK,
  type ForecastHold,
  forecastHold,
  wilsonInterval,
} from './contention/forecast-bounds';
export { simulateContention } from './contention/loop';
export {
  CONFLICT_REFUSAL,
  type CommitPath,
  type ContentionModel,
  type ContentionOutcome,
  type ContentionPolicy,
  type GroupOutcome,
  MAX_SIMULATED_ATTEMPTS_PER_COMMIT,
  STILL_TRYING,
  type WriterGroup,
} from './contention/model';
export {
  type ForecastPoint,
  forecastPoint,
  forecastSweep,
  latenciesAt,
  type SweepForecast,
  type SweepForecastInput,
  simulatePoint,
} from './contention/sweep-forecast';
export { ForecastError, type SimulatedWriter, type WriterChange, writerExpressionError } from './simulated-writer';
export { type AppendedFile, factsNeeded, type SimulationFacts, type TableSnapshot } from './simulation-facts';
export {
  engineNote,
  MODELLED_NOT_MEASURED,
  SPARK_MEASURED,
  SPARK_NOT_MEASURED,
  SPARK_RUN,
  sparkMeasurement,
} from './spark-measured';
