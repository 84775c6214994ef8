/**
 * SECOND's fate under each engine, as the playground's prediction and the jobs audit's pairs give it:
 * delta-rs 1.6.x (what races run) and the modelled Delta Spark and Databricks checkers, each of those
 * with its note beside it: Delta Spark's says "measured" (the lab's case and the real run) where real Delta Spark
 * runs agreed with the model, Databricks' always "modelled, not measured".
 */

/** One entry of a forecast's `byEngine`, from the engine's simulation or from the API alike. */
export interface EngineForecastView {
  engine: string;
  isolationLevel: string | null;
  commits: boolean;
  failedCheck: string | null;
  message: string | null;
  note: string | null;
}

const ENGINE_LABEL: Record<string, string> = {
  'delta-rs': 'delta-rs 1.6.x',
  'delta-spark': 'Delta Spark',
  databricks: 'Databricks',
};

export const engineLabel = (engine: string): string => ENGINE_LABEL[engine] ?? engine;

/**
 * One line per engine: its reading of the isolation level, commits or fails, and the note. `own` marks
 * the engine SECOND really runs on, when known; `messages` puts each refusal's text under its line, folded.
 */
export function EngineForecasts({
  entries,
  own,
  messages = false,
}: {
  entries: readonly EngineForecastView[];
  own?: string | null;
  messages?: boolean;
}) {
  return (
    <ul data-testid="by-engine" style={{ listStyle: 'none', padding: 0, margin: '0.25rem 0' }}>
      {entries.map((e) => (
        <li key={e.engine} data-engine={e.engine} data-commits={String(e.commits)} title={e.message ?? undefined}>
          {own === e.engine ? <strong>{engineLabel(e.engine)}</strong> : engineLabel(e.engine)}
          {own === e.engine && ' (its engine)'}, {e.isolationLevel ?? 'level unreadable'}:{' '}
          <span className={`badge ${e.commits ? 'ok' : 'bad'}`}>
            {e.commits ? 'commits' : e.failedCheck ? `fails: ${e.failedCheck}` : 'fails'}
          </span>
          {e.note && <span className="muted"> ({e.note})</span>}
          {messages && e.message && (
            <details>
              <summary className="muted">its error</summary>
              <pre className="mono" style={{ whiteSpace: 'pre-wrap', fontSize: '0.8rem', margin: '0.2rem 0 0.4rem' }}>
                {e.message}
              </pre>
            </details>
          )}
        </li>
      ))}
    </ul>
  );
}
