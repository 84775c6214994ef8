'use client';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { gql } from '../../lib/gql';
import { AUDITS_QUERY, differingDefaults, type TableAudit } from '../../lib/isolation';
import { EngineReadings } from '../isolation/engine-readings';
import { ValueLabel } from '../isolation/value-label';
import { listed } from '../states';
import { CheckedAt, useNow } from './checked-at';

const HISTORY_SIZE = 50;
const COLUMNS = 5;

/** The stored audits, newest first, each with a row that expands to every engine's reading. */
export function AuditHistory() {
  const audits = useQuery({
    queryKey: ['audits', HISTORY_SIZE],
    queryFn: async () => (await gql(AUDITS_QUERY, { first: HISTORY_SIZE })).audits,
  });
  const now = useNow(30_000);

  const list = listed(audits, 'audits', ['No audits yet', 'Audit a table above and the result is kept here.']);
  if ('state' in list) return list.state;
  return (
    <table className="data" data-testid="audits">
      <thead>
        <tr>
          <th scope="col">Location</th>
          <th scope="col">Isolation level</th>
          <th scope="col">Engines</th>
          <th scope="col" className="num">
            Table version
          </th>
          <th scope="col">Checked</th>
        </tr>
      </thead>
      <tbody>
        {list.items.map((a) => (
          <Fragment key={a.id}>
            <AuditRow audit={a} now={now} />
            <AuditDetailsRow audit={a} />
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}

function AuditRow({ audit, now }: { audit: TableAudit; now: number }) {
  return (
    <tr data-testid="audit-row" data-flagged={String(audit.flagged)} data-audit-id={audit.id}>
      <td>
        <code>{audit.location}</code>
      </td>
      <td>
        <ValueLabel value={audit.isolationLevel} />
      </td>
      <td>
        <FlaggedBadge audit={audit} />
      </td>
      <td className="num">{audit.tableVersion}</td>
      <td>
        <CheckedAt iso={audit.auditedAt} now={now} by={audit.startedBy} />
      </td>
    </tr>
  );
}

function FlaggedBadge({ audit }: { audit: TableAudit }) {
  // Which engines write the table is unknown here: differing defaults are a warning, the jobs audit flags them.
  const defaults = differingDefaults(audit.isolationLevel, audit.interpretations);
  if (!audit.flagged && defaults) {
    return (
      <>
        <span className="badge warn">unset: the engines&apos; defaults differ</span>{' '}
        <span className="muted">{defaults}</span>
      </>
    );
  }
  if (!audit.flagged) return <span className="badge ok">fine everywhere</span>;
  return (
    <span className="badge bad">
      {audit.flaggedBy.length > 0 ? `flagged by ${audit.flaggedBy.join(', ')}` : 'flagged'}
    </span>
  );
}

/** Under each audit, closed by default: what every engine makes of the table's value, and why. */
function AuditDetailsRow({ audit }: { audit: TableAudit }) {
  const value = audit.isolationLevel;
  return (
    <tr data-audit-details-for={audit.id}>
      <td colSpan={COLUMNS}>
        <details>
          <summary>Each engine&apos;s reading</summary>
          <EngineReadings
            interpretations={audit.interpretations}
            caption={
              value === null
                ? `${audit.location}: delta.isolationLevel is unset`
                : `${audit.location}: delta.isolationLevel = '${value}'`
            }
          />
        </details>
      </td>
    </tr>
  );
}
