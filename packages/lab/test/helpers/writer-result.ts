import type { WriterResult } from '../../src/results/types';

/** A writer's result with nothing remarkable in it: one attempt, no errors, no warnings; `fields` overrides. */
export const writerResult = (name: string, fields: Partial<WriterResult> = {}): WriterResult => ({
  name,
  operation: 'update',
  committed: true,
  version: null,
  attempts: 1,
  commitRetries: 0,
  attemptErrors: [],
  waitedOnLock: null,
  warnings: [],
  errorClass: null,
  errorMessage: null,
  ...fields,
});
