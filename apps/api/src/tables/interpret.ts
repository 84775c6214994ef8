/**
 * What each writer library makes of a `delta.isolationLevel` value, in the API's words: the library's
 * reading (the engine's kernel/conflict/isolation.ts) mapped onto the contract's PARSED / SILENTLY_IGNORED /
 * REJECTED outcomes and names. The contract calls the library's name `engine`; that public field keeps it.
 */
import { interpretIsolationLevel, type LibraryReading, type WriterLibrary } from '@racelab/engine';

export interface Interpretation {
  engine: string;
  outcome: 'PARSED' | 'SILENTLY_IGNORED' | 'REJECTED';
  effectiveLevel: string | null;
  message: string;
  flagged: boolean;
  suggestion: string | null;
  error: string | null;
}

/** The contract's names of the writer libraries. */
const LIBRARY_NAMES: Record<WriterLibrary, string> = {
  'delta-rs': 'delta-rs 1.2-1.6.x',
  'delta-rs-legacy': 'delta-rs 0.x-1.1.4',
  'delta-spark': 'Delta Spark',
  databricks: 'Databricks',
};

const OUTCOMES: Record<LibraryReading['status'], Interpretation['outcome']> = {
  parsed: 'PARSED',
  default: 'PARSED',
  ignored: 'SILENTLY_IGNORED',
  rejected: 'REJECTED',
  commitFails: 'REJECTED',
};

/** A writer library as the API names it. */
export const libraryName = (engine: WriterLibrary): string => LIBRARY_NAMES[engine];

/** One library's reading in the API's words. */
export function toInterpretation(r: LibraryReading): Interpretation {
  return {
    engine: LIBRARY_NAMES[r.library],
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
