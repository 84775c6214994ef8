/** The checker's printout: the recount, one line per case (its mismatches under it), the document, a summary. */

import { plural } from '@racelab/contracts';
import type { Report } from './expectations/types';

const n = (x: number) => x.toLocaleString('en-US');

/** Equal lines counted, in the order they first appear. */
function tally(lines: readonly string[]): Map<string, number> {
  const counted = new Map<string, number>();
  for (const line of lines) counted.set(line, (counted.get(line) ?? 0) + 1);
  return counted;
}

export function formatReport(report: Report, file: string): string[] {
  const f = report.figures;
  const vendors = Object.entries(f.byVendor)
    .map(([v, k]) => `${v}: ${n(k)}`)
    .join(', ');
  const lines = [
    `lab:report ${file} (scale ${report.scale}, ${report.dataSource} data)`,
    `recount of ${report.dataDir}: January ${n(f.january)} trips (VendorID ${vendors}); fare_amount < 0: ${n(f.negativeFare)}; trip_distance = 0: ${n(f.zeroDistance)}; both: ${n(f.both)}; 2025-01-15: ${n(f.jan15)}; Feb 1 / 2 / 14: ${n(f.feb01)} / ${n(f.feb02)} / ${n(f.feb14)}`,
    `checked: ${report.checked.join(' ') || 'none'}; skipped (not in the file): ${report.skipped.join(' ') || 'none'}`,
  ];
  if (report.unknown.length) lines.push(`not lesson cases, not checked: ${report.unknown.join(' ')}`);
  if (report.deltaSpark?.length)
    lines.push(
      `run in Delta Spark, not held to the lesson's delta-rs expectations (lab compare --library delta-spark judges them): ${report.deltaSpark.join(' ')}`,
    );
  for (const k of report.cases) {
    // The verdict first ("data OK in 5 of 5"), then the case's own remarks.
    const verdicts = [...tally(k.verdicts)].map(([words, times]) => `; ${words} in ${times} of ${k.runs}`).join('');
    const remarks = [...tally(k.notes)].map(([note, times]) => `; ${note} (${times} of ${k.runs})`).join('');
    const runs = `${plural(k.runs, 'run')}${verdicts}${remarks}`;
    if (k.mismatches.length === 0) {
      lines.push(`✓ ${k.id}  ${runs}`);
    } else {
      lines.push(`✗ ${k.id}  ${runs}, ${plural(k.mismatches.length, 'mismatch', 'mismatches')}`);
      for (const m of k.mismatches) lines.push(`    ${m}`);
    }
  }
  const d = report.document;
  if (d.status === 'skipped') {
    lines.push(`- cases document not checked: ${d.reason}`);
  } else if (d.mismatches.length === 0) {
    lines.push(`✓ ${d.path}: all ${d.numbers} figures are ones the results produce`);
  } else {
    lines.push(`✗ ${d.path}: ${d.mismatches.length} of ${d.numbers} figures are not ones the results produce`);
    for (const m of d.mismatches) lines.push(`    ${m}`);
  }
  const bad = report.cases.filter((k) => k.mismatches.length > 0).length;
  lines.push(
    report.ok
      ? `OK: ${plural(report.cases.length, 'case')} checked, ${plural(
          report.cases.reduce((s, k) => s + k.runs, 0),
          'run',
        )}, no mismatch`
      : `MISMATCH: ${plural(report.mismatches, 'mismatch', 'mismatches')} (${bad} of ${plural(report.cases.length, 'case')}${d.status === 'checked' && d.mismatches.length ? ', and the cases document' : ''})`,
  );
  return lines;
}
