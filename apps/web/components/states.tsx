/** The three states every data view has besides its content: loading, empty, failed. */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

export function Failed({ error }: { error: unknown }) {
  const e = error as { message?: string; problems?: string[] };
  // A refusal listing several problems says so once, then lists them (its message joins them all).
  const problems = e.problems ?? [];
  return (
    <div className="state failed" role="alert">
      <strong>{problems.length > 0 ? 'Not accepted:' : (e.message ?? String(error))}</strong>
      {problems.length > 0 && (
        <ul>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A list query's items, or the state to show instead: loading, failed, or empty (a title and what to do). The
 * histories of audits, job audits and store probes all start so.
 */
export function listed<T>(
  query: UseQueryResult<T[]>,
  what: string,
  [title, hint]: [string, string],
): { items: T[] } | { state: ReactNode } {
  if (query.isPending) return { state: <Loading what={what} /> };
  if (query.isError) return { state: <Failed error={query.error} /> };
  if (query.data.length > 0) return { items: query.data };
  return {
    state: (
      <Empty>
        <p>{title}</p>
        <p>{hint}</p>
      </Empty>
    ),
  };
}

const STATUS_LABEL: Record<string, string> = {
  QUEUED: 'queued',
  RUNNING: 'running',
  DONE: 'done',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status.toLowerCase()}`}>{STATUS_LABEL[status] ?? status}</span>;
}
