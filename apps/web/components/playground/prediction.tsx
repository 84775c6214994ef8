'use client';
/**
 * The predicted fate of the SECOND writer: delta-rs's verdict, then SECOND's under every engine. The lab
 * tables' prediction is computed in the browser by the engine's own conflict checker (lib/playground/prediction.ts's
 * predict); "your table"'s comes from the API's predictConflict. Both are shown by ForecastView.
 */
import { useMemo } from 'react';
import type { PlaygroundLayout } from '../../lib/playground/lab-tables';
import { type PlaygroundPrediction, predict } from '../../lib/playground/prediction';
import { menuWriter } from '../../lib/playground/writer-menu';
import { EngineForecasts, type EngineForecastView } from '../engine-forecasts';
import { Failed } from '../states';

const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** What a forecast says, from the browser's simulation or from the API alike. */
export interface Forecast {
  secondCommits: boolean;
  failedCheck: string | null;
  conflictKind?: string | null;
  message: string | null;
  isolationLevel: string;
  firstTouchesFiles: number;
  firstAddsFiles?: number;
  secondReadsFiles: number;
  nothingToCommit: readonly string[];
  byEngine: readonly EngineForecastView[];
}

const NOTHING: Record<string, string> = {
  update: 'no row matches its predicate',
  delete: 'no row matches its predicate',
  append: 'the day has no trips to append',
  optimize: 'there are no two small files to compact',
};

export function ForecastView({
  forecast: p,
  operations,
}: {
  forecast: Forecast;
  /** Each writer's operation: says why one has nothing to commit, and whether SECOND reads by a predicate. */
  operations: { first: string; second: string };
}) {
  const reads =
    operations.second === 'optimize' || operations.second === 'append'
      ? `SECOND has no predicate, so it counts as reading all ${files(p.secondReadsFiles)}`
      : `SECOND's predicate reads ${files(p.secondReadsFiles)}`;
  return (
    <div data-testid="prediction" data-second-commits={String(p.secondCommits)} aria-live="polite">
      <p style={{ fontSize: '1.15rem', margin: '0.25rem 0 0.5rem' }}>
        <span className={`badge ${p.secondCommits ? 'ok' : 'bad'}`} style={{ fontSize: '1rem' }}>
          {p.secondCommits ? 'SECOND commits' : 'SECOND fails'}
        </span>
      </p>
      {p.failedCheck && (
        <p>
          The checker's <code>{p.failedCheck}</code> check refuses it{p.conflictKind ? ` (${p.conflictKind})` : ''}.
          SECOND gets a <code>CommitFailedError</code>:
        </p>
      )}
      {p.message && <pre className="error-text">{p.message}</pre>}
      <p>
        FIRST rewrites {files(p.firstTouchesFiles)}; {reads}.
      </p>
      {p.nothingToCommit.map((who) => (
        <p key={who} className="flag">
          {who === 'first' ? 'FIRST' : 'SECOND'} has nothing to commit here:{' '}
          {NOTHING[who === 'first' ? operations.first : operations.second]}.
          {who === 'first' ? ' With no winning commit, SECOND has nothing to conflict with.' : ''}
        </p>
      ))}
      <p className="muted">
        Isolation level: {p.isolationLevel}.
        {p.firstAddsFiles !== undefined ? ` FIRST's commit adds ${files(p.firstAddsFiles)}; its` : " FIRST's"} rewritten
        files are those the data says hold a matching row, and a new file's stats span the files it replaces.
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
  return (
    <ForecastView
      forecast={result.prediction}
      operations={{ first: menuWriter(firstKey).operation, second: menuWriter(secondKey).operation }}
    />
  );
}
