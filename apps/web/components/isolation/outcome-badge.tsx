import { outcomeLabel, outcomeTone } from '../../lib/isolation';

/** PARSED / SILENTLY_IGNORED / REJECTED as a coloured badge; the raw outcome stays in the title. */
export function OutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <span className={`badge ${outcomeTone(outcome)}`} title={outcome}>
      {outcomeLabel(outcome)}
    </span>
  );
}

/** The mark on a reading the API flags: its author most likely meant something else. */
export function FlagMark() {
  return (
    <span className="badge bad" title="the author most likely meant something else">
      ⚑ flagged
    </span>
  );
}
