/**
 * Auditing a jobs manifest: the rules over the jobs, the file overlaps and the pairwise conflict
 * forecast from each table's data. Tables resolve like every user location (roots, aliases,
 * configured buckets); one that cannot be read becomes an error finding, not a crash.
 */
import { type LocationConfig, resolveTableLocation } from '../locations';
import { manifestFindings } from './rules';
import { fileOverlaps, type PairForecast, pairForecasts } from './tables';
import type { Finding, Manifest } from './types';

export interface JobAudit {
  findings: Finding[];
  pairs: PairForecast[];
  /** Whether any finding is an error (the CLI's exit code, a CI gate). */
  failed: boolean;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

export async function auditJobs(manifest: Manifest, cfg: LocationConfig): Promise<JobAudit> {
  const findings = manifestFindings(manifest.jobs);
  const readable = new Map<string, string>();
  for (const table of new Set(manifest.jobs.map((j) => j.table))) {
    try {
      readable.set(table, (await resolveTableLocation(table, cfg)).path);
    } catch (e) {
      findings.push({
        rule: 'table-unreadable',
        severity: 'error',
        jobs: manifest.jobs.filter((j) => j.table === table).map((j) => j.name),
        table,
        evidence: (e as Error).message,
        fix: 'give a location under the configured roots or buckets, or a lab alias',
      });
    }
  }
  const jobs = manifest.jobs.filter((j) => readable.has(j.table));
  const resolve = async (table: string) => readable.get(table) as string;
  findings.push(...(await fileOverlaps(jobs, resolve)));
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.rule.localeCompare(b.rule));
  return { findings, pairs: await pairForecasts(jobs, resolve), failed: findings.some((f) => f.severity === 'error') };
}

export { engineOf, manifestFindings } from './rules';
export type { PairForecast } from './tables';
export * from './types';
