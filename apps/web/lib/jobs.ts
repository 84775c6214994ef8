/** The jobs audit's GraphQL documents and the shapes derived from them, and how a forecast pair becomes a lab race. */
import { graphql, type ResultOf } from './gql';
import { type StartRaceInput, settableProperties, type WriterInput } from './races';

/** What the audit view shows of one audit: a fresh one and a stored one read the same. */
const JOB_AUDIT_FIELDS = graphql(`fragment JobAuditFields on JobAudit {
  id auditedAt failed jobs { name table engine operation predicate tableProperties { key value } }
  findings { rule severity jobs table evidence fix }
  pairs { table first second secondCommits failedCheck message skipped secondEngine
    byEngine { engine isolationLevel commits failedCheck message note } }
  skipped { check checked skipped note } }`);

export const AUDIT_JOBS = graphql(
  'mutation AuditJobs($manifest: String!) { auditJobs(manifest: $manifest) { ...JobAuditFields } }',
  [JOB_AUDIT_FIELDS],
);

export type JobAuditResult = ResultOf<typeof JOB_AUDIT_FIELDS>;
export type JobPair = JobAuditResult['pairs'][number];
export type AuditedJob = JobAuditResult['jobs'][number];

/** The stored audits, newest first, under a react-query key that a new audit invalidates; the API gives at most 50. */
export const JOB_AUDITS_KEY = 'job-audits';
export const JOB_AUDITS_QUERY = graphql(`query JobAudits($first: Int!) {
  jobAudits(first: $first) { id auditedAt failed startedBy { description } jobs { name } findings { severity } }
}`);
export type JobAuditSummary = ResultOf<typeof JOB_AUDITS_QUERY>['jobAudits'][number];

/** One stored audit, whole, to show as a fresh one is shown. */
export const JOB_AUDIT_QUERY = graphql('query JobAudit($id: ID!) { jobAudit(id: $id) { ...JobAuditFields } }', [
  JOB_AUDIT_FIELDS,
]);

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

/** startRace's input for "FIRST commits, then SECOND" on the pair's lab table, with the jobs' table properties, or null. */
export function raceInput(pair: JobPair, jobs: readonly AuditedJob[]): StartRaceInput | null {
  const lab = labTable(pair.table);
  const [a, b] = [jobs.find((j) => j.name === pair.first), jobs.find((j) => j.name === pair.second)];
  const [first, second] = [a && writerOf(a), b && writerOf(b)];
  if (!lab || !a || !b || !first || !second) return null;
  return {
    table: lab.table,
    scale: lab.scale,
    runs: 3,
    // Where both jobs declare a key, SECOND's value wins: SECOND's commit is the one the forecast judges.
    tableProperties: settableProperties([...a.tableProperties, ...b.tableProperties]),
    writers: [first, { ...second, startAfter: first.name }],
  };
}
