import { type Flag, headline, suggestionSentence } from '../../lib/isolation';

/**
 * One flagged reading as a sentence built from the API's data: what really happens, then the
 * spelling to write instead, then the engine's own explanation.
 */
export function FlagSentence({ flag, detail = true }: { flag: Flag; detail?: boolean }) {
  const { value, interpretation } = flag;
  const advice = suggestionSentence(interpretation);
  return (
    <>
      <strong>{headline(value, interpretation)}</strong>
      {advice && (
        <>
          {' '}
          <strong>{advice}</strong>
        </>
      )}
      {detail && <span className="muted"> {interpretation.message}</span>}
    </>
  );
}
