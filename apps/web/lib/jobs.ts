/** The jobs audit's GraphQL document and the shapes derived from it, and how a forecast pair becomes a lab race. */
import { graphql, type ResultOf } from './gql';
import type { StartRaceInput, WriterInput } from './races';

export const AUDIT_JOBS = graphql(`mutation AuditJobs($manifest: String!) { auditJobs(manifest: $manifest) {
  id auditedAt failed jobs { name table engine operation predicate }
  findings { rule severity jobs table evidence fix }
  pairs { table first second secondCommits failedCheck message skipped }
  skipped { check checked skipped note } } }`);

export type JobAuditResult = ResultOf<typeof AUDIT_JOBS>['auditJobs'];
export type JobPair = JobAuditResult['pairs'][number];
export type AuditedJob = JobAuditResult['jobs'][number];

/** The lab's base tables by alias: only pairs on these can be raced from the dashboard. */
export function labTable(location: string): { table: 'flat' | 'partitioned'; scale: number } | null {
  const m = /^lab:(flat|partitioned)@(\d+(?:\.\d+)?)$/.exec(location);
  return m ? { table: m[1] as 'flat' | 'partitioned', scale: Number(m[2]) } : null;
}

/** A job as a writer of a lab race; null for what a race cannot do (merge, vacuum, overwrite). */
function writerOf(job: AuditedJob): WriterInput | null {
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
export function raceInput(pair: JobPair, jobs: readonly AuditedJob[]): StartRaceInput | null {
  const lab = labTable(pair.table);
  const [a, b] = [jobs.find((j) => j.name === pair.first), jobs.find((j) => j.name === pair.second)];
  const [first, second] = [a && writerOf(a), b && writerOf(b)];
  if (!lab || !first || !second) return null;
  return { table: lab.table, scale: lab.scale, runs: 3, writers: [first, { ...second, startAfter: first.name }] };
}
