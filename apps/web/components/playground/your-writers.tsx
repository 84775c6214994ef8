/**
 * "Your table"'s two writers: for each, its operation, predicate and (for an update) its SET lines, with the
 * API's refusals of each field under it.
 */
import type { FieldProblems as Problems } from '../../lib/playground/field-problems';
import {
  PLAYGROUND_OPERATIONS,
  type PlaygroundOperation,
  type PlaygroundWriter,
  WHO,
  WHO_LABEL,
  type Who,
} from '../../lib/playground/your-table';

/** Messages under a field, each its own line, read out when they appear. */
export function FieldProblems({ messages, testId }: { messages: readonly string[]; testId: string }) {
  if (messages.length === 0) return null;
  return (
    <span className="error-text" role="alert" data-testid={testId} style={{ display: 'block', margin: '0.2rem 0 0' }}>
      {messages.join('\n')}
    </span>
  );
}

export function YourWriters({
  writers,
  problems,
  onChange,
  onSubmit,
}: {
  writers: Record<Who, PlaygroundWriter>;
  problems: Problems;
  onChange: (who: Who, patch: Partial<PlaygroundWriter>) => void;
  onSubmit: () => void;
}) {
  return (
    <form
      className="panel stack"
      aria-label="Two writers on your table"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <div className="grid-2">
        {WHO.map((who) => {
          const w = writers[who];
          return (
            <fieldset key={who}>
              <legend>
                {WHO_LABEL[who]} writer {who === 'first' ? '(commits first)' : '(commits after)'}
              </legend>
              <label htmlFor={`your-${who}-operation`}>
                Operation
                <select
                  id={`your-${who}-operation`}
                  value={w.operation}
                  onChange={(e) => onChange(who, { operation: e.target.value as PlaygroundOperation })}
                >
                  {PLAYGROUND_OPERATIONS.map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              </label>
              {w.operation !== 'optimize' && (
                <label htmlFor={`your-${who}-predicate`}>
                  Predicate
                  <input
                    id={`your-${who}-predicate`}
                    value={w.predicate}
                    placeholder="e.g. id < 100"
                    onChange={(e) => onChange(who, { predicate: e.target.value })}
                    aria-invalid={problems.predicate[who].length > 0}
                  />
                  <FieldProblems testId={`your-${who}-predicate-problem`} messages={problems.predicate[who]} />
                </label>
              )}
              {w.operation === 'update' && (
                <label htmlFor={`your-${who}-set`}>
                  Set (one &quot;column = expression&quot; a line)
                  <textarea
                    id={`your-${who}-set`}
                    rows={2}
                    value={w.set}
                    onChange={(e) => onChange(who, { set: e.target.value })}
                    aria-invalid={problems.set[who].length > 0}
                  />
                  <FieldProblems testId={`your-${who}-set-problem`} messages={problems.set[who]} />
                </label>
              )}
            </fieldset>
          );
        })}
      </div>
      <div>
        <button type="submit">Count and forecast</button>
      </div>
    </form>
  );
}
