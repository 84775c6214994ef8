/**
 * How `npm run lab` and `npm run lab -- compare` end on an error: exit 2 for a refused race or what the user can
 * fix (every problem listed), 1 otherwise.
 */
import { CaseInputError } from '../cases/custom';
import { RealRunRefusedError } from '../real/refusals';
import { CopyRefusedError } from '../tables/copy-refusals';

/** Exit 2 for a refused race or what the user can fix (every problem listed), 1 otherwise. */
export function labFailure(e: unknown): number {
  if (e instanceof CaseInputError || e instanceof CopyRefusedError || e instanceof RealRunRefusedError) {
    process.stderr.write(`\nlab: the race was refused:\n${e.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 2;
  }
  process.stderr.write(`\nlab: ${e instanceof Error ? e.message : String(e)}\n`);
  return e instanceof Error &&
    [
      'UsageError',
      'LabInputError',
      'UnknownCaseError',
      'StoreNeededError',
      'DatasetError',
      'PythonSideMissingError',
    ].includes(e.name)
    ? 2
    : 1;
}
