/** The lesson's 22 cases in its order, then the lab's own suites (G1–G3), each with its writers and expected outcome. */
import { ambiguousCases } from './ambiguous';
import { appendCases } from './appends';
import type { CaseSpec } from './common';
import { compactionCases } from './compaction';
import { dailyCases } from './daily';
import { icebergCases } from './iceberg';
import { isolationCases } from './isolation';
import { postgresCases } from './postgres';
import { retryCases } from './retry';
import { updateCases } from './updates';

export type { CaseSpec, ExpectedVerdict } from './common';

export const CASE_SPECS: readonly CaseSpec[] = [
  ...appendCases,
  ...updateCases,
  ...compactionCases,
  ...isolationCases,
  ...retryCases,
  ...dailyCases,
  ...icebergCases,
  ...postgresCases,
  ...ambiguousCases,
];

export const CASE_IDS: readonly string[] = CASE_SPECS.map((s) => s.id);
