/** The report checker: recount the data, check every stored run of every lesson case, check the cases document. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LabResults } from '../results/types';
import { checkDocument, DEFAULT_CASES_DOC, derivedFigures } from './document';
import { checkEveryRun } from './every-run-rules';
import { CASE_SPECS } from './expectations/index';
import { RunCheck } from './expectations/run-check';
import {
  type CaseReport,
  type CheckOptions,
  type DocumentReport,
  type Figures,
  type Report,
  UnusableInputError,
} from './expectations/types';
import { recount } from './recount';
import { checkVerdict, verdictLine } from './verdict-check';

/** A case whose runs' writers ran in the real Delta Spark. */
const ranDeltaSpark = (c: LabResults['cases'][number]) =>
  c.runs.some((r) => r.writers.some((w) => w.library === 'delta-spark'));

function checkCases(
  results: LabResults,
  figures: Figures,
): Pick<Report, 'cases' | 'checked' | 'skipped' | 'unknown' | 'deltaSpark'> {
  const cases: CaseReport[] = [];
  const checked: string[] = [];
  const skipped: string[] = [];
  const deltaSpark: string[] = [];
  for (const spec of CASE_SPECS) {
    const entries = results.cases.filter((k) => k.id === spec.id);
    if (entries.length === 0) {
      if (spec.suite === undefined) skipped.push(spec.id);
      continue;
    }
    if (entries.some(ranDeltaSpark)) {
      deltaSpark.push(spec.id);
      continue;
    }
    checked.push(spec.id);
    const report: CaseReport = { id: spec.id, runs: 0, mismatches: [], notes: [], verdicts: [] };
    if (entries.length > 1) report.mismatches.push(`${spec.id}: listed ${entries.length} times in the file`);
    const runs = entries.flatMap((k) => k.runs);
    if (runs.length === 0) report.mismatches.push(`${spec.id}: no runs stored`);
    const indexes = runs.map((r) => r.index);
    const repeated = [...new Set(indexes.filter((n, i) => indexes.indexOf(n) !== i))];
    if (repeated.length) report.mismatches.push(`${spec.id}: run index ${repeated.join(', ')} stored twice`);
    for (const run of runs) {
      const c = new RunCheck(spec.id, run, figures);
      checkEveryRun(c, spec);
      spec.check(c);
      checkVerdict(c, spec);
      report.verdicts.push(verdictLine(c));
      report.mismatches.push(...c.mismatches);
      report.notes.push(...c.notes);
    }
    report.runs = runs.length;
    cases.push(report);
  }
  const ids = new Set(CASE_SPECS.map((s) => s.id));
  const unknown = [...new Set(results.cases.map((k) => k.id).filter((id) => !ids.has(id)))];
  return { cases, checked, skipped, unknown, ...(deltaSpark.length > 0 && { deltaSpark }) };
}

async function checkCasesDocument(results: LabResults, figures: Figures, path: string): Promise<DocumentReport> {
  if (results.scale !== 1) {
    return { status: 'skipped', reason: `results at scale ${results.scale}; the document quotes scale 1` };
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UnusableInputError(`cannot read the cases document ${path}${code ? ` (${code})` : ''}`);
  }
  const { numbers, mismatches } = checkDocument(text, derivedFigures(figures), path);
  return { status: 'checked', path, numbers, mismatches };
}

/**
 * Checks a results file (already validated, e.g. by `validateResults`) against the checker's own recount of
 * `results.dataDir`. Throws UnusableInputError when the data set or the cases document cannot be read, or when
 * the file holds cases but none of the lesson's (a race on a table of one's own: no data set was prepared for it).
 */
export async function checkResults(results: LabResults, opts: CheckOptions = {}): Promise<Report> {
  const lesson = new Set(CASE_SPECS.map((s) => s.id));
  if (results.cases.length > 0 && !results.cases.some((k) => lesson.has(k.id))) {
    const ids = [...new Set(results.cases.map((k) => k.id))].join(', ');
    throw new UnusableInputError(
      `no case of the lesson's in the file (only ${ids}): the checker checks the lesson's cases against their data set`,
    );
  }
  const dataDir = resolve(opts.baseDir ?? process.cwd(), results.dataDir);
  const figures = await recount(dataDir);
  const cases = checkCases(results, figures);
  const document = await checkCasesDocument(results, figures, opts.casesDoc ?? DEFAULT_CASES_DOC);
  const mismatches =
    cases.cases.reduce((n, k) => n + k.mismatches.length, 0) +
    (document.status === 'checked' ? document.mismatches.length : 0);
  return {
    scale: results.scale,
    dataSource: results.dataSource,
    dataDir,
    figures,
    ...cases,
    document,
    mismatches,
    ok: mismatches === 0,
  };
}
