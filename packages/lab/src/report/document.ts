/**
 * The project's cases document (docs/lab-cases.md) must only quote figures the results produce: every number
 * written with thousands separators (3,475,226) is looked up among the figures the checker derives from its own
 * recount. Only meaningful at scale 1, where the lesson's figures hold.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../build/repo-root';
import type { DocumentNumber, Figures, NamedFigure } from './expectations/types';

/** The repo's docs/lab-cases.md. */
export const DEFAULT_CASES_DOC = join(REPO_ROOT, 'docs/lab-cases.md');

/** Every figure the lesson quotes, from the checker's own counts and its arithmetic for each case. */
export function derivedFigures(f: Figures): NamedFigure[] {
  const v = (id: string) => f.byVendor[id] ?? 0;
  const J = f.january;
  const list: NamedFigure[] = [
    { value: J, name: 'January trips' },
    ...Object.keys(f.byVendor).map((id) => ({ value: v(id), name: `VendorID ${id} trips` })),
    { value: f.negativeFare, name: 'fare_amount < 0' },
    { value: f.zeroDistance, name: 'trip_distance = 0' },
    { value: f.both, name: 'both predicates' },
    { value: f.negativeFare + f.zeroDistance - f.both, name: 'either predicate' },
    { value: f.jan15, name: 'pickups on 2025-01-15' },
    { value: f.feb01, name: 'Feb 1 trips' },
    { value: f.feb02, name: 'Feb 2 trips' },
    { value: f.feb14, name: 'Feb 14 trips' },
    { value: J + f.feb01 + f.feb02, name: 'A1: January + Feb 1 + Feb 2' },
    { value: J + f.feb01, name: 'A2/I: January + Feb 1' },
    { value: J + f.feb02, name: 'A2: January + Feb 2' },
    { value: J - f.negativeFare, name: 'B2: January − fare deletes' },
    { value: J - f.zeroDistance, name: 'B2: January − distance deletes' },
    { value: v('1') + v('2'), name: 'B3: VendorID 1 + 2 trips' },
    { value: 2 * f.feb14, name: 'E1: Feb 14 twice' },
    { value: J + 2 * f.feb14, name: 'E1: January + Feb 14 twice' },
    { value: J + f.feb14, name: 'E2: January + Feb 14' },
    { value: f.jan15 + f.feb01 + f.feb02, name: 'F1: 2025-01-15 + Feb 1 + Feb 2' },
    { value: f.jan15 + f.feb01, name: 'F2: 2025-01-15 + Feb 1' },
    { value: f.jan15 + f.feb02, name: 'F2: 2025-01-15 + Feb 2' },
    { value: 2 * v('2'), name: 'P2: two +1 updates of every VendorID 2 trip' },
  ];
  return list;
}

/** Numbers of 4+ digits written with thousands separators ("3,475,226"), with their line. */
export function extractNumbers(text: string): DocumentNumber[] {
  const out: DocumentNumber[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d])(?!,\d)/g)) {
      out.push({ line: i + 1, text: m[0], value: Number(m[0].replaceAll(',', '')) });
    }
  });
  return out;
}

/** Mismatch lines for every number in `text` that is none of `figures`. */
export function checkDocument(
  text: string,
  figures: readonly NamedFigure[],
  label: string,
): { numbers: number; mismatches: string[] } {
  const known = new Set(figures.map((f) => f.value));
  const numbers = extractNumbers(text);
  const mismatches = numbers
    .filter((n) => !known.has(n.value))
    .map((n) => `${label} line ${n.line}: ${n.text} is not a figure the results produce`);
  if (numbers.length === 0) mismatches.push(`${label}: no figures found (expected the lesson's, like 3,475,226)`);
  return { numbers: numbers.length, mismatches };
}
