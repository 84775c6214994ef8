'use client';
/**
 * The writers of a custom race, one fieldset each: what it does, and how it retries and waits. The
 * operations, days and bounds are the race input's schema's (@racelab/contracts), and a draft
 * becomes that schema's WriterInput.
 */
import {
  DAY_OPERATIONS,
  FEB_DAYS,
  MAX_COMMIT_RETRIES,
  MAX_RETRY_LOOP,
  MAX_WRITERS,
  PREDICATE_OPERATIONS,
  WRITER_OPERATIONS,
  type WriterInput,
} from '@racelab/contracts';

export interface DraftWriter {
  key: number;
  name: string;
  operation: string;
  predicate: string;
  set: string;
  day: string;
  maxCommitRetries: string;
  retryLoopAttempts: string;
  blindAppend: boolean;
  startAfter: string;
}

let nextKey = 1;
export function newWriter(name: string, preset: 'update-1' | 'update-2' | 'append' = 'append'): DraftWriter {
  const vendor = preset === 'update-1' ? 1 : 2;
  return {
    key: nextKey++,
    name,
    operation: preset === 'append' ? 'append' : 'update',
    predicate: preset === 'append' ? '' : `VendorID = ${vendor}`,
    set: preset === 'append' ? '' : 'tip_amount = tip_amount + 1',
    day: '2025-02-01',
    maxCommitRetries: '',
    retryLoopAttempts: '',
    blindAppend: false,
    startAfter: '',
  };
}

/** The API's WriterInput: `set` lines "column = expression" become key/value pairs. */
export function toWriterInput(w: DraftWriter): WriterInput {
  const set = w.set
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const at = l.indexOf('=');
      return { key: l.slice(0, at).trim(), value: l.slice(at + 1).trim() };
    });
  return {
    name: w.name,
    operation: w.operation,
    ...(PREDICATE_OPERATIONS.includes(w.operation) && { predicate: w.predicate }),
    ...(w.operation === 'update' && { set }),
    ...(DAY_OPERATIONS.includes(w.operation) && { day: w.day }),
    ...(w.maxCommitRetries !== '' && { maxCommitRetries: Number(w.maxCommitRetries) }),
    ...(w.retryLoopAttempts !== '' && { retryLoopAttempts: Number(w.retryLoopAttempts) }),
    ...(w.operation === 'append' && w.blindAppend && { blindAppend: true }),
    ...(w.startAfter !== '' && { startAfter: w.startAfter }),
  };
}

export function WriterEditor({ writers, onChange }: { writers: DraftWriter[]; onChange: (w: DraftWriter[]) => void }) {
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
            {DAY_OPERATIONS.includes(w.operation) && (
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
          {PREDICATE_OPERATIONS.includes(w.operation) && (
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
      </div>
    </div>
  );
}
