'use client';
/**
 * The stored jobs audits, newest first: when each ran, its jobs and its findings by severity. Opening
 * one fetches it whole and shows it as the audit form shows a fresh one (findings by job, pair grids).
 */
import { useQuery } from '@tanstack/react-query';
import { gql } from '../../lib/gql';
import { JOB_AUDIT_QUERY, JOB_AUDITS_KEY, JOB_AUDITS_QUERY, type JobAuditSummary } from '../../lib/jobs';
import { listed } from '../states';
import { JobAuditView } from './jobs-audit';
import { PastAudits } from './past-audits';

/** The API's most per request. */
const SHOWN = 50;
/** Jobs named in a row before "and N more". */
const NAMES_SHOWN = 4;

export function JobAuditHistory() {
  const audits = useQuery({
    queryKey: [JOB_AUDITS_KEY, SHOWN],
    queryFn: async () => (await gql(JOB_AUDITS_QUERY, { first: SHOWN })).jobAudits,
  });
  const list = listed(audits, 'job audits', [
    'No job audits yet',
    'Audit a manifest above and the result is kept here.',
  ]);
  if ('state' in list) return list.state;
  return (
    <PastAudits
      kind="job"
      subject="Jobs"
      items={list.items}
      subjectOf={jobNames}
      load={loadJobAudit}
      view={(a) => <JobAuditView audit={a} />}
    />
  );
}

/** The jobs an audit covered, the first few by name. */
function jobNames(audit: JobAuditSummary) {
  const names = audit.jobs.map((j) => j.name);
  const more = names.length - NAMES_SHOWN;
  return (
    <>
      {names.slice(0, NAMES_SHOWN).join(', ')}
      {more > 0 && <span className="muted"> and {more} more</span>}
    </>
  );
}

const loadJobAudit = async (id: string) => (await gql(JOB_AUDIT_QUERY, { id })).jobAudit;
