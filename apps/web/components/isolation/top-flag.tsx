import type { Flag } from '../../lib/isolation';
import { FlagSentence } from './flag-summary';

/**
 * The one reading to know before anything else, at the top of the page: the most urgent flag (a
 * silent fallback on the engine the lab writes with, e.g. capital-W 'WriteSerializable' on
 * delta-rs), in a sentence built from the API's own interpretation.
 */
export function TopFlag({ flags }: { flags: Flag[] }) {
  const [top] = flags;
  if (!top) return null;
  return (
    <div className="flag callout" role="note" data-testid="isolation-callout">
      <p style={{ margin: 0 }}>
        <FlagSentence flag={top} />
      </p>
      {flags.length > 1 && (
        <p className="muted" style={{ margin: '0.25rem 0 0' }}>
          <a href="#flagged-values">
            {flags.length - 1} more flagged {flags.length === 2 ? 'reading' : 'readings'}
          </a>{' '}
          in the comparison below.
        </p>
      )}
    </div>
  );
}
