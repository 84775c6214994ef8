/**
 * A run's verdict, shown before anything else about the run: did the table end as a serial order of the
 * committed writers would leave it? Where it did not, what differs: the row counts, each writer's change
 * missing or doubled, and a few of the rows. A failed writer's check says what it left untouched; a writer with
 * nothing to commit (a delete or update that matched no rows) is said apart, as no failure.
 */
import { type RaceSummary, VERDICT_LABEL, type VerdictRow, verdictTone } from '../../lib/races';

const n = (v: number | null) => (v === null ? '–' : v.toLocaleString('en-US'));

function Differences({ verdict: v }: { verdict: VerdictRow }) {
  const doubtful = v.writers.filter((w) => w.notApplied || w.appliedTwice);
  return (
    <div data-testid="verdict-differences">
      <table className="data">
        <caption>What differs from the serial result</caption>
        <tbody>
          <tr data-figure="rowsDuplicated">
            <th>Rows written twice</th>
            <td className="num">{n(v.rowsDuplicated)}</td>
          </tr>
          <tr data-figure="rowsMissing">
            <th>Rows missing</th>
            <td className="num">{n(v.rowsMissing)}</td>
          </tr>
          <tr data-figure="rowsExtra">
            <th>Rows not in the serial result</th>
            <td className="num">{n(v.rowsExtra)}</td>
          </tr>
          {doubtful.map((w) => (
            <tr key={w.name}>
              <th>{w.name}</th>
              <td>
                {[w.notApplied && 'its change is missing', w.appliedTwice && 'its change is there twice']
                  .filter(Boolean)
                  .join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {v.examples.length > 0 && <Examples examples={v.examples} />}
    </div>
  );
}

function Examples({ examples }: { examples: VerdictRow['examples'] }) {
  const columns = [...new Set(examples.flatMap((e) => e.row.map((c) => c.key)))];
  return (
    <div className="scroll-x">
      <table className="data" data-testid="verdict-examples">
        <caption>Some of those rows</caption>
        <thead>
          <tr>
            <th>Row</th>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {examples.map((e) => {
            const values = new Map(e.row.map((c) => [c.key, c.value]));
            return (
              <tr key={`${e.kind}:${JSON.stringify(e.row)}`}>
                <td>{e.kind}</td>
                {columns.map((c) => (
                  <td key={c}>{values.get(c) ?? '–'}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A race's verdicts in one line, toned by the worst of them. */
export function VerdictSummary({ race }: { race: Pick<RaceSummary, 'verdictSummary' | 'verdictStatus'> }) {
  return (
    <span className={`badge words ${verdictTone(race.verdictStatus ?? '')}`} data-testid="verdict-summary">
      {race.verdictSummary}
    </span>
  );
}

export function Verdict({ verdict: v }: { verdict: VerdictRow }) {
  return (
    <div className="verdict" data-testid="verdict" data-status={v.status}>
      <p>
        <span className={`badge ${verdictTone(v.status)}`}>{VERDICT_LABEL[v.status] ?? v.status}</span>{' '}
        <strong>{v.summary}</strong>
      </p>
      {v.failedWriters.length > 0 && (
        <ul data-testid="failed-writers">
          {v.failedWriters.map((f) => (
            <li key={f.name}>
              {!f.untouched && <span className="badge bad">changed</span>} {f.summary}
            </li>
          ))}
        </ul>
      )}
      {v.nothingToCommit.length > 0 && (
        <ul data-testid="nothing-to-commit">
          {v.nothingToCommit.map((w) => (
            <li key={w.name}>{w.summary}</li>
          ))}
        </ul>
      )}
      {v.status === 'not-serializable' && <Differences verdict={v} />}
    </div>
  );
}
