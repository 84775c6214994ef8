'use client';
/**
 * What the histories of jobs audits and code audits share: a stored audit's row (when, by whom, what, its
 * findings counted by severity, the button that opens it) and the panel that loads and shows one.
 */
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Failed, Loading } from '../states';
import { CheckedAt, type StartedBy, useNow } from './checked-at';

const SEVERITY_WORDS: Record<string, string> = { error: 'error', warning: 'warning', info: 'note', note: 'note' };
const rank = (severity: string) => {
  const i = Object.keys(SEVERITY_WORDS).indexOf(severity);
  return i === -1 ? Number.MAX_SAFE_INTEGER : i;
};

/** "2 errors, 1 warning, 3 notes": most severe first; a severity the API may add, last, by its name. */
function severityCounts(findings: readonly { severity: string }[]): string {
  if (findings.length === 0) return 'no finding';
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([severity, n]) => `${n} ${SEVERITY_WORDS[severity] ?? severity}${n === 1 ? '' : 's'}`)
    .join(', ');
}

interface PastAuditSummary {
  id: string;
  failed: boolean;
  auditedAt: string;
  startedBy: StartedBy;
  findings: readonly { severity: string }[];
}

/** One stored audit in a history table; `children` is what was audited (the jobs, the code's path). */
function PastAuditRow(props: {
  testId: string;
  audit: PastAuditSummary;
  now: number;
  open: boolean;
  onOpen: () => void;
  children: ReactNode;
}) {
  const { testId, audit, now, open, onOpen, children } = props;
  return (
    <tr data-testid={testId} data-audit-id={audit.id} data-failed={String(audit.failed)}>
      <td>
        <CheckedAt iso={audit.auditedAt} now={now} by={audit.startedBy} />
      </td>
      <td>{children}</td>
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

/** A stored audit loaded by id and shown by `view`, with a button that closes it. */
function StoredAudit<T>(props: {
  id: string;
  /** Its kind, in the test id and label: `job` or `code`. */
  kind: string;
  load: (id: string) => Promise<T | null>;
  onClose: () => void;
  view: (audit: T) => ReactNode;
}) {
  const { id, kind, load, onClose, view } = props;
  const audit = useQuery({
    queryKey: [`${kind}-audit`, id],
    queryFn: () => load(id),
    // A stored audit never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <section className="panel" data-testid={`past-${kind}-audit`} data-audit-id={id} aria-label={`Past ${kind} audit`}>
      <div>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {audit.isPending && <Loading what="the audit" />}
      {audit.isError && <Failed error={audit.error} />}
      {audit.data === null && <Failed error={new Error('This audit is no longer stored.')} />}
      {audit.data !== undefined && audit.data !== null && view(audit.data)}
    </section>
  );
}

/**
 * A history of stored audits of one kind: a table of their rows (`subjectOf` says what each audited), and under it
 * the one opened, loaded whole and shown by `view`.
 */
export function PastAudits<T extends PastAuditSummary, D>(props: {
  kind: string;
  /** The heading of the column that says what was audited. */
  subject: string;
  items: readonly T[];
  subjectOf: (audit: T) => ReactNode;
  load: (id: string) => Promise<D | null>;
  view: (audit: D) => ReactNode;
}) {
  const { kind, subject, items, subjectOf, load, view } = props;
  const [open, setOpen] = useState<string | null>(null);
  const now = useNow(30_000);
  return (
    <>
      <table className="data" data-testid={`${kind}-audits`}>
        <thead>
          <tr>
            <th scope="col">Audited</th>
            <th scope="col">{subject}</th>
            <th scope="col">Findings</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <PastAuditRow
              key={a.id}
              testId={`${kind}-audit-row`}
              audit={a}
              now={now}
              open={open === a.id}
              onOpen={() => setOpen(a.id)}
            >
              {subjectOf(a)}
            </PastAuditRow>
          ))}
        </tbody>
      </table>
      {open !== null && <StoredAudit id={open} kind={kind} load={load} onClose={() => setOpen(null)} view={view} />}
    </>
  );
}
