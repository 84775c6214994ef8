'use client';
/** Every race, newest first: case, status, its verdict in words (else the outcome), live progress while it runs. */
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { gql, type VariablesOf } from '../../lib/gql';
import { ago, isLive, outcomeSummary, RACES, runsDone } from '../../lib/races';
import { Empty, Failed, Loading, StatusBadge } from '../states';
import { RunsProgress } from './runs-progress';
import { VerdictSummary } from './verdict';

/** A RaceStatus, or '' for any. */
type StatusFilter = '' | NonNullable<VariablesOf<typeof RACES>['status']>;

const STATUSES: readonly StatusFilter[] = ['', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'];

export function RaceList() {
  const [caseId, setCaseId] = useState('');
  const [status, setStatus] = useState<StatusFilter>('');
  const q = useInfiniteQuery({
    queryKey: ['races', caseId, status],
    queryFn: ({ pageParam }) =>
      gql(RACES, {
        after: pageParam,
        ...(caseId.trim() && { caseId: caseId.trim() }),
        ...(status && { status }),
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.races.pageInfo.hasNextPage ? last.races.pageInfo.endCursor : undefined),
    // While any race on screen is queued or running, follow it.
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.races.edges.some((e) => isLive(e.node.status))) ? 1500 : false,
  });
  const races = q.data?.pages.flatMap((p) => p.races.edges.map((e) => e.node)) ?? [];

  return (
    <section aria-labelledby="races-heading">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id="races-heading">Races</h2>
        <div className="row">
          <label>
            Case
            <input value={caseId} size={6} placeholder="any" onChange={(e) => setCaseId(e.target.value)} />
          </label>
          <label>
            Status
            <select value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s === '' ? 'any' : s.toLowerCase()}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {q.isPending ? (
        <Loading what="races" />
      ) : q.error ? (
        <Failed error={q.error} />
      ) : races.length === 0 ? (
        <Empty>No races yet{caseId || status ? ' with these filters' : ''}. Start one with the form above.</Empty>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th>Case</th>
              <th>Race</th>
              <th>Status</th>
              <th>Outcome</th>
              <th>Progress</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {races.map((r) => {
              const done = runsDone(r);
              return (
                <tr key={r.id} data-testid="race-row" data-status={r.status}>
                  <td>
                    <strong>{r.caseId ?? 'custom'}</strong>
                  </td>
                  <td>
                    <Link href={`/races/${r.id}`}>{r.title}</Link>
                    <div className="muted">{r.tableLocation ? `copies of ${r.tableLocation}` : `scale ${r.scale}`}</div>
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td data-testid="outcome">
                    {r.verdictSummary ? (
                      <VerdictSummary race={r} />
                    ) : (
                      outcomeSummary(r) || (r.reason ? <span className="muted">{r.reason}</span> : '–')
                    )}
                  </td>
                  <td>
                    <RunsProgress done={done} total={r.runsRequested} label={`runs done of ${r.title}`} />
                  </td>
                  <td className="muted">{ago(r.createdAt)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {q.hasNextPage && (
        <p>
          <button
            type="button"
            className="secondary"
            onClick={() => void q.fetchNextPage()}
            disabled={q.isFetchingNextPage}
          >
            {q.isFetchingNextPage ? 'Loading…' : 'Older races'}
          </button>
        </p>
      )}
    </section>
  );
}
