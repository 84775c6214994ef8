/**
 * An audit's findings grouped by job (lib/finding-groups.ts): a finding about several jobs once, marked shared,
 * each with its severity, evidence and fix.
 */
import { useId } from 'react';
import { groupFindings } from '../../lib/finding-groups';
import type { JobAuditResult } from '../../lib/jobs';

/** The API's severities (a string there, so that it may add one: shown as a warning). */
const BADGE: Record<string, string> = { error: 'bad', warning: 'warn', info: 'ok' };

type AuditFinding = JobAuditResult['findings'][number];

/** One rule may find twice for the same jobs (an isolation value per value): its evidence tells them apart. */
const findingKey = (f: AuditFinding) => `${f.rule}\n${f.evidence}`;

function FindingItem({ finding: f }: { finding: AuditFinding }) {
  return (
    <li data-rule={f.rule}>
      <span className={`badge ${BADGE[f.severity] ?? 'warn'}`}>{f.severity}</span> <strong>{f.rule}</strong>:{' '}
      {f.evidence}
      <div className="muted">Fix: {f.fix}</div>
    </li>
  );
}

/**
 * Each job's own findings under it; a finding naming several jobs once, under those jobs together and
 * marked shared, with a pointer to it from each of them, so it is never repeated as every job's error.
 */
export function JobFindings({ audit }: { audit: JobAuditResult }) {
  const anchor = useId();
  const names = audit.jobs.map((j) => j.name);
  const { own, shared } = groupFindings(audit.findings, names);
  const sharedId = (i: number) => `${anchor}-shared-${i}`;
  return (
    <>
      {audit.jobs.map((job) => {
        const mine = own.get(job.name) ?? [];
        const withOthers = shared.flatMap((g, i) => (g.jobs.includes(job.name) ? [{ g, id: sharedId(i) }] : []));
        return (
          <section key={job.name} data-testid="job-findings" data-job={job.name} className="panel">
            <h4>
              {job.name}{' '}
              <span className="muted">
                ({job.operation} on {job.table}, {job.engine})
              </span>
            </h4>
            {mine.length === 0 && withOthers.length === 0 && <p className="muted">No finding.</p>}
            {mine.length > 0 && (
              <ul>
                {mine.map((f) => (
                  <FindingItem key={findingKey(f)} finding={f} />
                ))}
              </ul>
            )}
            {withOthers.map(({ g, id }) => (
              <p key={id} className="muted">
                Shared with {g.jobs.filter((n) => n !== job.name).join(', ')}:{' '}
                {g.findings.map((f, k) => (
                  <span key={findingKey(f)}>
                    {k > 0 && ', '}
                    <a href={`#${id}`} data-shared-rule={f.rule}>
                      {f.rule}
                    </a>
                  </span>
                ))}
              </p>
            ))}
          </section>
        );
      })}
      {shared.length > 0 && <h3>Findings shared by several jobs</h3>}
      {shared.map((g, i) => (
        <section
          key={sharedId(i)}
          id={sharedId(i)}
          data-testid="shared-findings"
          data-jobs={g.jobs.join(',')}
          className="panel"
        >
          <h4>
            {g.jobs.length > 0 ? g.jobs.join(' + ') : g.findings[0]?.table}{' '}
            <span className="badge status-queued">shared</span>
          </h4>
          <ul>
            {g.findings.map((f) => (
              <FindingItem key={findingKey(f)} finding={f} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
