import type { WriterOutcome } from './messages';

/** A writer's outcome before it has done anything. */
export function emptyOutcome(observed?: Record<string, number>): WriterOutcome {
  return {
    committed: false,
    version: null,
    readVersion: null,
    attempts: 0,
    commitRetries: null,
    attemptErrors: [],
    errorClass: null,
    errorMessage: null,
    warnings: [],
    filesWritten: 0,
    bytesWritten: 0,
    ...(observed && Object.keys(observed).length > 0 && { observed }),
  };
}

export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
