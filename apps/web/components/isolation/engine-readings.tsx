import { type Interpretation, suggestionSentence } from '../../lib/isolation';
import { FlagMark, OutcomeBadge } from './outcome-badge';

/**
 * Each engine's reading of one value, a row per engine: outcome, the level commits will use, and
 * in plain words what will happen (with the spelling to write instead when the API flags it).
 * `markRows` adds the data attributes end-to-end tests select on; only one such table per page
 * should carry them, so that a selector like [data-engine="Databricks"] stays unambiguous.
 */
export function EngineReadings({
  interpretations,
  caption,
  markRows = false,
}: {
  interpretations: Interpretation[];
  caption: string;
  markRows?: boolean;
}) {
  return (
    <table className="data">
      <caption className="muted" style={{ textAlign: 'left' }}>
        {caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Engine</th>
          <th scope="col">Outcome</th>
          <th scope="col">Commits use</th>
          <th scope="col">What will happen</th>
        </tr>
      </thead>
      <tbody>
        {interpretations.map((i) => (
          <tr
            key={i.engine}
            {...(markRows && {
              'data-engine': i.engine,
              'data-outcome': i.outcome,
              'data-flagged': String(i.flagged),
            })}
          >
            <td>{i.engine}</td>
            <td>
              <OutcomeBadge outcome={i.outcome} /> {i.flagged && <FlagMark />}
            </td>
            <td>{i.effectiveLevel ?? <span className="muted">none: commits fail</span>}</td>
            <td>
              {i.message}
              {i.flagged && i.suggestion && <strong> {suggestionSentence(i)}</strong>}
              {/* An unflagged reading's error is a note (Delta Spark's DDL refusing a value it reads as meant). */}
              {i.error && <div className={i.flagged ? 'error-text' : 'muted'}>{i.error}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
