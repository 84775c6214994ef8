'use client';
/**
 * The predicted fate of the SECOND writer, computed in the browser by the engine's own conflict
 * checker (lib/playground.ts's predict), and what the lab measured for the same pair.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { type ReactNode, useMemo } from 'react';
import { gql } from '../../lib/gql';
import {
  MEASURED_QUERY,
  measuredSummary,
  measuredVariables,
  menuWriter,
  type PlaygroundLayout,
  type PlaygroundPrediction,
  predict,
  type TableKind,
} from '../../lib/playground';
import { Empty, Failed, Loading } from '../states';

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

const NOTHING: Record<string, string> = {
  update: 'no row matches its predicate',
  delete: 'no row matches its predicate',
  append: 'the day has no trips to append',
  optimize: 'there are no two small files to compact',
};

export function Prediction({
  layout,
  firstKey,
  secondKey,
}: {
  layout: PlaygroundLayout;
  firstKey: string;
  secondKey: string;
}) {
  const result = useMemo((): { prediction: PlaygroundPrediction } | { error: unknown } => {
    try {
      return { prediction: predict(layout, firstKey, secondKey) };
    } catch (error) {
      return { error };
    }
  }, [layout, firstKey, secondKey]);
  if ('error' in result) return <Failed error={result.error} />;
  const p = result.prediction;
  const second = menuWriter(secondKey);
  const reads =
    'predicate' in second
      ? `SECOND's predicate reads ${files(p.secondReadsFiles)}`
      : `SECOND has no predicate, so it counts as reading all ${files(p.secondReadsFiles)}`;
  return (
    <div data-testid="prediction" data-second-commits={String(p.secondCommits)} aria-live="polite">
      <p style={{ fontSize: '1.15rem', margin: '0.25rem 0 0.5rem' }}>
        <span className={`badge ${p.secondCommits ? 'ok' : 'bad'}`} style={{ fontSize: '1rem' }}>
          {p.secondCommits ? 'SECOND commits' : 'SECOND fails'}
        </span>
      </p>
      {p.failedCheck && (
        <p>
          The checker's <code>{p.failedCheck}</code> check refuses it ({p.conflictKind}). SECOND gets a{' '}
          <code>CommitFailedError</code>:
        </p>
      )}
      {p.message && <pre className="error-text">{p.message}</pre>}
      <p>
        FIRST rewrites {files(p.firstTouchesFiles)}; {reads}.
      </p>
      {p.nothingToCommit.map((who) => {
        const w = menuWriter(who === 'first' ? firstKey : secondKey);
        return (
          <p key={who} className="flag">
            {who === 'first' ? 'FIRST' : 'SECOND'} has nothing to commit here: {NOTHING[w.operation]}.
            {who === 'first' ? ' With no winning commit, SECOND has nothing to conflict with.' : ''}
          </p>
        );
      })}
      <p className="muted">
        Isolation level: {p.isolationLevel}. FIRST's commit adds {files(p.firstAddsFiles)}; its rewritten files are
        those the data says hold a matching row, and a new file's stats span the files it replaces.
      </p>
    </div>
  );
}

export function MeasuredOutcome({
  kind,
  firstKey,
  secondKey,
}: {
  kind: TableKind;
  firstKey: string;
  secondKey: string;
}) {
  const measured = useQuery({
    queryKey: ['playground', 'measured', kind, firstKey, secondKey],
    queryFn: () => gql(MEASURED_QUERY, measuredVariables(kind, firstKey, secondKey)).then((d) => d.measuredOutcome),
    staleTime: 30_000,
  });
  let body: ReactNode;
  if (measured.isPending) body = <Loading what="the lab's runs of this pair" />;
  else if (measured.isError) body = <Failed error={measured.error} />;
  else {
    const summary = measuredSummary(measured.data);
    body =
      summary === null ? (
        <Empty>
          The lab has not run this pair yet. <Link href="/races">Race it in the lab</Link> to measure it.
        </Empty>
      ) : (
        <>
          <p>
            {summary}
            {measured.data.messages.length > 0 ? '; loser saw:' : '; no writer failed.'}
          </p>
          {measured.data.messages.map((m) => (
            <pre key={m} className="error-text">
              {m}
            </pre>
          ))}
          <p className="muted">
            Runs of races on the {kind} base table (any scale, no table properties) whose two writers make exactly these
            changes. A pair raced at the same moment counts in either order, so FIRST is not always the one that
            committed first.
          </p>
        </>
      );
  }
  return <div data-testid="measured">{body}</div>;
}
