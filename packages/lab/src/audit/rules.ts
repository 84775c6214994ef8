/**
 * The lesson's closing advice as rules over a jobs manifest: each rule looks at the jobs (and,
 * for file overlaps, at the table's data) and reports a finding only with the evidence for it.
 * The isolation readings are the engine's own (interpretIsolationLevel), never a second copy.
 */
import { type EngineId, type EngineReading, ISOLATION_LEVEL_KEY, interpretIsolationLevel } from '@racelab/engine';
import { type AuditBudgets, auditBudgets, pairsInOrder } from './limits';
import { activeRunBound, overlaps, type ScheduledRun } from './schedule';
import type { Finding, Job } from './types';

/** Which engine's reading applies to a job's `engine` text; null when we cannot tell. */
export function engineOf(text: string): EngineId | null {
  const rs = /delta-rs\s*v?(\d+)\.(\d+)/i.exec(text);
  if (rs) return Number(rs[1]) > 1 || (Number(rs[1]) === 1 && Number(rs[2]) >= 2) ? 'delta-rs' : 'delta-rs-legacy';
  if (/delta-rs|deltalake|python/i.test(text)) return 'delta-rs';
  if (/databricks/i.test(text)) return 'databricks';
  if (/spark/i.test(text)) return 'delta-spark';
  return null;
}

const REWRITES = new Set(['update', 'delete', 'merge', 'overwrite']);
const WRITES = new Set(['append', 'overwrite', 'update', 'delete', 'merge', 'optimize']);

export const byTable = (jobs: Job[]) => {
  const tables = new Map<string, Job[]>();
  for (const j of jobs) tables.set(j.table, [...(tables.get(j.table) ?? []), j]);
  return tables;
};

/**
 * Each table's jobs, tables with fewer jobs first (then in manifest order): a pairwise budget that
 * runs out then cuts the largest table, not every table after the first.
 */
export const tablesSmallestFirst = (jobs: Job[]) => [...byTable(jobs)].sort((a, b) => a[1].length - b[1].length);

/** Jobs that write the table, other than `job`. */
const otherWriters = (job: Job, all: Job[]) =>
  all.filter((j) => j !== job && j.table === job.table && WRITES.has(j.operation));

function readingFor(job: Job, value: string): EngineReading | null {
  const engine = engineOf(job.engine);
  return engine === null ? null : (interpretIsolationLevel(value).find((r) => r.engine === engine) ?? null);
}

/** The isolation value a job sets is not read the way its author meant, on its own engine. */
function isolationNotParsed(jobs: Job[]): Finding[] {
  return jobs.flatMap((job) => {
    const value = job.tableProperties?.[ISOLATION_LEVEL_KEY];
    const reading = value === undefined ? null : readingFor(job, value);
    if (value === undefined || !reading?.flagged) return [];
    const fix = reading.suggestion
      ? `set ${ISOLATION_LEVEL_KEY} = '${reading.suggestion}' for ${reading.label}`
      : `remove ${ISOLATION_LEVEL_KEY}, or set a level ${reading.label} accepts`;
    return [
      {
        rule: 'isolation-not-parsed',
        severity: reading.status === 'parsed' ? 'warning' : 'error',
        jobs: [job.name],
        table: job.table,
        evidence: `${job.name} (${job.engine}) sets ${ISOLATION_LEVEL_KEY} = '${value}': ${reading.explanation}${reading.error ? ` (${reading.error})` : ''}`,
        fix,
      },
    ];
  });
}

/** One table, engines that read its isolation value as different levels. */
function isolationDiffersAcrossEngines(jobs: Job[]): Finding[] {
  const out: Finding[] = [];
  for (const [table, tableJobs] of byTable(jobs)) {
    const values = new Set(tableJobs.flatMap((j) => j.tableProperties?.[ISOLATION_LEVEL_KEY] ?? []));
    for (const value of values) {
      const levels = new Map<string, string[]>();
      for (const j of tableJobs) {
        const r = readingFor(j, value);
        if (!r) continue;
        const level = r.effective ?? 'every commit fails';
        levels.set(level, [...(levels.get(level) ?? []), j.name]);
      }
      if (levels.size < 2) continue;
      out.push({
        rule: 'isolation-differs-across-engines',
        severity: 'warning',
        jobs: [...levels.values()].flat(),
        table,
        evidence: `'${value}' means ${[...levels.entries()].map(([l, js]) => `${l} for ${js.join(', ')}`).join('; ')}`,
        fix: 'use a spelling every engine that writes the table reads the same way, or move the writers to one engine',
      });
    }
  }
  return out;
}

