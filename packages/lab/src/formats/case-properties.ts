/** A preset race with table properties of the user's: only a format that takes table properties accepts them. */
import { propertyProblems } from '@racelab/contracts';
import type { LabCase } from '../cases/catalog';
import { CaseInputError } from '../cases/custom';
import { formatOf } from './registry';

/** A preset with extra table properties (its own come first, the given ones win). */
export function withProperties(c: LabCase, properties: Record<string, string>): LabCase {
  if (Object.keys(properties).length === 0) return c;
  const problems = propertyProblems(properties);
  const format = formatOf(c);
  if (!format.takesTableProperties) problems.push(`${c.id} is not a Delta case: table properties do not apply`);
  if (problems.length > 0) throw new CaseInputError(problems);
  return { ...c, properties: { ...format.tableProperties(c), ...properties } } as LabCase;
}
