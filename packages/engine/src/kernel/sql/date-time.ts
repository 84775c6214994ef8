/**
 * Dates and timestamps without `Date`: a date is its canonical 'YYYY-MM-DD' text (which sorts
 * chronologically as a string) and a timestamp is a bigint of microseconds since 1970-01-01, so
 * microsecond stats and literals compare exactly. Civil-date arithmetic is H. Hinnant's, exact for
 * every year (Date.UTC would map years 0-99 to 1900-1999).
 */

export const MICROS_PER_DAY = 86_400_000_000n;
const MICROS_PER_SECOND = 1_000_000n;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number | bigint, width = 2): string => String(n).padStart(width, '0');

function daysToDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/** Days since the epoch of a 'YYYY-MM-DD' that must already be valid (see parseDate). */
function dateToDays(date: string): number {
  return daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const [y2, m2, d2] = civilFromDays(daysFromCivil(y, m, d));
  return y2 === y && m2 === m && d2 === d;
}

/** The canonical 'YYYY-MM-DD', or null when `text` is not a valid calendar date in that form. */
export function parseDate(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m && validDate(Number(m[1]), Number(m[2]), Number(m[3])) ? text : null;
}

const TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses both forms the Delta log uses, 'YYYY-MM-DD HH:MM:SS[.f]' (timestamp_ntz stats, partition
 * values) and ISO 'YYYY-MM-DDTHH:MM:SS[.f]Z' (timestamp stats), plus a bare date. A zone offset is
 * folded in, so the result is UTC. Fractions beyond microseconds are truncated; `fractionDigits`
 * tells callers how precise the text was.
 */
export function parseTimestamp(text: string): { micros: bigint; fractionDigits: number } | null {
  const m = TIMESTAMP_RE.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  const fraction = m[7] ?? '';
  let micros =
    BigInt(daysFromCivil(y, mo, d)) * MICROS_PER_DAY +
    BigInt((h * 60 + mi) * 60 + s) * MICROS_PER_SECOND +
    BigInt(fraction.slice(0, 6).padEnd(6, '0'));
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
    micros -= BigInt((zone[0] === '-' ? -1 : 1) * offsetMinutes * 60) * MICROS_PER_SECOND;
  }
  return { micros, fractionDigits: fraction.length };
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/** 'YYYY-MM-DD HH:MM:SS', with '.ffffff' only when there are microseconds: DuckDB's literal form. */
export function formatTimestamp(micros: bigint): string {
  const days = floorDiv(micros, MICROS_PER_DAY);
  const inDay = micros - days * MICROS_PER_DAY;
  const seconds = inDay / MICROS_PER_SECOND;
  const fraction = inDay % MICROS_PER_SECOND;
  const time = `${pad(seconds / 3600n)}:${pad((seconds / 60n) % 60n)}:${pad(seconds % 60n)}`;
  return `${daysToDate(Number(days))} ${time}${fraction ? `.${pad(fraction, 6)}` : ''}`;
}

/** The calendar day of a timestamp, read in UTC. */
export function timestampToDate(micros: bigint): string {
  return daysToDate(Number(floorDiv(micros, MICROS_PER_DAY)));
}

/** Midnight at the start of a valid 'YYYY-MM-DD'. */
export function dateToTimestamp(date: string): bigint {
  return BigInt(dateToDays(date)) * MICROS_PER_DAY;
}
