'use client';
/** The writers of a custom race, one fieldset each: what it does, and how it retries and waits. */

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

const OPERATIONS = ['update', 'delete', 'append', 'overwrite', 'check-then-append', 'optimize'];
const DAYS = ['2025-02-01', '2025-02-02', '2025-02-14'];
const NEEDS_DAY = new Set(['append', 'overwrite', 'check-then-append']);
const NEEDS_PREDICATE = new Set(['update', 'delete']);

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
export function toWriterInput(w: DraftWriter) {
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
    ...(NEEDS_PREDICATE.has(w.operation) && { predicate: w.predicate }),
    ...(w.operation === 'update' && { set }),
    ...(NEEDS_DAY.has(w.operation) && { day: w.day }),
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
                {OPERATIONS.map((o) => (
                  <option key={o}>{o}</option>
                ))}
              </select>
            </label>
            {NEEDS_DAY.has(w.operation) && (
              <label>
                Day
                <select value={w.day} onChange={(e) => update(w.key, { day: e.target.value })}>
                  {DAYS.map((d) => (
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
          {NEEDS_PREDICATE.has(w.operation) && (
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
                max={100}
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
                max={20}
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
          disabled={writers.length >= 8}
        >
          Add a writer
        </button>
      </div>
    </div>
  );
}
