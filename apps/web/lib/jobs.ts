/** The jobs audit's GraphQL documents and shapes, and how a forecast pair becomes a lab race. */

export interface JobFinding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  jobs: string[];
  table: string;
  evidence: string;
  fix: string;
}

export interface JobPair {
  table: string;
  first: string;
  second: string;
  secondCommits: boolean | null;
  failedCheck: string | null;
  message: string | null;
  skipped: string | null;
}

/** A pairwise check that stopped at its per-audit limit: what it left out, in words. */
export interface SkippedCheck {
  check: string;
  checked: number;
  skipped: number;
  note: string;
}

export interface AuditedJob {
  name: string;
  table: string;
  engine: string;
  operation: string;
  predicate: string | null;
}

export interface JobAuditResult {
  id: string;
  auditedAt: string;
  failed: boolean;
  jobs: AuditedJob[];
  findings: JobFinding[];
  pairs: JobPair[];
  skipped: SkippedCheck[];
}

export const AUDIT_JOBS = `mutation AuditJobs($manifest: String!) { auditJobs(manifest: $manifest) {
  id auditedAt failed jobs { name table engine operation predicate }
  findings { rule severity jobs table evidence fix }
  pairs { table first second secondCommits failedCheck message skipped }
  skipped { check checked skipped note } } }`;

/** The lab's base tables by alias: only pairs on these can be raced from the dashboard. */
export function labTable(location: string): { table: 'flat' | 'partitioned'; scale: number } | null {
  const m = /^lab:(flat|partitioned)@(\d+(?:\.\d+)?)$/.exec(location);
  return m ? { table: m[1] as 'flat' | 'partitioned', scale: Number(m[2]) } : null;
}

/** A job as a writer of a lab race; null for what a race cannot do (merge, vacuum, overwrite). */
function writerOf(job: AuditedJob): Record<string, unknown> | null {
  const base = { name: job.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32) };
  switch (job.operation) {
    case 'update':
      // The lab's updates add 1 to the tip, as the lesson's jobs did.
      return {
        ...base,
        operation: 'update',
        predicate: job.predicate ?? 'TRUE',
        set: [{ key: 'tip_amount', value: 'tip_amount + 1' }],
      };
    case 'delete':
      return { ...base, operation: 'delete', predicate: job.predicate ?? 'TRUE' };
    case 'append':
      return { ...base, operation: 'append', day: '2025-02-01' };
    case 'optimize':
      return { ...base, operation: 'optimize' };
    default:
      return null;
  }
}

/** startRace's input for "FIRST commits, then SECOND" on the pair's lab table, or null. */
export function raceInput(pair: JobPair, jobs: AuditedJob[]): Record<string, unknown> | null {
  const lab = labTable(pair.table);
  const [a, b] = [jobs.find((j) => j.name === pair.first), jobs.find((j) => j.name === pair.second)];
  const [first, second] = [a && writerOf(a), b && writerOf(b)];
  if (!lab || !first || !second) return null;
  return { table: lab.table, scale: lab.scale, runs: 3, writers: [first, { ...second, startAfter: first.name }] };
}
