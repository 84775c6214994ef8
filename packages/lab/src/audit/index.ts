/**
 * Auditing a jobs manifest: the rules over the jobs, the file overlaps and the pairwise conflict
 * forecast from each table's data. Tables resolve like every user location (roots, aliases,
 * configured buckets); one that cannot be resolved or opened becomes an error finding, not a crash.
 * The pairwise checks spend fixed budgets (limits.ts); what they left out is in `skipped`.
 */
import { DeltaTable, NotATableError } from '@racelab/engine';
import { type LocationConfig, LocationError, resolveTableLocation } from '../locations';
import { auditBudgets, type SkippedWork } from './limits';
import { unrunnablePredicates } from './predicates';
import { manifestFindings } from './rules';
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

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/** The table at `location` opened once, so every check of the audit judges the same snapshot. */
async function openTable(location: string, cfg: LocationConfig): Promise<DeltaTable> {
  const resolved = await resolveTableLocation(location, cfg);
  try {
    return await DeltaTable.open(resolved.path);
  } catch (e) {
    // The engine's message names the resolved absolute path; the person knows the table by what they wrote.
    if (e instanceof NotATableError) throw new LocationError(`${resolved.display} is not a Delta table (no commits)`);
    throw e;
  }
}

export async function auditJobs(manifest: Manifest, cfg: LocationConfig): Promise<JobAudit> {
  const budgets = auditBudgets();
  const findings = manifestFindings(manifest.jobs, budgets);
  const opened = new Map<string, DeltaTable>();
  for (const table of new Set(manifest.jobs.map((j) => j.table))) {
    try {
      opened.set(table, await openTable(table, cfg));
    } catch (e) {
      if (!(e instanceof LocationError)) throw e;
      findings.push({
        rule: 'table-unreadable',
        severity: 'error',
        jobs: manifest.jobs.filter((j) => j.table === table).map((j) => j.name),
        table,
        evidence: e.message,
        fix: 'give a Delta table under the configured roots or buckets, or a lab alias',
      });
    }
  }
  const open = (table: string) => opened.get(table) as DeltaTable;
  const readable = manifest.jobs.filter((j) => opened.has(j.table));
  const predicates = await unrunnablePredicates(readable, open);
  findings.push(...predicates.findings);
  const jobs = readable.filter((j) => !predicates.refused.has(j));
  findings.push(...(await fileOverlaps(jobs, open, budgets.sharedFiles)));
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.rule.localeCompare(b.rule));
  const pairs = await pairForecasts(jobs, open, budgets.forecasts);
  return {
    findings,
    pairs,
    failed: findings.some((f) => f.severity === 'error'),
    skipped: [budgets.schedules, budgets.sharedFiles, budgets.forecasts].flatMap((b) => b.skippedWork() ?? []),
  };
}

export { MAX_PAIR_FORECASTS, MAX_SCHEDULE_RUNS, MAX_SHARED_FILE_PAIRS, type SkippedWork } from './limits';
export { engineOf, manifestFindings } from './rules';
export type { PairForecast } from './tables';
export * from './types';
