/**
 * Standard 5-field cron, read only to tell which jobs of a manifest can run at the same time.
 * Everything is UTC: a manifest names no time zone, and two jobs overlap or not in one clock.
 *
 * Read here, not by cron-parser (v5), because it reads cron otherwise than cron daemons do where the
 * answer depends on it: `0 0 *\/2 * MON` runs on every odd day and every Monday (cronie: odd Mondays),
 * `0 0 30 2 *` and a list naming a minute twice are refused, `L`, `W`, `#`, `?`, `H` and `5/15` are
 * accepted, and its errors do not say which field is wrong.
 */

import { MAX_DURATION_MINUTES } from '@racelab/contracts';

export class CronError extends Error {
  override name = 'CronError';
}

export interface Cron {
  readonly source: string;
  /** Sorted, unique values of each field. */
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: readonly number[];
  /** 1–12. */
  readonly months: readonly number[];
  /** 0–6, 0 = Sunday (7 is folded into 0). */
  readonly daysOfWeek: readonly number[];
  /**
   * Whether the field was written without a leading `*`. As in Vixie cron and cronie, only when
   * both day fields are restricted does a day match if EITHER matches; `*`/`*\/n` keeps AND.
   */
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
}

export interface Window {
  start: Date;
  end: Date;
}

export interface ScheduledRun {
  cron: Cron | string;
  maxDurationMinutes: number;
}

/**
 * The week `overlaps` looks at. A Monday that is also the 1st of a month, so that the most common
 * monthly schedule (`0 0 1 * *`) falls inside the default 7-day window.
 */
export const REFERENCE_WEEK_START = '2026-06-01T00:00:00.000Z';

/**
 * The longest run the schedule rules accept: the 7 days they look at, as the jobs manifest's schema
 * bounds it. A longer run overlaps every run of every other job and says nothing more, while each
 * extra day of duration is another day of runs to walk (a million minutes of `* * * * *` is a
 * million runs; a hundred million ran out of heap).
 */
export { MAX_DURATION_MINUTES };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

