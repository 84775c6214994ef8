/**
 * The differential: a case's runs emulated (the engine) and real (the library itself) compared as the sets of
 * outcomes seen, up to renaming symmetric writers.
 */
export { attemptDifferences, timingAttemptWriters } from './attempts';
export { maskIds } from './mask';
export { canonicalObservation, canonicalShape, observe, type RunObservation } from './observation';
export { renamings, symmetricGroups } from './symmetry';
export { type CaseVerdict, compareCase, fieldDifferences } from './verdict';
