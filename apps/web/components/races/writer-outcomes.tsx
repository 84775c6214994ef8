/**
 * A run's writers in a table: operation (a command writer's command, program and script by name), outcome (the error, when one failed; "matched no rows: nothing to commit"
 * when a delete or update found nothing to change) and who ran it ("real delta-rs 1.6.6", or "emulated delta-rs"),
 * read version, attempts and writes.
 */
import { nothingToCommitWords } from '@racelab/contracts';
import { formatBytes, libraryRunLabel, countOrDash as n, type RunRow } from '../../lib/races';

export function WriterOutcomes({
  writers,
  commands,
}: {
  writers: RunRow['writers'];
  commands: ReadonlyMap<string, string>;
}) {
  return (
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
        {writers.map((w) => {
          const ranBy = libraryRunLabel(w);
          return (
            <tr key={w.name} data-testid="writer" data-committed={String(w.committed)} data-outcome={w.outcome}>
              <td>
                <strong>{w.name}</strong>
              </td>
              <td>
                {commands.has(w.name) ? <code data-testid="writer-command">{commands.get(w.name)}</code> : w.operation}
              </td>
              <td>
                {w.outcome === 'COMMITTED' ? (
                  <span className="badge ok">committed v{w.version}</span>
                ) : w.outcome === 'NOTHING_TO_COMMIT' ? (
                  // No failure: the writer ended without an error and wrote nothing.
                  <span className="badge words">{nothingToCommitWords(w.operation)}</span>
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
                {ranBy && (
                  <>
                    {' '}
                    <span className="badge words" data-testid="writer-run" data-run={w.run}>
                      {ranBy}
                    </span>
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
          );
        })}
      </tbody>
    </table>
  );
}
