/**
 * What each engine makes of a `delta.isolationLevel` value, in the API's words: the engine's own
 * reading (packages/engine isolation.ts) mapped onto the contract's PARSED / SILENTLY_IGNORED /
 * REJECTED outcomes and engine names.
 */
import { type EngineId, type EngineReading, interpretIsolationLevel } from '@racelab/engine';

export interface Interpretation {
  engine: string;
  outcome: 'PARSED' | 'SILENTLY_IGNORED' | 'REJECTED';
  effectiveLevel: string | null;
  message: string;
  flagged: boolean;
  suggestion: string | null;
  error: string | null;
}

/** The contract's engine names; engines it does not list keep the engine's own label. */
const ENGINE_NAMES: Record<EngineId, string> = {
  'delta-rs': 'delta-rs 1.2-1.6.x',
  'delta-rs-legacy': 'delta-rs 0.x-1.1.4',
  'delta-spark': 'Delta Spark',
  databricks: 'Databricks',
};

const OUTCOMES: Record<EngineReading['status'], Interpretation['outcome']> = {
  parsed: 'PARSED',
  default: 'PARSED',
  ignored: 'SILENTLY_IGNORED',
  rejected: 'REJECTED',
  commitFails: 'REJECTED',
};

/** An engine as the API names it. */
export const engineName = (engine: EngineId): string => ENGINE_NAMES[engine];

/** One engine's reading in the API's words. */
export function toInterpretation(r: EngineReading): Interpretation {
  return {
    engine: ENGINE_NAMES[r.engine],
    outcome: OUTCOMES[r.status],
    effectiveLevel: r.effective,
    message: r.explanation,
    flagged: r.flagged,
    suggestion: r.suggestion ?? null,
    error: r.error ?? null,
  };
}

export function interpret(value: string | null): Interpretation[] {
  return interpretIsolationLevel(value).map(toInterpretation);
}
