'use client';
import { useEffect, useState } from 'react';

/** The current time, renewed every `intervalMs`, so that "2 min ago" keeps telling the truth. */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * "2 min. ago" in the user's locale. Never in the future: the server's clock and a `now` up to one
 * interval old can both put a fresh audit a few seconds ahead.
 */
export function relativeTime(at: number, now: number): string {
  const seconds = Math.min(0, Math.round((at - now) / 1000));
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** Who started a stored thing, as the API describes them; null for things stored before that was recorded. */
export type StartedBy = { description: string } | null;

/**
 * When an audit, probe or sweep ran: the date and time in the user's locale, how long ago, and who started
 * it (a token, or a dashboard session and how it signed in).
 */
export function CheckedAt({ iso, now, by }: { iso: string; now: number; by?: StartedBy }) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return <span className="muted">{iso}</span>;
  const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  return (
    <time dateTime={iso} title={new Date(at).toISOString()}>
      {absolute}
      <br />
      <span className="muted">{relativeTime(at, now)}</span>
      {by && (
        <span className="muted" data-testid="started-by">
          <br />
          by {by.description}
        </span>
      )}
    </time>
  );
}
