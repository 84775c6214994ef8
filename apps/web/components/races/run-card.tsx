/** One run: its verdict first, then the writers' outcomes, their timeline, the run's log, and what the table holds after. */
import { formatBytes, type RunRow, runPattern } from '../../lib/races';
import { StatusBadge } from '../states';
import { Timeline } from './timeline';
import { Verdict } from './verdict';

const n = (v: number | null | undefined) => (v === null || v === undefined ? '–' : v.toLocaleString('en-US'));

export function RunCard({ run }: { run: RunRow }) {
  const t = run.table;
  // A loser's files were written and never committed: no log entry names them (zombies). The
  // other files on disk but not in the log are those a commit removed, kept until vacuum.
  const losers = run.writers.filter((w) => !w.committed && (w.filesWritten ?? 0) > 0);
  const zombies = losers.reduce((n, w) => n + (w.filesWritten ?? 0), 0);
  const extra = t && t.dataFilesOnDisk !== null && t.dataFilesInLog !== null ? t.dataFilesOnDisk - t.dataFilesInLog : 0;
  const removed = Math.max(0, extra - zombies);
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
      <table className="data">
        <thead>
          <tr>
            <th>Writer</th>
            <th>Operation</th>
            <th>Outcome</th>
            <th className="num">Read v</th>
            <th className="num">Attempts</th>
            <th className="num">Commit retries</th>
            <th className="num">Written</th>
          </tr>
        </thead>
        <tbody>
          {run.writers.map((w) => (
            <tr key={w.name} data-testid="writer" data-committed={String(w.committed)}>
              <td>
                <strong>{w.name}</strong>
              </td>
              <td>{w.operation}</td>
              <td>
                {w.committed ? (
                  <span className="badge ok">committed v{w.version}</span>
                ) : (
                  <>
                    <span className="badge bad">{w.errorClass ?? 'failed'}</span>
                    {w.errorMessage && (
                      <p className="error-text" data-testid="error-message">
                        {w.errorMessage}
                      </p>
                    )}
                  </>
                )}
              </td>
              <td className="num">{n(w.readVersion)}</td>
              <td className="num">{w.attempts}</td>
              <td className="num">{n(w.commitRetries)}</td>
              <td className="num">
                {n(w.filesWritten)} file{w.filesWritten === 1 ? '' : 's'} · {formatBytes(w.bytesWritten)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
        {t && (
          <div data-testid="table-check">
            <h4>The table afterwards</h4>
            <ul>
              <li>
                {n(t.rows)} rows
                {/* Trip ids are the lab tables'; a table of one's own has none to count. */}
                {t.distinctTripIds !== null && `, ${n(t.distinctTripIds)} distinct trip ids`}
                {t.distinctTripIds !== null && t.distinctTripIds < t.rows && (
                  <span className="badge bad"> {n(t.rows - t.distinctTripIds)} written twice</span>
                )}
              </li>
              <li>
                {n(t.dataFilesOnDisk)} Parquet files on disk, {n(t.dataFilesInLog)} named by the log
              </li>
              {zombies > 0 && (
                <li>
                  <span className="badge warn" data-testid="zombies">
                    {zombies} zombie file{zombies === 1 ? '' : 's'}
                  </span>{' '}
                  left by{' '}
                  {losers.map((w) => `${w.name} (${n(w.filesWritten)}, ${formatBytes(w.bytesWritten)})`).join(', ')}:
                  written, never committed, invisible to readers; vacuum deletes them
                </li>
              )}
              {((t.stagingFilesOnDisk ?? 0) > 0 || (t.tempLogFilesOnDisk ?? 0) > 0) && (
                <li data-testid="leftovers">
                  <span className="badge warn">left behind</span> {n(t.stagingFilesOnDisk ?? 0)} staging file
                  {t.stagingFilesOnDisk === 1 ? '' : 's'} and {n(t.tempLogFilesOnDisk ?? 0)} temporary log file
                  {t.tempLogFilesOnDisk === 1 ? '' : 's'}: a writer stopped at work left them beside the table
                </li>
              )}
              {removed > 0 && (
                <li className="muted">
                  {removed} file{removed === 1 ? '' : 's'} removed by a commit, kept for time travel until vacuum
                </li>
              )}
              {t.tipDeltaByVendor.length > 0 && (
                <li>
                  tips changed by VendorID:{' '}
                  {t.tipDeltaByVendor.map((kv) => `${kv.key}: +${Number(kv.value).toLocaleString('en-US')}`).join(', ')}
                </li>
              )}
              {t.tripsOnDay.length > 0 && (
                <li>
                  trips per day:{' '}
                  {t.tripsOnDay.map((kv) => `${kv.key}: ${Number(kv.value).toLocaleString('en-US')}`).join(', ')}
                </li>
              )}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}
