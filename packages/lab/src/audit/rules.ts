/**
 * The lesson's closing advice as rules over a jobs manifest: each rule looks at the jobs and reports
 * a finding only with the evidence for it, built from the jobs it names (their fields, their table,
 * the other jobs that write it), never a figure of the lesson's own runs; a finding names only the
 * jobs its evidence is about.
 * The isolation readings and the spelling they recommend are the engine's own (interpretIsolationLevel,
 * recommendSpelling), never a second copy.
 */
import {
  describeUnset,
  ISOLATION_LEVEL_KEY,
  type LibraryReading,
  libraryLabel,
  readIsolationLevel,
  readUnset,
  unsetFix,
  type WriterLibrary,
} from '@racelab/engine';
import { BLIND_APPEND_FIX, COMMIT_METADATA_FIX, isolationFix, RETRIES_OFF_FIX } from './code/fixes';
import type { Finding, Job } from './types';

/** Which engine's reading applies to a job's `engine` text; null when we cannot tell. */
export function libraryOf(text: string): WriterLibrary | null {
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

function readingFor(job: Job, value: string): LibraryReading | null {
  const engine = libraryOf(job.engine);
  return engine === null ? null : readIsolationLevel(value, engine);
}

/** The engines a table's jobs run on, each with its jobs (jobs on an engine we cannot tell are left out). */
function librariesOf(tableJobs: Job[]): Map<WriterLibrary, Job[]> {
  const engines = new Map<WriterLibrary, Job[]>();
  for (const j of tableJobs) {
    const engine = libraryOf(j.engine);
    if (engine !== null) engines.set(engine, [...(engines.get(engine) ?? []), j]);
  }
  return engines;
}

/** An engine as the audit names it: its label and the jobs that run on it. */
const withJobs = (engines: Map<WriterLibrary, Job[]>) => (engine: WriterLibrary) =>
  `${libraryLabel(engine)} (${(engines.get(engine) ?? []).map((j) => j.name).join(', ')})`;

/** The fix for a table whose jobs set `value`, naming the jobs of an engine that reads it differently. */
function spellingFix(value: string, tableJobs: Job[]): string {
  const engines = librariesOf(tableJobs);
  return isolationFix(value, engines.keys(), withJobs(engines));
}

/**
 * What a job's own engine makes of the isolation value the job sets. Read otherwise than meant at
 * commit: an error (isolation-not-parsed). Read as meant but not settable by that engine (Delta
 * Spark's DDL sets only Serializable): a note, not a flag (isolation-set-elsewhere), since the value
 * is right once another engine has written it. Either fix names the one spelling to write.
 */
function isolationPerJob(jobs: Job[]): Finding[] {
  const tables = byTable(jobs);
  return jobs.flatMap((job) => {
    const value = job.tableProperties?.[ISOLATION_LEVEL_KEY];
    const reading = value === undefined ? null : readingFor(job, value);
    if (value === undefined || !reading || (!reading.flagged && reading.settable)) return [];
    return [
      {
        rule: reading.flagged ? 'isolation-not-parsed' : 'isolation-set-elsewhere',
        severity: reading.flagged ? 'error' : 'info',
        jobs: [job.name],
        table: job.table,
        evidence: `${job.name} (${job.engine}) sets ${ISOLATION_LEVEL_KEY} = '${value}': ${reading.explanation}${reading.error ? ` (${reading.error})` : ''}`,
        fix: spellingFix(value, tables.get(job.table) as Job[]),
      },
    ];
  });
}

/**
 * One table, engines that read its isolation value as different levels; with no value set, engines
 * whose defaults differ (Databricks: WriteSerializable; the others: Serializable).
 */
function isolationDiffersAcrossEngines(jobs: Job[]): Finding[] {
  const out: Finding[] = [];
  for (const [table, tableJobs] of byTable(jobs)) {
    const values = new Set(tableJobs.flatMap((j) => j.tableProperties?.[ISOLATION_LEVEL_KEY] ?? []));
    if (values.size === 0) {
      const engines = librariesOf(tableJobs);
      const unset = readUnset(engines.keys());
      const fix = unsetFix(unset);
      if (fix === null) continue;
      out.push({
        rule: 'isolation-differs-across-engines',
        severity: 'warning',
        jobs: [...engines.values()].flat().map((j) => j.name),
        table,
        evidence: `${ISOLATION_LEVEL_KEY} is ${describeUnset(unset, withJobs(engines))}`,
        fix,
      });
    }
    for (const value of values) {
      const levels = new Map<string, string[]>();
      for (const j of tableJobs) {
        const r = readingFor(j, value);
        if (!r) continue;
        const level = r.effective ?? (r.status === 'commitFails' ? 'every commit fails' : 'no level it accepts');
        levels.set(level, [...(levels.get(level) ?? []), j.name]);
      }
      if (levels.size < 2) continue;
      out.push({
        rule: 'isolation-differs-across-engines',
        severity: 'warning',
        jobs: [...levels.values()].flat(),
        table,
        evidence: `'${value}' means ${[...levels.entries()].map(([l, js]) => `${l} for ${js.join(', ')}`).join('; ')}`,
        fix: spellingFix(value, tableJobs),
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
      fix: COMMIT_METADATA_FIX,
    }));
}

/** A job's change as the evidence names it: its operation, and the rows its predicate picks. */
const changeOf = (j: Job) => (j.predicate === undefined ? j.operation : `${j.operation} where ${j.predicate}`);

/** Jobs named in a sentence, with the verb that follows them: "a writes", "a, b write". */
const theyDo = (others: Job[], verb = 'write') =>
  `${others.map((o) => o.name).join(', ')} ${others.length === 1 ? `${verb}s` : verb}`;

/** A rewrite on a shared table that does not redo its change when it loses: about that job alone. */
function noRedo(jobs: Job[]): Finding[] {
  return jobs.flatMap((j) => {
    const others = otherWriters(j, jobs);
    const answer = j.onCommitFailed;
    if (!REWRITES.has(j.operation) || others.length === 0 || (answer !== 'fail' && answer !== 'retry-commit'))
      return [];
    const loses = `${j.name} (${changeOf(j)}) has onCommitFailed: ${answer}; ${theyDo(others)} ${j.table} too, and when one of them commits first`;
    return [
      {
        rule: 'no-redo-on-conflict',
        severity: answer === 'retry-commit' ? ('error' as const) : ('warning' as const),
        jobs: [j.name],
        table: j.table,
        evidence:
          answer === 'retry-commit'
            ? `${loses}, ${j.name} commits the same files again: they were computed from a version that no longer holds, and the conflict check refuses them again`
            : `${loses}, ${j.name} stops and its change is not made`,
        fix: `on CommitFailedError, reopen ${j.table} and redo the whole ${j.operation} (read, compute, write), a bounded number of times (onCommitFailed: redo-whole-change)`,
      },
    ];
  });
}

function retriesOff(jobs: Job[]): Finding[] {
  return jobs.flatMap((j) => {
    const others = otherWriters(j, jobs);
    if (j.commitProperties?.maxCommitRetries !== 0 || others.length === 0) return [];
    return [
      {
        rule: 'commit-retries-off',
        severity: 'warning' as const,
        jobs: [j.name],
        table: j.table,
        evidence: `${j.name} sets max_commit_retries = 0 on ${j.table}, which ${theyDo(others)} too: any commit of theirs that lands first makes ${j.name} fail with "Failed to commit transaction: 0", even one it could never conflict with`,
        fix: RETRIES_OFF_FIX,
      },
    ];
  });
}

/** When a job runs, as the manifest says, for evidence about runs that may overlap. */
const runsOf = (j: Job) =>
  j.schedule?.cron === undefined
    ? ''
    : `, runs on '${j.schedule.cron}'${j.schedule.maxDurationMinutes === undefined ? '' : ` for up to ${j.schedule.maxDurationMinutes} min`}`;

function checkThenAppend(jobs: Job[]): Finding[] {
  return jobs
    .filter((j) => j.operation === 'append' && j.checksTableBeforeAppend)
    .map((j) => {
      const appenders = otherWriters(j, jobs).filter((o) => o.operation === 'append');
      return {
        rule: 'check-then-append',
        severity: 'error' as const,
        jobs: [j.name],
        table: j.table,
        evidence: `${j.name} reads the table to decide whether to append to ${j.table} (checksTableBeforeAppend)${runsOf(j)}: two runs at once both find nothing and both append, and appends never conflict, so the rows land twice${appenders.length > 0 ? `; ${theyDo(appenders, 'append')} to it too` : ''}`,
        fix: "overwrite with a predicate on what the job owns (e.g. its day), so a second run replaces the first run's rows, or MERGE on a key",
      };
    });
}

/** What a job does that reads the table, in words. */
function howItReads(j: Job): string {
  if (j.operation !== 'append') return `is a${/^[aeiou]/.test(j.operation) ? 'n' : ''} ${changeOf(j)}`;
  return j.checksTableBeforeAppend
    ? 'reads the table first (checksTableBeforeAppend)'
    : `has a predicate ('${j.predicate}')`;
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
      evidence: `${j.name} marks its commits isBlindAppend although it ${howItReads(j)}: under WriteSerializable a blind append is not checked against concurrent writers at all, so a change to what it read goes unseen`,
      fix: BLIND_APPEND_FIX,
    }));
}

