/**
 * The schedules-overlap rule: two jobs of one table whose runs can meet (from `schedule.cron` and
 * `maxDurationMinutes`), and whose forecast says that one of them then fails. Any pair: a compaction
 * and a rewrite, an appender every five minutes and a half-hour delete, two rewrites. Only pairs the
 * forecast judged are compared (the forecast is the evidence), and the runs a pair walks are counted
 * before it is compared, against the audit's budget of runs (limits.ts); a duration above
 * MAX_DURATION_MINUTES never reaches here, the manifest's check refuses it.
 */
import { type AuditBudgets, pairsInOrder } from './limits';
import { tablesSmallestFirst } from './rules';
import { activeRunBound, overlaps, type ScheduledRun, type Window } from './schedule';
import type { PairForecast } from './tables';
import type { Finding, Job } from './types';

function scheduledRun(job: Job): ScheduledRun | null {
  const { cron, maxDurationMinutes } = job.schedule ?? {};
  return cron && maxDurationMinutes ? { cron, maxDurationMinutes } : null;
}

/**
 * SECOND's fate after FIRST commits, as SECOND's own engine judges it when its job names one (else as
 * delta-rs 1.6 does): whether it commits, and the check or message that refuses it.
 */
function secondVerdict(p: PairForecast): { commits: boolean | null; refusal: string } {
  const own = p.secondEngine === null ? undefined : p.byEngine.find((e) => e.engine === p.secondEngine);
  const v = own ?? { commits: p.secondCommits, failedCheck: p.failedCheck, message: p.message };
  return { commits: v.commits, refusal: v.failedCheck ?? v.message ?? 'refused' };
}

const WEEKDAY = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

function when(at: Window): string {
  const day = `${WEEKDAY[at.start.getUTCDay()]} ${at.start.toISOString().slice(0, 10)}`;
  return `${hhmm(at.start)}–${hhmm(at.end)} UTC on ${day}`;
}

const runText = (j: Job) => `${j.name} ('${j.schedule?.cron}', up to ${j.schedule?.maxDurationMinutes} min)`;

/** Each pair of scheduled jobs on a table whose forecast fails in either order and whose runs can meet. */
export function scheduleConflicts(jobs: Job[], pairs: PairForecast[], budget: AuditBudgets['schedules']): Finding[] {
  const forecast = new Map(pairs.map((p) => [`${p.table}\0${p.first}\0${p.second}`, p]));
  const out: Finding[] = [];
  for (const [table, tableJobs] of tablesSmallestFirst(jobs)) {
    const scheduled = tableJobs.filter((j) => scheduledRun(j) !== null);
    // Each job's runs counted once, not once per pair (a table of 500 jobs has 124,750 pairs).
    const bound = new Map(scheduled.map((j) => [j, activeRunBound(scheduledRun(j) as ScheduledRun)]));
    for (const [i, k] of pairsInOrder(scheduled.length)) {
      const [a, b] = [scheduled[i], scheduled[k]] as [Job, Job];
      const failing = [
        forecast.get(`${table}\0${a.name}\0${b.name}`),
        forecast.get(`${table}\0${b.name}\0${a.name}`),
      ].filter((p): p is PairForecast => p !== undefined && secondVerdict(p).commits === false);
      if (failing.length === 0) continue;
      const [ra, rb] = [scheduledRun(a), scheduledRun(b)] as [ScheduledRun, ScheduledRun];
      if (!budget.take((bound.get(a) as number) + (bound.get(b) as number))) continue;
      const at = overlaps(ra, rb);
      if (!at) continue;
      const outcomes = failing.map(
        (p) => `when ${p.first} commits first, ${p.second} fails (${secondVerdict(p).refusal})`,
      );
      const losers = [a, b].filter((j) => failing.some((p) => p.second === j.name));
      const unlooped = losers.filter((j) => j.onCommitFailed !== 'redo-whole-change');
      out.push({
        rule: 'schedules-overlap',
        severity: 'warning',
        jobs: [a.name, b.name],
        table,
        evidence: `${runText(a)} and ${runText(b)} can run at once, first ${when(at)}; forecast on ${table}: ${outcomes.join('; ')}`,
        fix:
          `schedule ${a.name} and ${b.name} apart` +
          (unlooped.length > 0
            ? `, or give ${unlooped.map((j) => j.name).join(' and ')} a redo loop (onCommitFailed: redo-whole-change)`
            : ` to save the work ${losers.map((j) => j.name).join(' and ')} ${losers.length > 1 ? 'redo' : 'redoes'} after losing`),
      });
    }
  }
  return out;
}
