/**
 * What a run's table holds afterwards: rows (and trip ids written twice, on the lab's tables), files on disk and
 * in the log, zombie files a failed writer left, staging and temporary log leftovers, files a commit removed, and
 * the lab's per-vendor tips and per-day trips.
 */

import { agree, plural } from '@racelab/contracts';
import { formatBytes, countOrDash as n, type RunRow } from '../../lib/races';

export function TableAfter({ table: t, writers }: { table: NonNullable<RunRow['table']>; writers: RunRow['writers'] }) {
  // A loser's files were written and never committed: no log entry names them (zombies). The
  // other files on disk but not in the log are those a commit removed, kept until vacuum.
  const losers = writers.filter((w) => !w.committed && (w.filesWritten ?? 0) > 0);
  const zombies = losers.reduce((sum, w) => sum + (w.filesWritten ?? 0), 0);
  const extra = t.dataFilesOnDisk !== null && t.dataFilesInLog !== null ? t.dataFilesOnDisk - t.dataFilesInLog : 0;
  const removed = Math.max(0, extra - zombies);
  return (
    <div data-testid="table-check">
      <h4>The table afterwards</h4>
      <ul>
        <li>
          {n(t.rows)} {agree(t.rows, 'row', 'rows')}
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
              {plural(zombies, 'zombie file')}
            </span>{' '}
            left by{' '}
            {losers
              .map((w) => `${w.name} (${plural(w.filesWritten ?? 0, 'file')}, ${formatBytes(w.bytesWritten)})`)
              .join(', ')}
            : written, never committed, invisible to readers; vacuum deletes them
          </li>
        )}
        {((t.stagingFilesOnDisk ?? 0) > 0 || (t.tempLogFilesOnDisk ?? 0) > 0) && (
          <li data-testid="leftovers">
            <span className="badge warn">left behind</span> {plural(t.stagingFilesOnDisk ?? 0, 'staging file')} and{' '}
            {plural(t.tempLogFilesOnDisk ?? 0, 'temporary log file')}: a writer stopped at work left them beside the
            table
          </li>
        )}
        {removed > 0 && (
          <li className="muted">{plural(removed, 'file')} removed by a commit, kept for time travel until vacuum</li>
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
  );
}
