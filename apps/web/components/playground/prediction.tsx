'use client';
/**
 * The predicted fate of the SECOND writer, computed in the browser by the engine's own conflict
 * checker (lib/playground.ts's predict): delta-rs's verdict, then SECOND's under every engine.
 */
import { useMemo } from 'react';
import { menuWriter, type PlaygroundLayout, type PlaygroundPrediction, predict } from '../../lib/playground';
import { EngineForecasts } from '../engine-forecasts';
import { Failed } from '../states';

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
      <h4>SECOND by engine</h4>
      <p className="muted">
        SECOND written and judged by each engine, under its own reading of delta.isolationLevel; FIRST is a delta-rs
        writer throughout, as in the lab&apos;s races. The verdict above is delta-rs&apos;s.
      </p>
      <EngineForecasts entries={p.byEngine} messages />
    </div>
  );
}
