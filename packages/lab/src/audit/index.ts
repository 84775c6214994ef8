/**
 * Auditing a jobs manifest: the rules over the jobs, the file overlaps and the pairwise conflict
 * forecast from each table's data, and the schedules of the pairs that forecast fails. Nothing about
 * one table stops the audit: a table that cannot be resolved, opened or read is a table-unreadable
 * finding on its jobs (open-tables.ts), and every other table is audited; one read past an unreadable
 * checkpoint is audited too, with a checkpoint-skipped warning. A predicate that cannot
 * run on its table is a problem of the manifest (stage 2 of its check): the audit then throws one
 * ManifestError listing every such problem, as reading the manifest does for its fields, and so does a job whose
 * `code` is not there. A job's code, when the manifest's folder is known, fills the settings the job leaves out and
 * raises code-drift where the manifest says otherwise (job-code.ts).
 * The pairwise checks spend fixed budgets (limits.ts); what they left out is in `skipped`. Jobs that state a commit
 * rate are forecast per table by the contention model (contention.ts), refined by the pair forecasts. Beside the
 * forecast, each readable table's recent log says what really happened (history-evidence.ts).
 */
import type { DeltaTable } from '@racelab/engine';
import type { LocationConfig } from '../tables/locations';
import { contentionFindings } from './contention-findings';
import { historyEvidence } from './history-evidence';
import { jobsWithCode } from './job-code';
import { auditBudgets, type SkippedWork } from './limits';
import { ManifestError } from './manifest';
import {
  checkpointSkippedFinding,
  type OpenedTable,
  openForAudit,
  unreadableAt,
  unreadableFinding,
} from './open-tables';
import { predicateProblems } from './predicates';
import { manifestFindings, tablesSmallestFirst } from './rules';
import { scheduleConflicts } from './schedule-conflicts';
import { fileOverlaps, type PairForecast, pairForecasts } from './tables';
import type { Finding, Manifest } from './types';

export interface JobAudit {
  findings: Finding[];
  pairs: PairForecast[];
  /** Whether any finding is an error (the CLI's exit code, a CI gate). */
  failed: boolean;
  /** Pairwise checks that stopped at their limit, with what they left out; empty when all was checked. */
  skipped: SkippedWork[];
}

export interface JobAuditOptions {
  /**
   * The manifest's folder, which a job's `code` is relative to: the jobs' code is then read (job-code.ts). Without
   * it (a manifest with no folder, as the API receives it) `code` is not read.
   */
  manifestDir?: string;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * The audit of `manifest`, to the end whatever its tables hold. Throws ManifestError (its `problems`,
 * each naming the job and the field) when a predicate cannot run on its table: the manifest is then
 * unusable as written, as when the contract refuses a field (a CLI's exit 2, the API's BAD_USER_INPUT).
 */
export async function auditJobs(
  given: Manifest,
  cfg: LocationConfig,
  options: JobAuditOptions = {},
): Promise<JobAudit> {
  const tied = options.manifestDir === undefined ? null : await jobsWithCode(given.jobs, options.manifestDir);
  const manifest = tied === null ? given : { ...given, jobs: tied.jobs };
  const opened = new Map<string, OpenedTable>();
  for (const table of new Set(manifest.jobs.map((j) => j.table))) opened.set(table, await openForAudit(table, cfg));
  const tableOf = (location: string): DeltaTable | null => {
    const t = opened.get(location);
    return t && 'table' in t ? t.table : null;
  };
  const problems = await predicateProblems(manifest.jobs, (j) => tableOf(j.table));
  if (problems.length > 0) throw new ManifestError(problems);

  const budgets = auditBudgets();
  const findings = [...(tied?.findings ?? []), ...manifestFindings(manifest.jobs)];
  const pairs: PairForecast[] = [];
  const open = (location: string) => tableOf(location) as DeltaTable;
  for (const [table, jobs] of tablesSmallestFirst(manifest.jobs)) {
    const t = opened.get(table) as OpenedTable;
    if ('unreadable' in t) {
      findings.push(unreadableFinding(table, jobs, t.unreadable));
      continue;
    }
    const { warnings } = t.table.state;
    if (warnings.length > 0) findings.push(checkpointSkippedFinding(table, jobs, warnings));
    try {
      // Both read the table's data; what they found counts only if the whole table could be read.
      const overlaps = await fileOverlaps(jobs, open, budgets.sharedFiles);
      const forecasts = await pairForecasts(jobs, open, budgets.forecasts);
      findings.push(...overlaps);
      pairs.push(...forecasts);
    } catch (e) {
      findings.push(unreadableFinding(table, jobs, await unreadableAt(e, t.resolved, cfg)));
    }
    const evidence = await historyEvidence(table, jobs, cfg);
    if (evidence) findings.push(evidence);
  }
  findings.push(...scheduleConflicts(manifest.jobs, pairs, budgets.schedules));
  findings.push(...contentionFindings(manifest.jobs, pairs, budgets.contention));
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.rule.localeCompare(b.rule));
  return {
    findings,
    pairs,
    failed: findings.some((f) => f.severity === 'error'),
    skipped: [budgets.schedules, budgets.sharedFiles, budgets.forecasts, budgets.contention].flatMap(
      (b) => b.skippedWork() ?? [],
    ),
  };
}

export { AUDIT_LATENCY, contentionFindings, EXHAUSTION_THRESHOLD, FIX_LADDER, policyOf } from './contention-findings';
export { MAX_PAIR_FORECASTS, MAX_SCHEDULE_RUNS, MAX_SHARED_FILE_PAIRS, type SkippedWork } from './limits';
export { libraryOf, manifestFindings } from './rules';
export type { PairForecast } from './tables';
export * from './types';