function noVacuum(jobs: Job[]): Finding[] {
  const out: Finding[] = [];
  for (const [table, tableJobs] of byTable(jobs)) {
    const writing = tableJobs.filter((j) => WRITES.has(j.operation));
    if (writing.length < 2 || tableJobs.some((j) => j.operation === 'vacuum')) continue;
    out.push({
      rule: 'no-vacuum',
      severity: 'info',
      jobs: writing.map((j) => j.name),
      table,
      evidence: `${theyDo(writing)} ${table} and no job of the manifest vacuums it: the files of every commit one of them loses stay on disk, named by no log entry, and so do the files each rewrite removes`,
      fix: 'schedule a vacuum of the table (after the retention period) so losers\u2019 files and removed files are deleted',
    });
  }
  return out;
}

/**
 * Every rule that needs only the manifest. File overlaps need the table (tables.ts); overlapping
 * schedules need the pair forecasts (schedule-conflicts.ts).
 */
export function manifestFindings(jobs: Job[]): Finding[] {
  return [
    ...isolationPerJob(jobs),
    ...isolationDiffersAcrossEngines(jobs),
    ...commitMetadataIsolation(jobs),
    ...noRedo(jobs),
    ...retriesOff(jobs),
    ...checkThenAppend(jobs),
    ...blindAppendThatReads(jobs),
    ...noVacuum(jobs),
  ];
}
