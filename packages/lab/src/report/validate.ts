/**
 * A results file read for the report checker: the contract's schema (@racelab/contracts, generated into
 * contracts/lab-results.schema.json) checks it, and a bad file is refused with every problem on one line each,
 * e.g. "FILE: cases[2].runs[0].writers[1].committed must be a boolean". Optional lists and maps the file
 * leaves out read as empty.
 */
import { type LabResults as ContractResults, checkLabResults } from '@racelab/contracts';
import type { LabResults } from '../results/types';
import { UnusableInputError } from './expectations/types';

/** The lab's results types and the contract's schema describe one file: each must be the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const resultsTypesMatchTheContract: Same<LabResults, ContractResults> = true;
void resultsTypesMatchTheContract;

export function validateResults(json: unknown, label: string): LabResults {
  const checked = checkLabResults(json, label);
  if (!checked.ok) throw new UnusableInputError(checked.problems.join('; '));
  return checked.value;
}