interface FieldSpec {
  label: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { label: 'minute', min: 0, max: 59 },
  { label: 'hour', min: 0, max: 23 },
  { label: 'day-of-month', min: 1, max: 31 },
  {
    label: 'month',
    min: 1,
    max: 12,
    names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
  },
  // 7 is accepted as Sunday because both conventions are in the wild.
  { label: 'day-of-week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export function parseCron(expr: string): Cron {
  const source = expr.trim();
  if (source === '') throw new CronError('cron expression is empty');
  const expanded = source.startsWith('@') ? expandMacro(source) : source;
  const parts = expanded.split(/\s+/);
  if (parts.length !== FIELDS.length) {
    throw new CronError(
      `cron '${source}': expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`,
    );
  }
  const values = parts.map((part, i) => parseField(source, part, FIELDS[i] as FieldSpec));
  const [minutes, hours, daysOfMonth, months, weekdays] = values as [number[], number[], number[], number[], number[]];
  return {
    source,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek: unique(weekdays.map((d) => d % 7)),
    dayOfMonthRestricted: !parts[2]?.startsWith('*'),
    dayOfWeekRestricted: !parts[4]?.startsWith('*'),
  };
}

function expandMacro(source: string): string {
  const expanded = MACROS[source.toLowerCase()];
  if (expanded === undefined) {
    throw new CronError(`cron '${source}': unknown macro (known: ${Object.keys(MACROS).join(', ')})`);
  }
  return expanded;
}

function parseField(source: string, field: string, spec: FieldSpec): number[] {
  const values: number[] = [];
  for (const item of field.split(',')) {
    if (item === '') throw new CronError(`cron '${source}': empty list item in ${spec.label} field '${field}'`);
    values.push(...parseItem(source, item, spec));
  }
  return unique(values);
}

/** One list item: `*`, `n`, `a-b`, `*\/n` or `a-b/n`. */
function parseItem(source: string, item: string, spec: FieldSpec): number[] {
  const fail = (why: string): never => {
    throw new CronError(`cron '${source}': ${spec.label} ${why}`);
  };
  const [range = '', step, ...rest] = item.split('/');
  if (rest.length > 0) fail(`'${item}' has more than one '/'`);
  let low: number;
  let high: number;
  if (range === '*') {
    [low, high] = [spec.min, spec.max];
  } else if (range.includes('-')) {
    const [a = '', b = '', ...more] = range.split('-');
    if (more.length > 0) fail(`'${item}' is not a range a-b`);
    [low, high] = [parseValue(a, spec, fail), parseValue(b, spec, fail)];
    if (low > high) fail(`range '${range}' runs backwards (wrap-around ranges are not supported)`);
  } else {
    const value = parseValue(range, spec, fail);
    // Vixie cron rejects `5/15` too; accepting it would mean guessing what the writer meant.
    if (step !== undefined) fail(`'${item}': a step needs a range or * (e.g. '${range}-${spec.max}/${step}')`);
    return [value];
  }
  const by = step === undefined ? 1 : parseStep(step, spec, fail);
  const values: number[] = [];
  for (let v = low; v <= high; v += by) values.push(v);
  return values;
}

function parseValue(text: string, spec: FieldSpec, fail: (why: string) => never): number {
  const nameIndex = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (nameIndex >= 0) return nameIndex + spec.min;
  if (text === '') return fail('value is missing');
  if (!/^\d+$/.test(text)) {
    const names = spec.names ? ` or a name ${spec.names[0]}–${spec.names.at(-1)}` : '';
    return fail(`'${text}' is not a number${names}`);
  }
  const value = Number(text);
  if (value < spec.min || value > spec.max) fail(`${value} is out of range ${spec.min}-${spec.max}`);
  return value;
}

function parseStep(text: string, spec: FieldSpec, fail: (why: string) => never): number {
  if (!/^\d+$/.test(text)) return fail(`step '${text}' is not a number`);
  const step = Number(text);
  const span = spec.max - spec.min + 1;
  if (step < 1 || step > span) fail(`step ${step} must be between 1 and ${span}`);
  return step;
}

function unique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

export function dayMatches(cron: Cron, day: Date): boolean {
  if (!cron.months.includes(day.getUTCMonth() + 1)) return false;
  const dom = cron.daysOfMonth.includes(day.getUTCDate());
  const dow = cron.daysOfWeek.includes(day.getUTCDay());
  return cron.dayOfMonthRestricted && cron.dayOfWeekRestricted ? dom || dow : dom && dow;
}

/** Every run of `cron` that starts in [from, from + days), each lasting maxDurationMinutes. */
export function runWindows(cron: Cron | string, maxDurationMinutes: number, from: Date, days = 7): Window[] {
  const fromMs = from.getTime();
  if (Number.isNaN(fromMs)) throw new RangeError('runWindows: from is an invalid date');
  if (!(days >= 0)) throw new RangeError(`runWindows: days must be >= 0, got ${days}`);
  return startsBetween(toCron(cron), fromMs, fromMs + days * DAY_MS).map((start) => ({
    start: new Date(start),
    end: new Date(start + durationMs(maxDurationMinutes)),
  }));
}

/**
 * The first intersection of a run of `a` with a run of `b` among the runs active in the
 * `days`-day window from REFERENCE_WEEK_START, or null. Runs that started before the window and
 * are still going count, so a Sunday-night run is seen against Monday's. The interval returned
 * is the real intersection, not clipped to the window. Linear in the runs of both (a sorted sweep).
 */
export function overlaps(a: ScheduledRun, b: ScheduledRun, days = 7): Window | null {
  return firstIntersection(activeRuns(a, days), activeRuns(b, days));
}

interface Run {
  start: number;
  end: number;
}

/** The days `activeRuns` walks: a run still going at the window's start began less than one duration before it. */
function activeSpan(run: ScheduledRun, days: number): { cron: Cron; duration: number; from: number; to: number } {
  const duration = durationMs(run.maxDurationMinutes);
  const windowStart = Date.parse(REFERENCE_WEEK_START);
  return {
    cron: toCron(run.cron),
    duration,
    from: windowStart - duration + MINUTE_MS,
    to: windowStart + days * DAY_MS,
  };
}

/** Runs overlapping the window, sorted by start and so, with one duration, by end. */
function activeRuns(run: ScheduledRun, days: number): Run[] {
  const { cron, duration, from, to } = activeSpan(run, days);
  return startsBetween(cron, from, to).map((start) => ({ start, end: start + duration }));
}

/**
 * At most how many runs `overlaps` walks for `run`, counted without listing them, so a caller can
 * bound its work before it starts. With MAX_DURATION_MINUTES, at most 14 days of `* * * * *`: 20,160.
 */
export function activeRunBound(run: ScheduledRun, days = 7): number {
  const { cron, from, to } = activeSpan(run, days);
  return matchingDays(cron, from, to).length * cron.hours.length * cron.minutes.length;
}

function firstIntersection(runsA: Run[], runsB: Run[]): Window | null {
  let best: Run | null = null;
  let j = 0;
  for (const a of runsA) {
    if (best && a.start >= best.start) break;
    // Runs of b that ended by a.start miss a and every later run of a too.
    while (j < runsB.length && (runsB[j] as Run).end <= a.start) j++;
    const b = runsB[j];
    if (b === undefined) break;
    // b is the earliest-starting run still going at a.start: no other run of b meets a sooner.
    if (b.start >= a.end) continue;
    const start = Math.max(a.start, b.start);
    if (!best || start < best.start) best = { start, end: Math.min(a.end, b.end) };
  }
  return best && { start: new Date(best.start), end: new Date(best.end) };
}

/** Start times (ms) of every run in [fromMs, toMs), walking the matching UTC days. */
function startsBetween(cron: Cron, fromMs: number, toMs: number): number[] {
  const starts: number[] = [];
  for (const day of matchingDays(cron, fromMs, toMs)) {
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        const start = day + (hour * 60 + minute) * MINUTE_MS;
        if (start >= fromMs && start < toMs) starts.push(start);
      }
    }
  }
  return starts;
}

/** Midnights (ms) of the UTC days in [fromMs, toMs) that `cron` runs on, including the day fromMs falls in. */
function matchingDays(cron: Cron, fromMs: number, toMs: number): number[] {
  const days: number[] = [];
  for (let day = Math.floor(fromMs / DAY_MS) * DAY_MS; day < toMs; day += DAY_MS) {
    if (dayMatches(cron, new Date(day))) days.push(day);
  }
  return days;
}

function toCron(cron: Cron | string): Cron {
  return typeof cron === 'string' ? parseCron(cron) : cron;
}

function durationMs(minutes: number): number {
  if (!Number.isInteger(minutes) || minutes <= 0 || minutes > MAX_DURATION_MINUTES) {
    throw new RangeError(`maxDurationMinutes must be an integer from 1 to ${MAX_DURATION_MINUTES}, got ${minutes}`);
  }
  return minutes * MINUTE_MS;
}
