import { engineNames, type Flag, type Interpretation, suggestionSentence } from '../../lib/isolation';
import { FlagMark, OutcomeBadge } from './outcome-badge';
import { ValueLabel } from './value-label';

/** Every compared value against every engine: the outcome and the level commits will really use. */
export function ComparisonTable({
  values,
  byValue,
  flags,
}: {
  values: string[];
  byValue: Map<string, Interpretation[]>;
  flags: Flag[];
}) {
  const engines = engineNames(values, byValue);
  return (
    <>
      <table className="data" data-testid="isolation-comparison">
        <thead>
          <tr>
            <th scope="col">Value</th>
            {engines.map((engine) => (
              <th scope="col" key={engine}>
                {engine}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {values.map((value) => {
            const readings = byValue.get(value) ?? [];
            return (
              <tr key={value} data-compared-value={value}>
                <td>
                  <ValueLabel value={value} /> {readings.some((r) => r.flagged) && <FlagMark />}
                </td>
                {engines.map((engine) => (
                  <ComparisonCell key={engine} reading={readings.find((r) => r.engine === engine)} />
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <FlagList flags={flags} />
    </>
  );
}

function ComparisonCell({ reading }: { reading: Interpretation | undefined }) {
  if (!reading) return <td className="muted">not reported</td>;
  return (
    <td title={reading.message}>
      <OutcomeBadge outcome={reading.outcome} />
      {reading.flagged && (
        <span role="img" aria-label="flagged" title="flagged">
          {' '}
          ⚑
        </span>
      )}
      <div className="muted">{reading.effectiveLevel ? `→ ${reading.effectiveLevel}` : 'commits fail'}</div>
    </td>
  );
}

/**
 * A box per flagged value, most urgent first: for each engine that flags it, one sentence on what
 * will really happen and the spelling to write instead.
 */
function FlagList({ flags }: { flags: Flag[] }) {
  if (flags.length === 0) return null;
  const byValue = new Map<string, Interpretation[]>();
  for (const { value, interpretation } of flags) byValue.set(value, [...(byValue.get(value) ?? []), interpretation]);
  return (
    <>
      <h3 id="flagged-values">Flagged values</h3>
      {[...byValue].map(([value, readings]) => (
        <div className="flag" key={value} data-flagged-value={value}>
          <ValueLabel value={value} />
          <ul>
            {readings.map((r) => (
              <li key={r.engine}>
                <strong>{r.engine}:</strong> {r.message}
                {r.suggestion && <strong> {suggestionSentence(r)}</strong>}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
