'use client';
/**
 * The stored jobs audits, newest first: when each ran, its jobs and its findings by severity. Opening
 * one fetches it whole and shows it as the audit form shows a fresh one (findings by job, pair grids).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { gql } from '../../lib/gql';
import { JOB_AUDIT_QUERY, JOB_AUDITS_KEY, JOB_AUDITS_QUERY, type JobAuditSummary } from '../../lib/jobs';
import { Failed, Loading, listed } from '../states';
import { CheckedAt, useNow } from './checked-at';
import { JobAuditView } from './jobs-audit';

/** The API's most per request. */
const SHOWN = 50;
/** Jobs named in a row before "and N more". */
const NAMES_SHOWN = 4;

const SEVERITY_WORDS: Record<string, string> = { error: 'error', warning: 'warning', info: 'note', note: 'note' };
const rank = (severity: string) => {
  const i = Object.keys(SEVERITY_WORDS).indexOf(severity);
  return i === -1 ? Number.MAX_SAFE_INTEGER : i;
};

/** "2 errors, 1 warning, 3 notes": most severe first; a severity the API may add, last, by its name. */
export function severityCounts(findings: readonly { severity: string }[]): string {
  if (findings.length === 0) return 'no finding';
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([severity, n]) => `${n} ${SEVERITY_WORDS[severity] ?? severity}${n === 1 ? '' : 's'}`)
    .join(', ');
}

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
      {open !== null && <StoredJobAudit id={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function JobAuditRow(props: { audit: JobAuditSummary; now: number; open: boolean; onOpen: () => void }) {
  const { audit, now, open, onOpen } = props;
  const names = audit.jobs.map((j) => j.name);
  const more = names.length - NAMES_SHOWN;
  return (
    <tr data-testid="job-audit-row" data-audit-id={audit.id} data-failed={String(audit.failed)}>
      <td>
        <CheckedAt iso={audit.auditedAt} now={now} by={audit.startedBy} />
      </td>
      <td>
        {names.slice(0, NAMES_SHOWN).join(', ')}
        {more > 0 && <span className="muted"> and {more} more</span>}
      </td>
      <td>
        <span className={`badge ${audit.failed ? 'bad' : 'ok'}`}>{severityCounts(audit.findings)}</span>
      </td>
      <td>
        <button type="button" className="secondary" onClick={onOpen} disabled={open}>
          {open ? 'Shown below' : 'Open'}
        </button>
      </td>
    </tr>
  );
}

function StoredJobAudit({ id, onClose }: { id: string; onClose: () => void }) {
  const audit = useQuery({
    queryKey: ['job-audit', id],
    queryFn: async () => (await gql(JOB_AUDIT_QUERY, { id })).jobAudit,
    // A stored audit never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <section className="panel" data-testid="past-job-audit" data-audit-id={id} aria-label="Past job audit">
      <div>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {audit.isPending && <Loading what="the audit" />}
      {audit.isError && <Failed error={audit.error} />}
      {audit.data === null && <Failed error={new Error('This audit is no longer stored.')} />}
      {audit.data && <JobAuditView audit={audit.data} />}
    </section>
  );
}
