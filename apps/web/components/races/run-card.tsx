/** One run: its verdict first, then the writers' outcomes, their timeline, the run's log, and what the table holds after. */
import { type RunRow, runPattern } from '../../lib/races';
import { StatusBadge } from '../states';
import { TableAfter } from './table-after';
import { Timeline } from './timeline';
import { Verdict } from './verdict';
import { WriterOutcomes } from './writer-outcomes';

/** `commands`: the race's command writers in words, by name (writerCommands). */
export function RunCard({ run, commands }: { run: RunRow; commands: ReadonlyMap<string, string> }) {
  return (
    <section className="panel" aria-labelledby={`run-${run.index}`} data-testid="run">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h3 id={`run-${run.index}`}>
          Run {run.index} <StatusBadge status={run.status} />
        </h3>
        <span className="muted">
          {run.writers.length > 0 && runPattern(run.writers)}
          {run.durationMs !== null && ` · ${(run.durationMs / 1000).toFixed(1)} s`}
        </span>
      </div>
      {run.verdict && <Verdict verdict={run.verdict} />}
      {run.reason && <p className="error-text">{run.reason}</p>}
      <WriterOutcomes writers={run.writers} commands={commands} />
      <Timeline writers={run.writers} run={run.index} />
      <div className="legend" aria-hidden="true">
        <span>
          <i style={{ background: '#c9d0da' }} />
          open and prepare
        </span>
        <span>
          <i style={{ background: '#9fb4e6' }} />
          wait at the barrier
        </span>
        <span>
          <i style={{ background: '#2e9b55' }} />
          commit
        </span>
        <span>
          <i style={{ background: '#d2453b' }} />
          failure
        </span>
        <span>
          <i style={{ background: '#5d6b7c' }} />
          nothing to commit
        </span>
      </div>
      <div className="grid-2">
        <div>
          <h4>The run&apos;s log</h4>
          {run.commitLog.length === 0 ? (
            <p className="muted">No commit after version 0.</p>
          ) : (
            <ol>
              {run.commitLog.map((e) => (
                <li key={e.position}>
                  version {e.version ?? '?'}: <strong>{e.writer}</strong> ({e.operation})
                </li>
              ))}
            </ol>
          )}
        </div>
        {run.table && <TableAfter table={run.table} writers={run.writers} />}
      </div>
    </section>
  );
}