function commitMetadataIsolation(jobs: Job[]): Finding[] {
  return jobs
    .filter((j) => j.commitProperties?.isolationLevel !== undefined)
    .map((j) => ({
      rule: 'commit-metadata-isolation',
      severity: 'warning' as const,
      jobs: [j.name],
      table: j.table,
      evidence: `${j.name} passes isolationLevel = '${j.commitProperties?.isolationLevel}' in its commit properties: delta-rs writes it into commitInfo and its conflict checker never reads it; only the table property ${ISOLATION_LEVEL_KEY} changes conflict checking`,
      fix: `remove it from the commit properties and set the table property ${ISOLATION_LEVEL_KEY} (camelCase for delta-rs, e.g. 'writeSerializable')`,
    }));
}

function noRedo(jobs: Job[]): Finding[] {
  return jobs
    .filter((j) => REWRITES.has(j.operation) && (j.onCommitFailed === 'fail' || j.onCommitFailed === 'retry-commit'))
    .filter((j) => otherWriters(j, jobs).length > 0)
    .map((j) => ({
      rule: 'no-redo-on-conflict',
      severity: j.onCommitFailed === 'retry-commit' ? ('error' as const) : ('warning' as const),
      jobs: [j.name, ...otherWriters(j, jobs).map((o) => o.name)],
      table: j.table,
      evidence:
        j.onCommitFailed === 'retry-commit'
          ? `${j.name} (${j.operation}) answers a lost commit by committing the same change again: its files were computed from a version that no longer holds (lesson B1: the loser's rewrite is stale, the conflict check refuses it again)`
          : `${j.name} (${j.operation}) gives up when it loses to ${otherWriters(j, jobs)
              .map((o) => o.name)
              .join(', ')}: its change is simply not made (lesson B1, one update of two is lost)`,
      fix: 'on CommitFailedError, reopen the table and redo the whole change (read, compute, write), a bounded number of times (lesson D1)',
    }));
}

function retriesOff(jobs: Job[]): Finding[] {
  return jobs
    .filter((j) => j.commitProperties?.maxCommitRetries === 0 && otherWriters(j, jobs).length > 0)
    .map((j) => ({
      rule: 'commit-retries-off',
      severity: 'warning' as const,
      jobs: [j.name],
      table: j.table,
      evidence: `${j.name} sets max_commit_retries = 0 on a table ${otherWriters(j, jobs)
        .map((o) => o.name)
        .join(
          ', ',
        )} also write: any commit that lands first makes it fail with "Failed to commit transaction: 0", even one it could never conflict with (lesson A2)`,
      fix: "keep delta-rs's default of 15 retries; the conflict checker still refuses what truly conflicts",
    }));
}

function checkThenAppend(jobs: Job[]): Finding[] {
  return jobs
    .filter((j) => j.operation === 'append' && j.checksTableBeforeAppend)
    .map((j) => ({
      rule: 'check-then-append',
      severity: 'error' as const,
      jobs: [j.name],
      table: j.table,
      evidence: `${j.name} reads the table to decide whether to append: two runs at once both see nothing and both append, and appends never conflict (lesson E1: 317,150 trips for one day, every trip twice)`,
      fix: 'overwrite with a predicate on what the job owns (e.g. the day: lesson E2 ends with exactly one copy), or MERGE on a key',
    }));
}

