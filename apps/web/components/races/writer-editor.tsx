'use client';
/**
 * The writers of a custom race, one fieldset each: what it does, and how it retries and waits. The
 * operations, days and bounds are the race input's schema's (@racelab/contracts), and a draft
 * (lib/writer-draft.ts) becomes that schema's WriterInput. On the lab's tables an append (overwrite, check-then-append) adds a
 * February day; on a table of one's own it adds the rows of a Parquet file or a sample of the table itself.
 */
import {
  DAY_OPERATIONS,
  FEB_DAYS,
  MAX_COMMIT_RETRIES,
  MAX_RETRY_LOOP,
  MAX_SAMPLE_ROWS,
  MAX_WRITERS,
  WRITER_OPERATIONS,
} from '@racelab/contracts';
import { type DraftWriter, newWriter, takesPredicate } from '../../lib/writer-draft';

export function WriterEditor({
  writers,
  onChange,
  ownTable = false,
}: {
  writers: DraftWriter[];
  onChange: (w: DraftWriter[]) => void;
  /** The race is on a table of the user's own: rows come from a file or a sample, not a day. */
  ownTable?: boolean;
}) {
  const update = (key: number, patch: Partial<DraftWriter>) =>
    onChange(writers.map((w) => (w.key === key ? { ...w, ...patch } : w)));
  return (
    <div className="list">
      {writers.map((w, i) => (
        <fieldset key={w.key}>
          <legend>Writer {i + 1}</legend>
          <div className="row">
            <label>
              Name
              <input value={w.name} onChange={(e) => update(w.key, { name: e.target.value })} />
            </label>
            <label>
              Operation
              <select value={w.operation} onChange={(e) => update(w.key, { operation: e.target.value })}>
                {WRITER_OPERATIONS.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </label>
            {DAY_OPERATIONS.includes(w.operation) && ownTable && (
              <label>
                Rows from
                <select
                  value={w.rowsFrom}
                  onChange={(e) => update(w.key, { rowsFrom: e.target.value as DraftWriter['rowsFrom'] })}
                >
                  <option value="sample">a sample of the table</option>
                  <option value="file">a Parquet file</option>
                </select>
              </label>
            )}
            {DAY_OPERATIONS.includes(w.operation) && ownTable && w.rowsFrom === 'sample' && (
              <label>
                Rows
                <input
                  type="number"
                  min={1}
                  max={MAX_SAMPLE_ROWS}
                  value={w.sample}
                  onChange={(e) => update(w.key, { sample: e.target.value })}
                />
              </label>
            )}
            {DAY_OPERATIONS.includes(w.operation) && ownTable && w.rowsFrom === 'file' && (
              <label>
                Parquet file
                <input
                  value={w.sourceLocation}
                  placeholder="a path under the API's table roots"
                  onChange={(e) => update(w.key, { sourceLocation: e.target.value })}
                />
              </label>
            )}
            {DAY_OPERATIONS.includes(w.operation) && !ownTable && (
              <label>
                Day
                <select value={w.day} onChange={(e) => update(w.key, { day: e.target.value })}>
                  {FEB_DAYS.map((d) => (
                    <option key={d}>{d}</option>
                  ))}
                </select>
              </label>
            )}
            <label>
              Starts after
              <select value={w.startAfter} onChange={(e) => update(w.key, { startAfter: e.target.value })}>
                <option value="">the barrier (with the others)</option>
                {writers
                  .filter((o) => o.key !== w.key)
                  .map((o) => (
                    <option key={o.key} value={o.name}>
                      {o.name} has committed
                    </option>
                  ))}
              </select>
            </label>
          </div>
          {takesPredicate(w.operation, ownTable) && (
            <label>
              Predicate
              <input value={w.predicate} onChange={(e) => update(w.key, { predicate: e.target.value })} />
            </label>
          )}
          {w.operation === 'update' && (
            <label>
              Set (one "column = expression" a line)
              <textarea rows={2} value={w.set} onChange={(e) => update(w.key, { set: e.target.value })} />
            </label>
          )}
          <div className="row">
            <label>
              max commit retries
              <input
                type="number"
                min={0}
                max={MAX_COMMIT_RETRIES}
                placeholder="15"
                value={w.maxCommitRetries}
                onChange={(e) => update(w.key, { maxCommitRetries: e.target.value })}
              />
            </label>
            <label>
              retry loop attempts
              <input
                type="number"
                min={1}
                max={MAX_RETRY_LOOP}
                placeholder="none"
                value={w.retryLoopAttempts}
                onChange={(e) => update(w.key, { retryLoopAttempts: e.target.value })}
              />
            </label>
            {w.operation === 'append' && (
              <label className="row">
                <input
                  type="checkbox"
                  checked={w.blindAppend}
                  onChange={(e) => update(w.key, { blindAppend: e.target.checked })}
                />
                blind append
              </label>
            )}
            <button
              type="button"
              className="secondary"
              onClick={() => onChange(writers.filter((x) => x.key !== w.key))}
              disabled={writers.length <= 2}
              title={writers.length <= 2 ? 'a race needs at least 2 writers' : undefined}
            >
              Remove writer
            </button>
          </div>
        </fieldset>
      ))}
      <div>
        <button
          type="button"
          className="secondary"
          onClick={() => onChange([...writers, newWriter(`writer${writers.length + 1}`)])}
          disabled={writers.length >= MAX_WRITERS}
        >
          Add a writer
        </button>
        {writers.length >= MAX_WRITERS && (
          <span className="muted" data-testid="disabled-why">
            {' '}
            a race has at most {MAX_WRITERS} writers
          </span>
        )}
      </div>
    </div>
  );
}
