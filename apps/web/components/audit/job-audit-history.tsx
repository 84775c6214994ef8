'use client';
/**
 * The stored jobs audits, newest first: when each ran, its jobs and its findings by severity. Opening
 * one fetches it whole and shows it as the audit form shows a fresh one (findings by job, pair grids).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../lib/gql';
import { JOB_AUDIT_QUERY, JOB_AUDITS_KEY, JOB_AUDITS_QUERY, type JobAuditSummary } from '../../lib/jobs';
import { listed } from '../states';
import { useNow } from './checked-at';
import { JobAuditView } from './jobs-audit';
import { PastAuditRow, StoredAudit } from './past-audits';

/** The API's most per request. */
const SHOWN = 50;
/** Jobs named in a row before "and N more". */
const NAMES_SHOWN = 4;

export function JobAuditHistory() {
  const audits = useQuery({
    queryKey: [JOB_AUDITS_KEY, SHOWN],
    queryFn: async () => (await gql(JOB_AUDITS_QUERY, { first: SHOWN })).jobAudits,
  });
  const [open, setOpen] = useState<string | null>(null);
  const now = useNow(30_000);

  const list = listed(audits, 'job audits', [
    'No job audits yet',
    'Audit a manifest above and the result is kept here.',
  ]);
  if ('state' in list) return list.state;
  return (
    <>
      <table className="data" data-testid="job-audits">
        <thead>
          <tr>
            <th scope="col">Audited</th>
            <th scope="col">Jobs</th>
            <th scope="col">Findings</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((a) => (
            <JobAuditRow key={a.id} audit={a} now={now} open={open === a.id} onOpen={() => setOpen(a.id)} />
          ))}
        </tbody>
      </table>
      {open !== null && (
        <StoredAudit
          id={open}
          kind="job"
          load={loadJobAudit}
          onClose={() => setOpen(null)}
          view={(a) => <JobAuditView audit={a} />}
        />
      )}
    </>
  );
}

function JobAuditRow(props: { audit: JobAuditSummary; now: number; open: boolean; onOpen: () => void }) {
  const names = props.audit.jobs.map((j) => j.name);
  const more = names.length - NAMES_SHOWN;
  return (
    <PastAuditRow testId="job-audit-row" {...props}>
      {names.slice(0, NAMES_SHOWN).join(', ')}
      {more > 0 && <span className="muted"> and {more} more</span>}
    </PastAuditRow>
  );
}

const loadJobAudit = async (id: string) => (await gql(JOB_AUDIT_QUERY, { id })).jobAudit;