function blindAppendThatReads(jobs: Job[]): Finding[] {
  return jobs
    .filter(
      (j) =>
        j.commitProperties?.isBlindAppend === true &&
        (j.operation !== 'append' || j.checksTableBeforeAppend === true || j.predicate !== undefined),
    )
    .map((j) => ({
      rule: 'blind-append-reads',
      severity: 'error' as const,
      jobs: [j.name],
      table: j.table,
      evidence: `${j.name} marks its commits isBlindAppend although it ${j.operation !== 'append' ? `is a${j.operation === 'update' ? 'n' : ''} ${j.operation}` : 'reads the table first'}: under WriteSerializable a blind append is not checked against concurrent writers at all (lesson I3–I6)`,
      fix: 'drop isBlindAppend: only a pure append that reads nothing may claim it',
    }));
}

function scheduledRun(job: Job): ScheduledRun | null {
  const { cron, maxDurationMinutes } = job.schedule ?? {};
  return cron && maxDurationMinutes ? { cron, maxDurationMinutes } : null;
}

/**
 * Each compaction against each update or delete of its table whose schedules can meet. The runs a
 * pair walks are counted before it is compared, and the audit's budget of runs stops the check.
 */
function compactionOverlap(jobs: Job[], budget: AuditBudgets['schedules']): Finding[] {
  const out: Finding[] = [];
  for (const [table, tableJobs] of tablesSmallestFirst(jobs)) {
    const scheduled = tableJobs.filter((j) => scheduledRun(j) !== null);
    const bound = new Map(scheduled.map((j) => [j, activeRunBound(scheduledRun(j) as ScheduledRun)]));
    for (const [i, k] of pairsInOrder(scheduled.length)) {
      const pair = [scheduled[i], scheduled[k]] as [Job, Job];
      const c = pair.find((j) => j.operation === 'optimize');
      const w = pair.find((j) => j.operation === 'update' || j.operation === 'delete');
      if (!c || !w || !budget.take((bound.get(c) as number) + (bound.get(w) as number))) continue;
      const at = overlaps(scheduledRun(c) as ScheduledRun, scheduledRun(w) as ScheduledRun);
      if (!at) continue;
      out.push({
        rule: 'compaction-overlaps-rewrites',
        severity: 'warning',
        jobs: [c.name, w.name],
        table,
        evidence: `${c.name} ('${c.schedule?.cron}', up to ${c.schedule?.maxDurationMinutes} min) and ${w.name} ('${w.schedule?.cron}', up to ${w.schedule?.maxDurationMinutes} min) can run at once, e.g. ${at.start.toISOString().slice(11, 16)}–${at.end.toISOString().slice(11, 16)} UTC on ${at.start.toISOString().slice(0, 10)}: a compaction that commits first makes the ${w.operation} fail (lesson C1/C2), one that commits second fails itself (C3)`,
        fix: `schedule ${c.name} outside ${w.name}'s window, or give ${w.name} a redo loop`,
      });
    }
  }
  return out;
}

function noVacuum(jobs: Job[]): Finding[] {
  const out: Finding[] = [];
  for (const [table, tableJobs] of byTable(jobs)) {
    const writers = tableJobs.filter((j) => WRITES.has(j.operation));
    if (writers.length < 2 || tableJobs.some((j) => j.operation === 'vacuum')) continue;
    out.push({
      rule: 'no-vacuum',
      severity: 'info',
      jobs: writers.map((j) => j.name),
      table,
      evidence: `${writers.length} jobs write ${table} and none vacuums it: every lost commit leaves its files behind, unreferenced (lesson B1: 11 Parquet files on disk, 1 named by the log)`,
      fix: 'schedule a vacuum of the table (after the retention period) so losers\u2019 files and removed files are deleted',
    });
  }
  return out;
}

/**
 * Every rule that needs only the manifest; file overlaps need the table and live in tables.ts. The
 * schedule comparison spends `budgets.schedules`; the caller reports what it left out.
 */
export function manifestFindings(jobs: Job[], budgets: AuditBudgets = auditBudgets()): Finding[] {
  return [
    ...isolationNotParsed(jobs),
    ...isolationDiffersAcrossEngines(jobs),
    ...commitMetadataIsolation(jobs),
    ...noRedo(jobs),
    ...retriesOff(jobs),
    ...checkThenAppend(jobs),
    ...blindAppendThatReads(jobs),
    ...compactionOverlap(jobs, budgets.schedules),
    ...noVacuum(jobs),
  ];
}
