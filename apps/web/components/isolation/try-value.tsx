'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { fetchInterpretations, type Interpretation, MAX_VALUE_LENGTH, rankFlags } from '../../lib/isolation';
import { Failed, Loading } from '../states';
import { EngineReadings } from './engine-readings';
import { FlagSentence } from './flag-summary';

const DEBOUNCE_MS = 250;

/** The value once it has stopped changing for `ms`: one request per pause in typing, not per key. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * A box to type any value into and see every engine's reading of it. Results are shown only for
 * exactly the text in the box (never the previous value's while a new one is on its way), so
 * what is on screen, and what a test reads from data-value, always matches the input.
 */
export function TryValue() {
  const helpId = useId();
  const [draft, setDraft] = useState('');
  const value = useDebounced(draft, DEBOUNCE_MS);
  const askable = value !== '' && value.length <= MAX_VALUE_LENGTH;
  const query = useQuery({
    queryKey: ['isolationLevelInterpretation', value],
    queryFn: async () => (await fetchInterpretations([value])).get(value) ?? [],
    enabled: askable,
  });
  const settled = draft === value;
  const shown = settled && askable ? query.data : undefined;
  const error = settled && askable && query.isError ? query.error : null;
  const loading = draft !== '' && draft.length <= MAX_VALUE_LENGTH && !shown && !error;

  return (
    <>
      <label>
        Try a value
        <input
          type="text"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          maxLength={MAX_VALUE_LENGTH}
          placeholder="e.g. WriteSerializable"
          aria-describedby={helpId}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
        />
      </label>
      <p id={helpId} className="muted">
        Type the value exactly as your job sets <code>delta.isolationLevel</code>: letter case and spaces count.
      </p>
      <div data-testid="interpretation" data-value={shown ? value : undefined} aria-live="polite" aria-busy={loading}>
        <InterpretationResult draft={draft} value={value} settled={settled} error={error} interpretations={shown} />
      </div>
    </>
  );
}

function InterpretationResult({
  draft,
  value,
  settled,
  error,
  interpretations,
}: {
  draft: string;
  value: string;
  settled: boolean;
  error: Error | null;
  interpretations: Interpretation[] | undefined;
}) {
  if (draft === '') return <p className="muted">Each engine&apos;s reading will show here.</p>;
  if (draft.length > MAX_VALUE_LENGTH) {
    return <p className="error-text">At most {MAX_VALUE_LENGTH} characters.</p>;
  }
  if (error) return <Failed error={error} />;
  if (!settled || !interpretations) return <Loading what="each engine's reading" />;
  const flags = rankFlags([value], new Map([[value, interpretations]]));
  const top = flags[0];
  return (
    <>
      {top ? (
        <div className="flag" role="note">
          <FlagSentence flag={top} detail={false} />
          {flags.length > 1 && <span className="muted"> {flags.length - 1} more engine(s) flag it below.</span>}
        </div>
      ) : (
        <p>
          <span className="badge ok">no engine flags this value</span>
        </p>
      )}
      <EngineReadings interpretations={interpretations} caption={`How each engine reads '${value}'`} markRows />
    </>
  );
}
