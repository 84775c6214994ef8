'use client';
/** The stored sweeps, newest first: tick the finished ones to plot them together. */
import { useQuery } from '@tanstack/react-query';
import { gql } from '../../lib/gql';
import { SWEEPS_KEY, SWEEPS_QUERY, SWEEPS_SHOWN, sweepLabel } from '../../lib/sweeps';
import { CheckedAt, useNow } from '../audit/checked-at';
import { listed, StatusBadge } from '../states';

export function SweepPicker({ picked, onToggle }: { picked: readonly string[]; onToggle: (id: string) => void }) {
  const sweeps = useQuery({
    queryKey: [SWEEPS_KEY, SWEEPS_SHOWN],
    queryFn: async () => (await gql(SWEEPS_QUERY, { last: SWEEPS_SHOWN })).sweeps,
  });
  const now = useNow(30_000);
  const list = listed(sweeps, 'sweeps', ['No sweep stored yet', 'Start one above; it is kept here when it ends.']);
  if ('state' in list) return list.state;
  return (
    <table className="data" data-testid="sweeps">
      <thead>
        <tr>
          <th scope="col">Plot</th>
          <th scope="col">Started</th>
          <th scope="col">Sweep</th>
          <th scope="col">N</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {list.items.map((s) => (
          <tr key={s.id} data-testid="sweep-row" data-sweep-id={s.id}>
            <td>
              <input
                type="checkbox"
                aria-label={`plot ${sweepLabel(s)}`}
                checked={picked.includes(s.id)}
                disabled={s.status !== 'DONE'}
                title={s.status === 'DONE' ? undefined : 'only a finished sweep has figures to plot'}
                onChange={() => onToggle(s.id)}
              />
            </td>
            <td>
              <CheckedAt iso={s.createdAt} now={now} by={s.startedBy} />
            </td>
            <td>
              {sweepLabel(s)}
              {s.onS3 && <span className="badge words">S3</span>}
            </td>
            <td>{s.input.writers.join(', ')}</td>
            <td>
              <StatusBadge status={s.status} />
              {s.status === 'RUNNING' && (
                <span className="muted">
                  {' '}
                  {s.done}/{s.total}
                </span>
              )}
              {s.reason && <span className="muted"> {s.reason}</span>}
              {s.cancelledBy && <span className="muted"> (cancelled by {s.cancelledBy.description})</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
