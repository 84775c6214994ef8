/** The one conflict simulation (pure, browser-safe): two writers on one snapshot, FIRST commits, SECOND's fate. */
export { type AppendedFile, factsNeeded, type SimulationFacts, type TableSnapshot } from './facts';
export {
  type ConflictForecast,
  type ConflictInput,
  type EngineForecast,
  MODELLED_NOT_MEASURED,
  type Refusal,
  simulateConflict,
  type WriterForecast,
} from './forecast';
export { ForecastError, type SimulatedWriter, type WriterChange, writerExpressionError } from './writers';
